#!/usr/bin/env bash
# The sandbox as an OCI image, without a Docker daemon: builds `chargekit-server` with the
# Swift standard library linked in, strips it, assembles a minimal root file system (the
# binary, the shared libraries ldd lists and their loader, CA certificates, a non-root
# user, a writable /data for the SQLite file and its -wal/-shm companions), and writes
#   .build-image/oci              an OCI image layout (umoci), tag chargekit-sandbox:latest
#   .build-image/chargekit-sandbox.tar   the same image for `docker load` (skopeo)
# Usage: scripts/image.sh [--debug] [--out DIR]
#   --debug   an unoptimised build (CI: minutes instead of about twenty); the default is -c release
# Needs Debian's umoci, skopeo and libcurl4-openssl-dev (FoundationNetworking, through
# CitconUPI, links libcurl); installs them when missing and root.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
configuration=release
out=$root/.build-image
while [ $# -gt 0 ]; do
    case $1 in
        --debug) configuration=debug ;;
        --out) out=$2; shift ;;
        *) echo "usage: scripts/image.sh [--debug] [--out DIR]" >&2; exit 64 ;;
    esac
    shift
done
tag=chargekit-sandbox:latest

missing=()
command -v umoci >/dev/null || missing+=(umoci)
command -v skopeo >/dev/null || missing+=(skopeo)
[ -e /usr/lib/"$(uname -m)"-linux-gnu/libcurl.so ] || missing+=(libcurl4-openssl-dev)
if [ ${#missing[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] || { echo "scripts/image.sh: install ${missing[*]} (Debian packages) first" >&2; exit 69; }
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
fi

# The PostgreSQL trait: the image serves a shared sandbox on PostgreSQL too (CHARGEKIT_DB_URL).
# A build folder of its own: a static standard library changes how every module is
# compiled (its Foundation is another), so it shares no module with another build.
scratch=$root/Tools/.build-image
swift build --package-path Tools --scratch-path "$scratch" -c "$configuration" --traits PostgreSQL \
    --product chargekit-server --static-swift-stdlib \
    -Xlinker -l_CFURLSessionInterface -Xlinker -lcurl  # what static FoundationNetworking needs, which it does not name itself
binary=$scratch/$configuration/chargekit-server

mkdir -p "$out"
work=$(mktemp -d "$out/rootfs.XXXXXX")
trap 'rm -rf "$work"' EXIT
rootfs=$work/rootfs
mkdir -p "$rootfs"/{usr/local/bin,etc/ssl/certs,data,tmp}
chmod 1777 "$rootfs/tmp"
# A debug build embeds its Swift AST for the debugger (.swift_ast, a third of it): out too.
strip --remove-section=.swift_ast -o "$rootfs/usr/local/bin/chargekit-server" "$binary"
# One binary answers as `chargekit` too (its commands are chargekit's).
ln -s chargekit-server "$rootfs/usr/local/bin/chargekit"

# The shared libraries it loads, at the paths the loader looks for them, and the loader.
ldd "$binary" | awk '/=> \//{print $3} /^\t\/[^ ]+ \(/{print $1}' | sort -u | while read -r library; do
    install -D -m 0755 "$(readlink -f "$library")" "$rootfs$library"
done
[ -e /etc/ssl/certs/ca-certificates.crt ] && cp /etc/ssl/certs/ca-certificates.crt "$rootfs/etc/ssl/certs/"
# A non-root user (10001) that owns /data; nobody else writes anywhere.
printf 'root:x:0:0:root:/root:/sbin/nologin\nchargekit:x:10001:10001:ChargeKit sandbox:/data:/sbin/nologin\n' > "$rootfs/etc/passwd"
printf 'root:x:0:\nchargekit:x:10001:\n' > "$rootfs/etc/group"
printf '127.0.0.1 localhost\n::1 localhost\n' > "$rootfs/etc/hosts"
printf 'hosts: files dns\n' > "$rootfs/etc/nsswitch.conf"
chown 10001:10001 "$rootfs/data"
chmod 0700 "$rootfs/data"

# The OCI image: one layer holding the root file system, and its configuration.
rm -rf "$out/oci"
umoci init --layout "$out/oci"
umoci new --image "$out/oci:${tag#*:}"
umoci unpack --image "$out/oci:${tag#*:}" "$work/bundle" >/dev/null
rm -rf "$work/bundle/rootfs"
mv "$rootfs" "$work/bundle/rootfs"
umoci repack --image "$out/oci:${tag#*:}" "$work/bundle"
umoci config --image "$out/oci:${tag#*:}" \
    --author "ChargeKit" \
    --config.user 10001:10001 \
    --config.workingdir /data \
    --config.exposedports 8080/tcp \
    --config.volume /data \
    --config.env PATH=/usr/local/bin \
    --config.env CHARGEKIT_SANDBOX_URL=http://127.0.0.1:8080 \
    --config.env CHARGEKIT_ALLOW_REMOTE_IPN=true \
    --config.entrypoint /usr/local/bin/chargekit-server \
    --config.entrypoint sandbox \
    --config.entrypoint serve \
    --config.cmd --host --config.cmd 0.0.0.0 \
    --config.cmd --port --config.cmd 8080 \
    --config.cmd --db --config.cmd /data/sandbox.sqlite \
    --config.label org.opencontainers.image.title=chargekit-sandbox \
    --config.label org.opencontainers.image.description="The ChargeKit Citcon UPI sandbox; health: chargekit-server sandbox health" \
    --config.label "org.opencontainers.image.version=$configuration"
umoci gc --layout "$out/oci"

rm -f "$out/chargekit-sandbox.tar"
skopeo copy --quiet "oci:$out/oci:${tag#*:}" "docker-archive:$out/chargekit-sandbox.tar:$tag"

# Its size as it unpacks (what the issue bounds), and as it travels.
unpacked=$(du -sb "$work/bundle/rootfs" | cut -f1)
echo "image: $out/oci ($tag, $configuration build)"
echo "archive: $out/chargekit-sandbox.tar ($(du -b "$out/chargekit-sandbox.tar" | cut -f1) bytes; docker load -i it)"
echo "uncompressed: $unpacked bytes"
