#!/usr/bin/env bash
# Type-checks the Apple-only glue (the `#if canImport(UIKit)` files of ChargeKit and
# CitconUPI) on Linux, under Swift 6 with strict concurrency, against
# Tests/UIKitStub/UIKit.swift: a stub of the few UIKit declarations it uses, from
# Apple's documented signatures. It proves the glue type-checks and respects UIKit's
# @MainActor isolation; it cannot prove it links or runs against the real SDK.
# Usage: scripts/uikit-typecheck.sh
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
flags=(-swift-version 6 -strict-concurrency=complete -warnings-as-errors -package-name chargekit -I "$work" -parse-as-library)
swiftc -emit-module -module-name UIKit -swift-version 6 -parse-as-library -emit-module-path "$work/UIKit.swiftmodule" \
    Tests/UIKitStub/UIKit.swift
swiftc -emit-module -module-name ChargeKitPlatform -swift-version 6 -parse-as-library -emit-module-path "$work/ChargeKitPlatform.swiftmodule" \
    Sources/ChargeKitPlatform/Platform.swift
# ChargeKit as a whole module, with canImport(UIKit) now true: its bodies type-checked,
# then its interface emitted for CitconUPI.
swiftc -typecheck -module-name ChargeKit "${flags[@]}" $(find Sources/ChargeKit -name '*.swift' | sort)
swiftc -emit-module -module-name ChargeKit "${flags[@]}" -emit-module-path "$work/ChargeKit.swiftmodule" \
    $(find Sources/ChargeKit -name '*.swift' | sort)
swiftc -typecheck -module-name CitconUPI "${flags[@]}" $(find Sources/CitconUPI -name '*.swift' | sort)
echo "uikit-typecheck: the UIKit glue of ChargeKit and CitconUPI type-checks under Swift 6 strict concurrency"
