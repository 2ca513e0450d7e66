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
