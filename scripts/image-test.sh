#!/usr/bin/env bash
# The sandbox image run as a CI job's container engine runs it: runc (Debian's; crun fails
# on these machines' cgroups) in a network namespace of its own, joined to the host by a
# veth pair as an engine's bridge does, read-only root, /data a volume on the host. Checks
# what a CI job needs: health (from the host, and the image's own check without curl), the
# process not root, a charge created and paid, its IPN reaching a receiver on the host
# (not loopback from the container: the image allows remote IPN receivers), a stop on
# SIGTERM, the database kept across a restart, and the image's size (at most 150 MB).
# Usage: scripts/image-test.sh [OCI_LAYOUT]   (default .build-image/oci, from scripts/image.sh)
set -uo pipefail
cd "$(dirname "$0")/.."
layout=${1:-.build-image/oci}
[ "$(id -u)" = 0 ] || { echo "image-test: runc and network namespaces need root" >&2; exit 69; }
[ -d "$layout" ] || { echo "image-test: no image at $layout (run scripts/image.sh)" >&2; exit 66; }
command -v runc >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq runc >/dev/null; }
command -v umoci >/dev/null || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq umoci >/dev/null; }

name=chargekit-sbx-$$
netns=$name
host_if=ckh$$; box_if=ckb$$
host_ip=10.213.7.1; box_ip=10.213.7.2
key=sk_image_test_0123456789abcdef
secret=whsec_image_test_0123456789abcdef
work=$(mktemp -d /tmp/chargekit-image.XXXXXX)
failures=0
check() {  # check NAME EXPECTED ACTUAL
    if [ "$2" = "$3" ]; then echo "ok: $1"; else echo "FAIL: $1 (expected '$2', got '$3')"; failures=$((failures + 1)); fi
}
cleanup() {
    runc kill "$name" KILL >/dev/null 2>&1; runc delete --force "$name" >/dev/null 2>&1
    [ -n "${receiver:-}" ] && kill "$receiver" 2>/dev/null
    ip link del "$host_if" >/dev/null 2>&1; ip netns del "$netns" >/dev/null 2>&1
    rm -rf "$work"
}
trap cleanup EXIT

