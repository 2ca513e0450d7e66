#!/usr/bin/env bash
# Checks the workflow for the platforms this machine cannot run (.github/workflows/apple.yml):
# valid against GitHub's workflow schema (check-jsonschema ships it; no network), and
# every scheme it builds is a product of the SDK's manifest (swift package dump-package).
# Usage: scripts/workflow-check.sh
set -euo pipefail
cd "$(dirname "$0")/.."
command -v check-jsonschema >/dev/null || python3 -m pip install -q check-jsonschema >/dev/null
check-jsonschema --builtin-schema vendor.github-workflows .github/workflows/*.yml
products=$(swift package dump-package | python3 -c 'import json,sys; print(" ".join(p["name"] for p in json.load(sys.stdin)["products"]))')
python3 - "$products" <<'PY'
import re, sys
products = set(sys.argv[1].split())
text = open(".github/workflows/apple.yml").read()
schemes = set(re.findall(r"scheme:\s*\[([^\]]*)\]", text)[0].replace(" ", "").split(","))
missing = schemes - products
if missing:
    sys.exit(f"workflow-check: schemes that are not products of the manifest: {sorted(missing)}")
for name in ("macos-", "iOS Simulator", "xcode-select"):
    if name not in text:
        sys.exit(f"workflow-check: the workflow no longer names {name}")
print(f"workflow-check: the Apple workflow is valid and builds {len(schemes)} schemes, each a product ({', '.join(sorted(schemes))})")
PY
