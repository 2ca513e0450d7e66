#!/usr/bin/env bash
# The registered payment apps, one per line, in the registry's order.
# Usage: scripts/registered-apps.sh            their folders (the types of RegisteredApps.all)
#        scripts/registered-apps.sh --providers their names, as `chargekit request --examples` gives them
#                                               (CHARGEKIT_BIN, or the Tools build's chargekit)
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = --providers ]; then
    bin="${CHARGEKIT_BIN:-$(swift build --package-path Tools --show-bin-path)/chargekit}"
    "$bin" request --examples json | python3 -c 'import json,sys; print("\n".join(r["provider"] for r in json.load(sys.stdin)))'
else
    grep -o '[A-Za-z]*\.self' Sources/ChargeKit/Providers/RegisteredApps.swift | sed 's/\.self//'
fi
