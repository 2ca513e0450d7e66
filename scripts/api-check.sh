#!/usr/bin/env bash
# The public API of the SDK and server libraries is what api/ lists, no more and no
# less: the compiler's symbol graph is compared with the reviewed lists. Each payment
# app's part of a module (what is declared in its folder, `Sources/<Module>/<App>/`,
# with the folders named by RegisteredApps.all, and the members of its types) is
# reviewed in api/<Module>/<App>.txt, in the app's home; the rest in api/<Module>.txt.
# A change to the public surface is made on purpose: run with --update, review the
# diff of api/, and commit it with the change. The test helpers must not be in the
# CitconSandbox product (they ship in CitconSandboxTesting).
set -euo pipefail
cd "$(dirname "$0")/.."
# The SDK's modules from this package, the server's from Tools/ (built with its PostgreSQL
# trait, in its own build folder, Tools/.build-postgres: ChargeKitPostgres is empty without). SPI (`@_spi(Tools)`,
# what the tools share with the SDK, invisible to an app) is listed too, each entry marked `spi`, so that what the
# SDK exposes to the tools alone is reviewed as the rest is.
sdk="$(swift build --show-bin-path)/../symbolgraph"
postgres=(--package-path Tools --traits PostgreSQL --scratch-path Tools/.build-postgres)
tools="$(swift build "${postgres[@]}" --show-bin-path)/../symbolgraph"
rm -rf "$sdk" "$tools"
# Before the tests are built, it cannot load the test-runner modules and exits 1 for
# them; the library graphs it needs are written all the same, and checked below.
swift package dump-symbol-graph --minimum-access-level public --include-spi-symbols >/dev/null 2>&1 || true
swift package "${postgres[@]}" dump-symbol-graph --minimum-access-level public --include-spi-symbols >/dev/null 2>&1 || true
status=0
# The apps' folders, from the SDK's one registry line.
apps=$(bash scripts/registered-apps.sh | tr '\n' ' ')
[ -n "$apps" ] || { echo "api check: no app in RegisteredApps.all" >&2; exit 1; }
# Every product an app or a store author adds (ChargeKitObjC is empty off Apple
# platforms: scripts/objc-typecheck.sh checks its face), and the server libraries.
for module in ChargeKit CitconUPI ChargeKitSimulators ChargeKitTesting CitconSandbox ChargeKitPostgres CitconSandboxPostgres; do
    graphs="$sdk"
    case "$module" in CitconSandbox|ChargeKitPostgres|CitconSandboxPostgres) graphs="$tools" ;; esac
    [ -f "$graphs/$module.symbols.json" ] || { echo "api check: no symbol graph for $module" >&2; exit 1; }
    lists=$(mktemp -d)
    # With the graphs of what the module adds to other modules' types (`ChargeKit@Swift`:
    # a public member of an extension of Array, say), which the module's own graph leaves out.
    python3 - "$graphs/$module.symbols.json" "$lists" "$module" "$apps" "$graphs"/"$module"@*.symbols.json <<'PY'
import json, os, sys
graph, out, module, apps = json.load(open(sys.argv[1])), sys.argv[2], sys.argv[3], sys.argv[4].split()
for extension in sys.argv[5:]:
    if os.path.exists(extension):
        graph["symbols"] += json.load(open(extension))["symbols"]
located = {tuple(s["pathComponents"]): s["location"]["uri"] for s in graph["symbols"] if "location" in s}
def home(symbol):
    """The app whose folder declares the symbol or one of the types it belongs to."""
    path = symbol["pathComponents"]
    for uri in [symbol.get("location", {}).get("uri", "")] + [located.get(tuple(path[:n]), "") for n in range(len(path) - 1, 0, -1)]:
        for app in apps:
            if f"/Sources/{module}/{app}/" in uri:
                return app
    return None
lists = {}
# An underscored name is public for the compiler only (Swift's convention): not API.
for s in graph["symbols"]:
    if s["accessLevel"] in ("public", "open") and not s["pathComponents"][0].startswith("_"):
        kind = s["kind"]["identifier"].removeprefix("swift.") + (", spi" if s.get("spi") else "")
        lists.setdefault(home(s), set()).add(".".join(s["pathComponents"]) + "  [" + kind + "]")
for app, names in lists.items():
    with open(os.path.join(out, (app or "") + ".txt"), "w") as f:
        f.write("\n".join(sorted(names)) + "\n")
PY
    reviewed=$(mktemp -d)
    [ -f "api/$module.txt" ] && cp "api/$module.txt" "$reviewed/.txt"
    [ -d "api/$module" ] && cp api/"$module"/*.txt "$reviewed/" 2>/dev/null || true
    if [ "${1:-}" = "--update" ]; then
        rm -rf "api/$module" "api/$module.txt"
        if [ -f "$lists/.txt" ]; then mv "$lists/.txt" "api/$module.txt"; fi
        if compgen -G "$lists/*.txt" >/dev/null; then mkdir -p "api/$module" && mv "$lists"/*.txt "api/$module/"; fi
    elif ! diff -ru "$reviewed" "$lists" > "$lists.diff"; then
        echo "api check: the public API of $module differs from api/$module.txt and api/$module/ (run scripts/api-check.sh --update and review):" >&2
        head -40 "$lists.diff" >&2
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
    if s["accessLevel"] in ("public", "open") and "location" in s and not s.get("docComment") and not s.get("spi"):
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
[ "$status" = 0 ] && echo "api check: ChargeKit, CitconUPI, ChargeKitSimulators, ChargeKitTesting, CitconSandbox, ChargeKitPostgres and CitconSandboxPostgres export exactly the reviewed API (api/)"
exit $status
