#!/usr/bin/env bash
# Every file of the repository outside an app's home that names the app, in code,
# comments or prose: what adding (or removing) the app touches beyond its own files.
# An app's home is every path that names it (Sources/ChargeKit/Square/, SquareTests.swift,
# api/ChargeKit/Square.txt, scripts/cli-check/square.sh…).
# Usage: scripts/app-footprint.sh PATTERN|--newest [--max N]
#   PATTERN   an extended regular expression, matched without case ('square')
#   --newest  the newest app: the last of the registry (`chargekit request --examples`)
#   --max N   exit 1 when more than N files name it
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 1 ] || { echo "usage: scripts/app-footprint.sh PATTERN|--newest [--max N]" >&2; exit 64; }
pattern=$1; max=${3:-}
if [ "$pattern" = --newest ]; then
    pattern=$(bash scripts/registered-apps.sh --providers | tail -1)
fi
[ "${2:-}" = "" ] || [ "${2:-}" = "--max" ] || { echo "usage: scripts/app-footprint.sh PATTERN|--newest [--max N]" >&2; exit 64; }
files=$(git ls-files | grep -Eiv -- "$pattern" | while read -r f; do
    [ -f "$f" ] && grep -Eqi -- "$pattern" "$f" 2>/dev/null && echo "$f"
done || true)
count=$(printf '%s' "$files" | grep -c . || true)
[ -n "$files" ] && echo "$files"
echo "$count files outside the home of /$pattern/ name it"
if [ -n "$max" ] && [ "$count" -gt "$max" ]; then exit 1; fi
