#!/usr/bin/env bash
# Type-checks the Objective-C face (Sources/ChargeKitObjC: the CHK* classes over
# ChargeKit, and Citcon's CPay* names over CitconUPI) on Linux, with Objective-C
# interop on, under Swift 6 strict concurrency, warnings as errors. Linux has no
# Objective-C runtime: the compiler is given one (-enable-objc-interop,
# -fobjc-runtime=macosx) and stub `ObjectiveC` and Foundation declarations
# (Tests/ObjCStub, from Apple's documented headers). Every `@objc` declaration is
# then checked as the compiler on Apple's platforms checks it: a type Objective-C
# cannot represent is an error. It does not prove the face links or runs.
# Usage: scripts/objc-typecheck.sh [--self-test]
#   --self-test also proves the check can fail: a declaration Objective-C cannot
#   represent (a tuple parameter) is added, and the check must refuse it.
set -euo pipefail
cd "$(dirname "$0")/.."
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
base=(-swift-version 6 -strict-concurrency=complete -warnings-as-errors -parse-as-library -I "$work")
# The SDK's modules as apps get them (no Objective-C interop on Linux), the C library's first.
swiftc -emit-module -module-name ChargeKitPlatform "${base[@]}" -emit-module-path "$work/ChargeKitPlatform.swiftmodule" \
    Sources/ChargeKitPlatform/Platform.swift
swiftc -emit-module -module-name ChargeKit "${base[@]}" -package-name chargekit -emit-module-path "$work/ChargeKit.swiftmodule" \
    $(find Sources/ChargeKit -name '*.swift' | sort)
swiftc -emit-module -module-name CitconUPI "${base[@]}" -package-name chargekit -emit-module-path "$work/CitconUPI.swiftmodule" \
    $(find Sources/CitconUPI -name '*.swift' | sort)
objc=(-Xfrontend -enable-objc-interop -Xcc -fobjc-runtime=macosx -I Tests/ObjCStub -D CHARGEKIT_OBJC_STUBS)
sources=$(find Sources/ChargeKitObjC -name '*.swift' | sort)
check() { swiftc -typecheck -module-name ChargeKitObjC "${base[@]}" "${objc[@]}" "$@"; }
check $sources
# Every public class of the face is an Objective-C class, under the name its docs give.
for file in $sources; do
    if grep -qE '^public (final )?class' "$file"; then echo "objc-typecheck: $file has a public class without @objc" >&2; exit 1; fi
done
# Every registered app (RegisteredApps.all) has its factory for Objective-C callers, in its home.
for app in $(bash scripts/registered-apps.sh); do
    [ -f "Sources/ChargeKitObjC/Apps/CHKPaymentApp+$app.swift" ] || {
        echo "objc-typecheck: $app has no Objective-C factory (Sources/ChargeKitObjC/Apps/CHKPaymentApp+$app.swift)" >&2; exit 1; }
done
# The header Swift prints for the face (against a stub of the ObjectiveC overlay, for
# ObjCBool), and an Objective-C caller written as the seeds' apps were, syntax-checked
# against it by clang (ARC, the macOS runtime, a stub of Foundation's header).
swiftc -emit-module -module-name ObjectiveC -parse-as-library "${objc[@]}" -import-underlying-module \
    -emit-module-path "$work/ObjectiveC.swiftmodule" Tests/ObjCStub/Overlay/ObjectiveC.swift
swiftc -emit-module -module-name ChargeKitObjC "${base[@]}" "${objc[@]}" -emit-module-path "$work/ChargeKitObjC.swiftmodule" \
    -emit-objc-header-path "$work/ChargeKitObjC-Swift.h" $sources
for caller in Tests/ObjCStub/*.m; do
    clang -fsyntax-only -x objective-c -fobjc-arc -fobjc-runtime=macosx -fblocks -Werror -Wno-unknown-warning-option \
        -I Tests/ObjCStub/Clang -I "$work" "$caller"
done
if [ "${1:-}" = "--self-test" ]; then
    cat > "$work/Unrepresentable.swift" <<'SWIFT'
import ObjectiveC
import Foundation
@objc(CHKUnrepresentable) public final class CHKUnrepresentable: NSObject {
    @objc public func take(_ pair: (Int, Int)) {}
}
SWIFT
    if check $sources "$work/Unrepresentable.swift" 2>"$work/err"; then
        echo "objc-typecheck --self-test: an unrepresentable declaration passed the check" >&2; exit 1
    fi
    grep -q "cannot be represented in Objective-C" "$work/err" || { cat "$work/err" >&2; exit 1; }
    echo "objc-typecheck --self-test: an unrepresentable declaration is refused"
fi
echo "objc-typecheck: the Objective-C face type-checks with Objective-C interop under Swift 6 strict concurrency;"
echo "objc-typecheck: its header, printed by Swift, compiles Objective-C callers (Tests/ObjCStub/*.m: ChargeDemo, each app's checkout, SceneDelegate) in clang"
