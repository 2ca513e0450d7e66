#!/usr/bin/env bash
# The SDK libraries link Foundation only: build a probe that links ChargeKit and
# CitconUPI as an app would and fail if its binary holds a symbol of NIO, Hummingbird,
# ServiceLifecycle, SQLite, PostgreSQL or swift-log.
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product LinkageProbe 2>&1 | grep -E "error|Compiling|Build" | tail -1 || true
probe="$(swift build --show-bin-path)/LinkageProbe"
[ -x "$probe" ] || { echo "linkage check: $probe was not built" >&2; exit 1; }
"$probe" >/dev/null
forbidden='NIOCore|NIOPosix|Hummingbird|ServiceLifecycle|SQLiteNIO|sqlite3_|PostgresNIO|7Logging6Logger'
count=$(nm "$probe" | swift demangle --simplified | grep -E -c "$forbidden" || true)
if [ "$count" != "0" ]; then
    echo "linkage check: FAILED, the SDK probe links $count forbidden symbols:" >&2
    nm "$probe" | swift demangle --simplified | grep -E "$forbidden" | head -5 >&2
    exit 1
fi
echo "linkage check: ChargeKit and CitconUPI link Foundation only (no NIO, Hummingbird, SQLite, PostgreSQL or swift-log symbols)"

# An app that depends on this repository for ChargeKit and CitconUPI resolves no other
# package, and builds.
app="$(mktemp -d)"
trap 'rm -rf "$app"' EXIT
mkdir -p "$app/Sources/App"
cat > "$app/Package.swift" <<MANIFEST
// swift-tools-version:6.0
import PackageDescription
let package = Package(
    name: "App",
    platforms: [.macOS(.v14)],
    dependencies: [.package(path: "$PWD")],
    targets: [.executableTarget(name: "App", dependencies: [
        .product(name: "ChargeKit", package: "$(basename "$PWD" | tr '[:upper:]' '[:lower:]')"),
        .product(name: "CitconUPI", package: "$(basename "$PWD" | tr '[:upper:]' '[:lower:]')"),
    ])]
)
MANIFEST
cat > "$app/Sources/App/main.swift" <<'SWIFT'
import ChargeKit
import CitconUPI
print(PaymentProvider.allCases.count, CPayManager.sdkVersion)
SWIFT
(cd "$app" && swift package resolve >/dev/null && swift build >/dev/null) \
    || { echo "linkage check: an app depending on ChargeKit and CitconUPI does not resolve or build" >&2; exit 1; }
resolved="$(cd "$app" && swift package show-dependencies --format json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)["dependencies"][0]["dependencies"]))')"
checkouts="$(ls "$app/.build/checkouts" 2>/dev/null | wc -l)"
if [ "$resolved" != "0" ] || [ "$checkouts" != "0" ]; then
    echo "linkage check: FAILED, an app depending on ChargeKit resolves $resolved other packages ($checkouts checkouts)" >&2
    exit 1
fi
echo "linkage check: an app depending on ChargeKit and CitconUPI resolves no other package (.build/checkouts empty) and builds"
