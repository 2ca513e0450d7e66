#!/usr/bin/env bash
# Builds the DocC documentation of every documented module with warnings as errors
# (swift-docc-plugin), and checks that the code samples of the articles and the
# README are the ones compiled in Tests/DocumentationSamples (scripts/doc-samples.py).
# Usage: scripts/docs.sh [output-dir]   (archives go to .build/plugins/Swift-DocC/outputs)
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/doc-samples.py --check
status=0
for target in ChargeKit CitconUPI CitconSandbox ChargeKitPostgres; do
    log="$(mktemp)"
    if swift package --disable-sandbox generate-documentation --target "$target" --warnings-as-errors >"$log" 2>&1; then
        echo "docs: $target built without warnings"
    else
        echo "docs: $target has documentation warnings:" >&2
        grep -E "^(error|warning):" -A6 "$log" | grep -v "swift-distributed-tracing" >&2 || tail -20 "$log" >&2
        status=1
    fi
    rm -f "$log"
done
exit $status
