#!/usr/bin/env bash
# The packages each build resolves, and their versions, as reviewed: Tools/dependencies.txt
# (the SDK's package has none: scripts/linkage-check.sh holds it to that). CI compares
# what `swift package show-dependencies --format json` resolved with the list, so that
# a changed version is a reviewed change and two machines build the same graph.
# (Package.resolved cannot be the record: the local package copies' commit ids are not
# GitHub's.)
# The graph with every trait of the tools enabled (PostgreSQL's driver too): the default
# build resolves the same packages less postgres-nio, which only that trait uses.
# Usage: scripts/dependencies.sh [--update]
set -euo pipefail
cd "$(dirname "$0")/.."
list=Tools/dependencies.txt
resolved=$(swift package --package-path Tools --enable-all-traits show-dependencies --format json 2>/dev/null | python3 -c '
import json, sys
seen = {}
def walk(node):
    for child in node.get("dependencies", []):
        if child["version"] != "unspecified":      # the SDK itself, by path
            seen[child["identity"]] = (child["version"], child["url"])
        walk(child)
walk(json.load(sys.stdin))
for identity, (version, url) in sorted(seen.items()):
    print(f"{identity} {version} {url}")
')
if [ "${1:-}" = "--update" ]; then
    { echo "# What the tools' package resolves, every trait enabled (scripts/dependencies.sh --update writes it; CI compares)."; echo "$resolved"; } > "$list"
    echo "dependencies: wrote $list ($(echo "$resolved" | wc -l) packages)"
    exit 0
fi
if ! diff <(grep -v '^#' "$list") <(echo "$resolved") >/dev/null; then
    echo "dependencies: the resolved graph differs from $list (< listed, > resolved):" >&2
    diff <(grep -v '^#' "$list") <(echo "$resolved") >&2 || true
    echo "dependencies: review the change, then run scripts/dependencies.sh --update" >&2
    exit 1
fi
echo "dependencies: the tools resolve the $(echo "$resolved" | wc -l) reviewed packages of $list"
