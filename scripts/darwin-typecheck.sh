#!/usr/bin/env bash
# Type-checks ChargeKit's Darwin branches (its platform file, and `#if canImport(Darwin)`: F_FULLFSYNC for the
# ledger's syncs, arc4random_buf for nonces) on Linux, under Swift 6 with strict
# concurrency, against Tests/DarwinStub/Darwin.swift: Linux's C library under Darwin's
# name plus Apple's few declarations those branches use. It proves they type-check;
# it cannot prove they link or run on Apple's systems.
# Usage: scripts/darwin-typecheck.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
swiftc -emit-module -module-name Darwin -swift-version 6 -parse-as-library -emit-module-path "$work/Darwin.swiftmodule" \
    Tests/DarwinStub/Darwin.swift
# ChargeKit's platform file, whose Darwin branch the stub now makes the one taken.
swiftc -emit-module -module-name ChargeKitPlatform -swift-version 6 -parse-as-library -I "$work" \
    -emit-module-path "$work/ChargeKitPlatform.swiftmodule" Sources/ChargeKitPlatform/Platform.swift
swiftc -typecheck -module-name ChargeKit -swift-version 6 -strict-concurrency=complete -warnings-as-errors -package-name chargekit \
    -I "$work" -parse-as-library $(find Sources/ChargeKit -name '*.swift' | sort)
echo "darwin-typecheck: ChargeKit's Darwin branches (F_FULLFSYNC, arc4random_buf) type-check under Swift 6 strict concurrency"
