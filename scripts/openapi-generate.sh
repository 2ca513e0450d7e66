#!/usr/bin/env bash
# The sandbox's API from its one description: swift-openapi-generator writes the types
# and the server protocol of Tools/openapi/sandbox.yaml (the operations its configuration,
# Tools/openapi/openapi-generator-config.yaml, lists) to Tools/Sources/CitconSandbox/API/
# Generated/, committed, so that no build needs the generator. Each generated file starts
# with the digest of the document, the configuration and the generator's version.
#
# Usage: scripts/openapi-generate.sh          build the generator (once, in .build-openapi-generator/) and regenerate
#        scripts/openapi-generate.sh --check  exit 1 when a generated file's digest is not the current one
#                                             (the document or configuration changed without regenerating, or a
#                                             file was edited by hand); builds nothing: CI runs this
set -euo pipefail
cd "$(dirname "$0")/.."
version=1.14.3
document=Tools/openapi/sandbox.yaml
config=Tools/openapi/openapi-generator-config.yaml
out=Tools/Sources/CitconSandbox/API/Generated
digest=$( (cat "$document" "$config"; echo "swift-openapi-generator $version") | sha256sum | cut -c1-64)
stamp="openapi-digest: $digest"

if [ "${1:-}" = --check ]; then
    status=0
    [ -n "$(ls "$out"/*.swift 2>/dev/null)" ] || { echo "openapi-generate --check: no generated files in $out" >&2; exit 1; }
    for file in "$out"/*.swift; do
        if ! sed -n 2p "$file" | grep -qx "// $stamp"; then
            echo "openapi-generate --check: $file is stale or edited (run scripts/openapi-generate.sh)" >&2; status=1
        fi
        # The digest covers the inputs; the rest of the file must be the generator's: no line edited by hand
        # after the stamp is caught by regenerating, which CI cannot afford, so the file's own hash is recorded too.
        body=$(tail -n +4 "$file" | sha256sum | cut -c1-64)
        sed -n 3p "$file" | grep -qx "// content: $body" || { echo "openapi-generate --check: $file was edited after generation" >&2; status=1; }
    done
    [ $status = 0 ] && echo "openapi-generate --check: $(ls "$out"/*.swift | wc -l) generated files match sandbox.yaml and the configuration ($version)"
    exit $status
fi

tool=.build-openapi-generator
mkdir -p "$tool"
cat > "$tool/Package.swift" <<SWIFT
// swift-tools-version: 6.0
// Builds swift-openapi-generator for scripts/openapi-generate.sh (not part of the repository).
import PackageDescription
let package = Package(
    name: "OpenAPIGeneratorTool",
    dependencies: [.package(url: "https://github.com/apple/swift-openapi-generator", exact: "$version")]
)
SWIFT
swift build --package-path "$tool" -c release --product swift-openapi-generator >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$tool/.build/release/swift-openapi-generator" generate --config "$config" --output-directory "$work" "$document" >/dev/null
rm -rf "$out"
mkdir -p "$out"
for file in "$work"/*.swift; do
    name=$(basename "$file")
    first=$(head -1 "$file")
    body=$(tail -n +2 "$file")
    { echo "$first"; echo "// $stamp"; echo "// content: $(printf '%s\n' "$body" | sha256sum | cut -c1-64)"; printf '%s\n' "$body"; } > "$out/$name"
done
echo "openapi-generate: wrote $(ls "$out"/*.swift | wc -l) files in $out from $document ($version)"
