#!/usr/bin/env bash
# Renders the sandbox wallet page in headless Chromium and saves docs/wallet.png.
# Needs Debian's chromium package (apt-get install -y chromium), curl and python3.
# Usage: scripts/wallet-screenshot.sh [output.png]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/wallet.png}"
. scripts/lib/chromium.sh
require_chromium wallet-screenshot

swift build --package-path Tools --product chargekit-server >/dev/null
bin="$(swift build --package-path Tools --show-bin-path)/chargekit-server"
work="$(mktemp -d)"
log="$work/server.log"
"$bin" sandbox serve --port 0 --db "$work/sandbox.sqlite" >"$log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true; rm -rf "$work"' EXIT
. scripts/lib/sandbox.sh
wait_for_sandbox "$log" wallet-screenshot

json() { python3 -c "import json,sys; print(json.load(sys.stdin)['data']$1)"; }
server_token="$(curl -fsS -X POST "$base/v1/access-tokens" -H "Authorization: Bearer $key" -d '{"token_type":"server"}' | json "['access_token']")"
client_token="$(curl -fsS -X POST "$base/v1/access-tokens" -H "Authorization: Bearer $key" -d '{"token_type":"client"}' | json "['access_token']")"
charge="$(curl -fsS -X POST "$base/v1/charges" -H "Authorization: Bearer $server_token" -d '{
  "transaction": {"reference": "screenshot-'"$$"'", "amount": 2599, "currency": "USD", "country": "US", "note": "README screenshot"},
  "payment": {"method": "alipay"},
  "urls": {"success": "https://shop.example/success", "fail": "https://shop.example/fail", "cancel": "https://shop.example/cancel"}}')"
id="$(echo "$charge" | json "['id']")"
token="$(echo "$charge" | json "['charge_token']")"
wallet="$(curl -fsS -X POST "$base/v1/charges/$token" -H "Authorization: Bearer $client_token" \
  -d '{"payment": {"method": "alipay"}, "return_url": "com.citcon.citconpay://cpay/return"}' | json "['next_action']['url']")"
echo "wallet page: $wallet"
mkdir -p "$(dirname "$out")"
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=520,470 \
  --screenshot="$out" "$wallet" >/dev/null 2>&1
[ -s "$out" ] || { echo "wallet-screenshot: Chromium wrote no screenshot" >&2; exit 1; }
# The page a real browser rendered must still show the pending charge and its buttons.
curl -fsS "$base/sandbox/wallet/$id" | grep -q 'value="pay"'
echo "saved $out"