umoci unpack --image "$layout:latest" "$work/bundle" >/dev/null
rootfs=$work/bundle/rootfs
size=$(du -sb "$rootfs" | cut -f1)
echo "image: $size bytes uncompressed"
check "the image is at most 150 MB uncompressed" yes "$([ "$size" -le 150000000 ] && echo yes || echo no)"
# The Dockerfile (which cannot be built here: no Docker engine) runs what this image runs.
mismatch=$(skopeo inspect --config "oci:$layout:latest" | python3 -c '
import json, re, sys
config = json.load(sys.stdin)["config"]
lines = open("Dockerfile").read().replace("\\\n", " ").split("\n")
final = lines[max(i for i, l in enumerate(lines) if l.startswith("FROM ")):]
docker = {"Env": []}
for line in final:
    word, _, rest = line.partition(" ")
    if word in ("ENTRYPOINT", "CMD"): docker[word.title()] = json.loads(rest)
    elif word == "USER": docker["User"] = rest.strip()
    elif word == "WORKDIR": docker["WorkingDir"] = rest.strip()
    elif word == "EXPOSE": docker["ExposedPorts"] = sorted(p if "/" in p else p + "/tcp" for p in rest.split())
    elif word == "VOLUME": docker["Volumes"] = sorted(rest.split())
    elif word == "ENV": docker["Env"] += re.findall(r"(CHARGEKIT_\w+=\S+)", rest)
image = {"Entrypoint": config.get("Entrypoint"), "Cmd": config.get("Cmd"), "User": config.get("User"),
         "WorkingDir": config.get("WorkingDir"), "ExposedPorts": sorted(config.get("ExposedPorts", {})),
         "Volumes": sorted(config.get("Volumes", {})), "Env": [e for e in config.get("Env", []) if e.startswith("CHARGEKIT_")]}
docker["Env"] = sorted(docker["Env"]); image["Env"] = sorted(image["Env"])
print(" ".join(f"{k}: Dockerfile {docker.get(k)} image {image[k]}" for k in image if docker.get(k) != image[k]))
')
check "the Dockerfile's entry point, arguments, user, folder, port, volume and variables are the image's" "" "$mismatch"

# The image's own binary runs the host's side of the checks (the same build).
cli=$rootfs/usr/local/bin/chargekit-server

# A volume for /data, owned by the image's user, as an engine's named volume is.
mkdir -p "$work/data"; chown 10001:10001 "$work/data"; chmod 0700 "$work/data"
python3 - "$work/bundle/config.json" "$netns" "$work/data" "$key" "$secret" "http://$box_ip:8080" <<'PY'
import json, sys
path, netns, data, key, secret, public = sys.argv[1:]
config = json.load(open(path))
config["process"]["terminal"] = False
config["process"]["env"] += [f"CHARGEKIT_MERCHANT_KEY={key}", f"CHARGEKIT_IPN_SECRET={secret}", f"CHARGEKIT_PUBLIC_URL={public}"]
config["root"]["readonly"] = True
namespaces = [n for n in config["linux"]["namespaces"] if n["type"] != "network"]
config["linux"]["namespaces"] = namespaces + [{"type": "network", "path": f"/var/run/netns/{netns}"}]
config["mounts"] = [m for m in config["mounts"] if m["destination"] not in ("/data", "/tmp")] + [
    {"destination": "/data", "type": "bind", "source": data, "options": ["rbind", "rw"]},
    {"destination": "/tmp", "type": "tmpfs", "source": "tmpfs", "options": ["nosuid", "nodev", "mode=1777", "size=16m"]},
]
json.dump(config, open(path, "w"), indent=1)
PY

# The network: its own namespace, a veth pair to the host, a default route through it.
ip netns add "$netns"
ip link add "$host_if" type veth peer name "$box_if"
ip link set "$box_if" netns "$netns"
ip addr add "$host_ip/24" dev "$host_if"; ip link set "$host_if" up
ip netns exec "$netns" ip addr add "$box_ip/24" dev "$box_if"
ip netns exec "$netns" ip link set "$box_if" up
ip netns exec "$netns" ip link set lo up
ip netns exec "$netns" ip route add default via "$host_ip"

start() {  # start LOG: runs the container detached, its output to LOG; waits for health
    runc run --detach --bundle "$work/bundle" "$name" >"$1" 2>&1 </dev/null
    for _ in $(seq 1 150); do
        "$cli" sandbox health --base-url "http://$box_ip:8080" --timeout 1 >/dev/null 2>&1 && return 0
        sleep 0.2
    done
    echo "image-test: the container did not answer health; its output:" >&2; cat "$1" >&2; return 1
}
stop() {  # stop: SIGTERM, then wait until runc says it stopped; prints the seconds it took
    local began=$SECONDS
    runc kill "$name" TERM
    for _ in $(seq 1 100); do
        [ "$(runc state "$name" 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')" = stopped ] && break
        sleep 0.1
    done
    echo $((SECONDS - began))
}

start "$work/first.log" || exit 1
"$cli" sandbox health --base-url "http://$box_ip:8080" >/dev/null 2>&1
check "health answers from the host, across the veth pair" 0 $?
runc exec "$name" /usr/local/bin/chargekit-server sandbox health >/dev/null 2>&1
check "the image's own health check (no curl): chargekit-server sandbox health" 0 $?
pid=$(runc state "$name" | python3 -c 'import json,sys; print(json.load(sys.stdin)["pid"])')
check "the server runs as the image's user, not root" 10001 "$(awk '/^Uid:/{print $2}' "/proc/$pid/status")"
check "the start line names the public URL, not 0.0.0.0" yes \
    "$(grep -q "listening on http://$box_ip:8080" "$work/first.log" && echo yes || echo no)"
check "a key given by the environment is shown masked" no "$(grep -q "$key" "$work/first.log" && echo yes || echo no)"

# An IPN receiver on the host's side of the pair: every POST body kept as a file.
mkdir -p "$work/ipn"
python3 - "$host_ip" "$work/ipn" <<'PY' &
import http.server, os, sys
host, folder = sys.argv[1], sys.argv[2]
class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        open(os.path.join(folder, f"{len(os.listdir(folder)) + 1}.json"), "wb").write(body)
        self.send_response(200); self.send_header("Content-Length", "2"); self.end_headers(); self.wfile.write(b"ok")
    def log_message(self, *args): pass
server = http.server.HTTPServer((host, 0), Receiver)
open(os.path.join(folder, "..", "receiver.port"), "w").write(str(server.server_address[1]))
server.serve_forever()
PY
receiver=$!
for _ in $(seq 1 50); do [ -s "$work/receiver.port" ] && break; sleep 0.1; done
port=$(cat "$work/receiver.port")

export CHARGEKIT_MERCHANT_KEY=$key
api="http://$box_ip:8080/v1"
"$cli" upi trigger charge.succeeded --base-url "$api" --json --override "urls.ipn=http://$host_ip:$port/ipn" >"$work/charge.json" 2>"$work/trigger.err"
check "a charge is created and paid (upi trigger charge.succeeded)" succeeded \
    "$(tail -1 "$work/charge.json" | python3 -c 'import json,sys; print(json.load(sys.stdin).get("status"))' 2>/dev/null)"
# Its steps are lines of their own; the transaction, as JSON, is the last line.
id=$(tail -1 "$work/charge.json" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])' 2>/dev/null) \
    || { echo "image-test: upi trigger said:" >&2; cat "$work/charge.json" "$work/trigger.err" >&2; }
for _ in $(seq 1 100); do grep -qs '"success"' "$work"/ipn/*.json && break; sleep 0.1; done
paid=$(grep -ls '"success"' "$work"/ipn/*.json | head -1)  # the IPN's word for succeeded
check "its IPN reaches the receiver on the host" yes "$([ -n "$paid" ] && grep -q "$id" "$paid" && echo yes || echo no)"
[ -n "$paid" ] || { echo "image-test: the sandbox's IPN log:" >&2; "$cli" upi ipn list --base-url "$api" --charge "$id" --json >&2; }
"$cli" upi verify-ipn --secret "$secret" "$paid" >/dev/null 2>&1
check "the IPN is signed with the secret the environment gave" 0 $?

seconds=$(stop)
check "SIGTERM stops it within 10 s" yes "$([ "$seconds" -le 10 ] && echo yes || echo no)"
check "it says it stopped" yes "$(grep -q "sandbox stopped" "$work/first.log" && echo yes || echo no)"
check "the database is on the volume, owned by the image's user" 10001 "$(stat -c %u "$work/data/sandbox.sqlite" 2>/dev/null)"
runc delete "$name"

start "$work/second.log" || exit 1
check "after a restart the charge is still there, paid" succeeded \
    "$("$cli" upi inquire --base-url "$api" --id "$id" --json 2>/dev/null | python3 -c 'import json,sys; print(json.load(sys.stdin).get("status"))' 2>/dev/null)"
stop >/dev/null
runc delete "$name"

if [ "$failures" -gt 0 ]; then echo "image-test: $failures failed"; exit 1; fi
echo "image-test: the image runs under runc in its own network namespace: health, charge, IPN, SIGTERM, restart"
