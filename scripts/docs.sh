#!/usr/bin/env bash
# Builds the DocC documentation of every documented module with warnings as errors, and
# checks that the code samples of the articles and the README are the ones compiled in
# Tools/Tests/DocumentationSamples (scripts/doc-samples.py). The SDK (this package)
# depends on no package, not even swift-docc-plugin: its modules' symbol graphs go to
# the toolchain's `docc` directly, as the plugin does. The server modules (Tools/) use
# the plugin. Usage: scripts/docs.sh   (archives go to .build/docs and Tools/.build/plugins)
set -euo pipefail
cd "$(dirname "$0")/.."
python3 scripts/doc-samples.py --check
status=0
report() { # target log
    echo "docs: $1 has documentation warnings:" >&2
    grep -E "(error|warning):" -A6 "$2" | grep -v "swift-distributed-tracing" >&2 || tail -20 "$2" >&2
    status=1
}
graphs="$(swift build --show-bin-path)/../symbolgraph"
rm -rf "$graphs"
swift package dump-symbol-graph --minimum-access-level public >/dev/null 2>&1 || true
mkdir -p .build/docs
for target in ChargeKit CitconUPI; do
    log="$(mktemp)"
    only="$(mktemp -d)"
    cp "$graphs/$target".symbols.json "$only/"
    if docc convert "Sources/$target/$target.docc" --additional-symbol-graph-dir "$only" \
        --fallback-display-name "$target" --fallback-bundle-identifier "$target" \
        --output-path ".build/docs/$target.doccarchive" --warnings-as-errors >"$log" 2>&1; then
        echo "docs: $target built without warnings"
    else
        report "$target" "$log"
    fi
    rm -rf "$log" "$only"
done
for target in CitconSandbox ChargeKitPostgres; do
    log="$(mktemp)"
    # The PostgreSQL trait's build (ChargeKitPostgres is empty without it), in its own folder.
    if swift package --package-path Tools --traits PostgreSQL --scratch-path Tools/.build-postgres --disable-sandbox \
        generate-documentation --target "$target" --warnings-as-errors >"$log" 2>&1; then
        echo "docs: $target built without warnings"
    else
        report "$target" "$log"
    fi
    rm -f "$log"
done
exit $status
