#!/usr/bin/env bash
# The public API of the SDK and server libraries is what api/<Module>.txt lists, no
# more and no less: the compiler's symbol graph is compared with the reviewed lists.
# A change to the public surface is made on purpose: run with --update, review the
# diff of api/, and commit it with the change. The test helpers must not be in the
# CitconSandbox product (they ship in CitconSandboxTesting).
set -euo pipefail
cd "$(dirname "$0")/.."
# The SDK's modules from this package, the server's from Tools/. SPI (`@_spi(Tools)`,
# what the tools share with the SDK) is not in these graphs, so not in api/.
sdk="$(swift build --show-bin-path)/../symbolgraph"
tools="$(swift build --package-path Tools --show-bin-path)/../symbolgraph"
rm -rf "$sdk" "$tools"
# Before the tests are built, it cannot load the test-runner modules and exits 1 for
# them; the library graphs it needs are written all the same, and checked below.
swift package dump-symbol-graph --minimum-access-level public >/dev/null 2>&1 || true
swift package --package-path Tools dump-symbol-graph --minimum-access-level public >/dev/null 2>&1 || true
status=0
# Every product an app or a store author adds (ChargeKitObjC is empty off Apple
# platforms: scripts/objc-typecheck.sh checks its face), and the server libraries.
for module in ChargeKit CitconUPI ChargeKitSimulators ChargeKitTesting CitconSandbox ChargeKitPostgres; do
    graphs="$sdk"
    case "$module" in CitconSandbox|ChargeKitPostgres) graphs="$tools" ;; esac
    [ -f "$graphs/$module.symbols.json" ] || { echo "api check: no symbol graph for $module" >&2; exit 1; }
    current=$(mktemp)
    python3 - "$graphs/$module.symbols.json" > "$current" <<'PY'
import json, sys
graph = json.load(open(sys.argv[1]))
# An underscored name is public for the compiler only (Swift's convention): not API.
names = {".".join(s["pathComponents"]) + "  [" + s["kind"]["identifier"].removeprefix("swift.") + "]"
         for s in graph["symbols"] if s["accessLevel"] in ("public", "open") and not s["pathComponents"][0].startswith("_")}
print("\n".join(sorted(names)))
PY
    if [ "${1:-}" = "--update" ]; then
        cp "$current" "api/$module.txt"
    elif ! diff -u "api/$module.txt" "$current" > "$current.diff"; then
        echo "api check: the public API of $module differs from api/$module.txt (run scripts/api-check.sh --update and review):" >&2
        head -40 "$current.diff" >&2
        status=1
    fi
done
# Every entry an app calls (the SDK's modules) is shown in the documentation with its
# own comment: a public symbol written in the sources without a doc comment fails.
# (Members the compiler synthesises, such as `hashValue`, have no place in the sources.)
for module in ChargeKit CitconUPI; do
    undocumented=$(python3 - "$sdk/$module.symbols.json" <<'PY'
import json, sys
graph = json.load(open(sys.argv[1]))
for s in graph["symbols"]:
    if s["accessLevel"] in ("public", "open") and "location" in s and not s.get("docComment"):
        print(".".join(s["pathComponents"]), s["location"]["uri"].split("/")[-1] + ":" + str(s["location"]["position"]["line"]))
PY
)
    if [ -n "$undocumented" ]; then
        echo "api check: $module has public symbols without a doc comment:" >&2
        echo "$undocumented" | head -20 >&2
        status=1
    fi
done
if grep -E -q '^(HeadlessWallet|IPNReceiver|NoRedirects)[. ]' api/CitconSandbox.txt; then
    echo "api check: test helpers are in the CitconSandbox product" >&2
    status=1
fi
[ "$status" = 0 ] && echo "api check: ChargeKit, CitconUPI, ChargeKitSimulators, ChargeKitTesting, CitconSandbox and ChargeKitPostgres export exactly the reviewed API (api/*.txt)"
exit $status
