#!/usr/bin/env bash
# Holds the C library to one platform file per package (Sources/ChargeKitPlatform/Platform.swift,
# Tools/Sources/ToolsPlatform/Platform.swift), so that what builds on Linux builds on a Mac:
# every other Swift file, tests included, must not import a platform module (Glibc,
# Darwin, Musl, WinSDK, ucrt), call through one (`Glibc.exit`), or spell a constant one
# platform's way (`Int32(RLIMIT_NOFILE.rawValue)`, Glibc's imported enums).
# The SDK (Sources/) is also held to its iOS 15 floor for the standard library's string
# processing (`firstRange(of:)`, `replacing(_:with:)`, `Regex`: iOS 16), which Linux builds.
# Usage: scripts/portability-check.sh [--self-test]
#   --self-test also proves the check can fail: a `Glibc.exit` planted in a copy of the
#   tree must be found.
set -euo pipefail
cd "$(dirname "$0")/.."

check() {
    local root="$1"
    python3 - "$root" <<'PY'
import os, re, sys
root = sys.argv[1]
platform_files = {"Sources/ChargeKitPlatform/Platform.swift", "Tools/Sources/ToolsPlatform/Platform.swift",
                  "Tests/DarwinStub/Darwin.swift"}
modules = r"(?:Glibc|Darwin|Musl|WinSDK|ucrt)"
rules = [
    (re.compile(r"^\s*(?:@_exported\s+)?import\s+(?:struct\s+|func\s+|var\s+)?" + modules + r"\b"), "imports a platform module"),
    (re.compile(r"(?<![\w.])" + modules + r"\.\w"), "calls through a platform module"),
    (re.compile(r"\b(?:RLIMIT|SOCK|IPPROTO|SHUT|MSG)_[A-Z_]+\.rawValue\b"), "spells a constant as Glibc imports it"),
]
# The SDK (Sources/) deploys to iOS 15 and macOS 14, which Linux cannot build for: the
# standard library's string processing of Swift 5.7 (iOS 16) compiles here and not there.
sdk_rules = [
    (re.compile(r"\.(?:firstRange|ranges|firstMatch|wholeMatch|prefixMatch)\(of:|\.(?:replacing|trimmingPrefix)\(|\bRegex\s*<|#/"),
     "uses string processing that needs iOS 16 (the SDK deploys to iOS 15)"),
]
found = []
for folder in ["Sources", "Tools/Sources", "Tests", "Tools/Tests", "Benchmarks/Sources", "Fuzz"]:
    for directory, _, names in os.walk(os.path.join(root, folder)):
        if "/.build" in directory:
            continue
        for name in names:
            if not name.endswith(".swift"):
                continue
            path = os.path.join(directory, name)
            relative = os.path.relpath(path, root)
            if relative in platform_files:
                continue
            for number, line in enumerate(open(path, encoding="utf-8", errors="replace"), 1):
                code = line.split("//", 1)[0]
                for pattern, what in rules + (sdk_rules if relative.startswith("Sources/") else []):
                    if pattern.search(code):
                        found.append(f"{relative}:{number}: {what}: {line.strip()}")
for line in found:
    print("portability-check:", line, file=sys.stderr)
sys.exit(1 if found else 0)
PY
}

if [ "${1:-}" = "--self-test" ]; then
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
    for folder in Sources Tools/Sources Tests Tools/Tests Benchmarks/Sources Fuzz; do
        [ -d "$folder" ] && mkdir -p "$work/$(dirname "$folder")" && cp -R "$folder" "$work/$folder"
    done
    rm -rf "$work/Tools/Sources/.build" 2>/dev/null || true
    planted="$work/Tools/Sources/chargekit/ChargeKit.swift"
    cp "$planted" "$work/unplanted.swift"
    printf 'func leave() -> Never { Glibc.exit(69) }\n' >> "$planted"
    if check "$work" 2>/dev/null; then
        echo "portability-check: self-test failed: a planted Glibc.exit was not found" >&2
        exit 1
    fi
    echo "portability-check: self-test: a planted Glibc.exit is found"
    # And the SDK's iOS 15 floor: a planted `firstRange(of:)` in Sources/ (only there).
    cp "$work/unplanted.swift" "$planted"
    printf 'let planted = [1, 2].firstRange(of: [2])\n' >> "$planted"
    check "$work" 2>/dev/null || { echo "portability-check: self-test failed: string processing in the tools was refused" >&2; exit 1; }
    printf 'let planted = [1, 2].firstRange(of: [2])\n' >> "$work/Sources/ChargeKit/Core/Nonce.swift"
    if check "$work" 2>/dev/null; then
        echo "portability-check: self-test failed: a planted firstRange(of:) in the SDK was not found" >&2
        exit 1
    fi
    echo "portability-check: self-test: a planted firstRange(of:) in the SDK is found, one in the tools is not"
fi
check .
echo "portability-check: the C library is reached only through the packages' platform files; the SDK uses no string processing above iOS 15"
