#!/usr/bin/env bash
# Renders the sandbox dashboard in headless Chromium, with real data, and saves
# docs/dashboard.png. The run: a merchant IPN receiver (Python, on loopback) answers
# 500 twice, then 200; charges are created, paid (wallet page), declined and expired
# (dashboard buttons, with the page's form token); one is left open, and one's IPN
# goes to a port where nothing listens, so that its next try shows.
# Needs Debian's chromium package (apt-get install -y chromium), curl and python3.
# Usage: scripts/dashboard-screenshot.sh [output.png]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/dashboard.png}"
. scripts/lib/chromium.sh
require_chromium dashboard-screenshot

swift build --package-path Tools --product chargekit-server >/dev/null
bin="$(swift build --package-path Tools --show-bin-path)/chargekit-server"
work="$(mktemp -d)"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"' EXIT

# The merchant's IPN endpoint: /ipn/flaky answers 500 twice, then 200; /ipn always 200.
cat >"$work/receiver.py" <<'PY'
import http.server, sys
answers = [500, 500]
class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        self.rfile.read(int(self.headers.get("Content-Length", "0")))
        status = answers.pop(0) if answers and self.path == "/ipn/flaky" else 200
        self.send_response(status); self.send_header("Content-Length", "0"); self.end_headers()
        with open(sys.argv[1] + ".log", "a") as log: log.write(f"{status}\n")
    def log_message(self, *args): pass
server = http.server.HTTPServer(("127.0.0.1", 0), Receiver)
open(sys.argv[1], "w").write(str(server.server_address[1]))
server.serve_forever()
PY
python3 "$work/receiver.py" "$work/receiver.port" &
pids+=($!)
for _ in $(seq 1 100); do [ -s "$work/receiver.port" ] && break; sleep 0.1; done
ipn="http://127.0.0.1:$(cat "$work/receiver.port")/ipn"
flaky="http://127.0.0.1:$(cat "$work/receiver.port")/ipn/flaky"
dead="http://127.0.0.1:9/ipn"   # the discard port: nothing answers

log="$work/server.log"
"$bin" sandbox serve --port 0 --db "$work/sandbox.sqlite" --merchant-key sk_dashboard_0123456789 \
    --ipn-retry 1,1,30,60 --merchant-name "Blue Bottle Kiosk" >"$log" 2>&1 &
pids+=($!)
. scripts/lib/sandbox.sh
wait_for_sandbox "$log" dashboard-screenshot

json() { python3 -c "import json,sys; print(json.load(sys.stdin)['data']$1)"; }
token() { curl -fsS -X POST "$base/v1/access-tokens" -H "Authorization: Bearer sk_dashboard_0123456789" -d "{\"token_type\":\"$1\"}" | json "['access_token']"; }
server_token="$(token server)"
client_token="$(token client)"
# create REFERENCE AMOUNT METHOD IPN-URL: prints "id charge_token".
create() {
    curl -fsS -X POST "$base/v1/charges" -H "Authorization: Bearer $server_token" -d '{
      "transaction": {"reference": "'"$1"'", "amount": '"$2"', "currency": "USD", "country": "US"},
      "payment": {"method": "'"$3"'"},
      "urls": {"ipn": "'"$4"'", "success": "https://shop.example/ok", "fail": "https://shop.example/fail", "cancel": "https://shop.example/cancel"}}' \
      | python3 -c "import json,sys; d=json.load(sys.stdin)['data']; print(d['id'], d['charge_token'])"
}
confirm() {
    curl -fsS -o /dev/null -X POST "$base/v1/charges/$1" -H "Authorization: Bearer $client_token" \
      -d '{"payment": {"method": "'"$2"'"}, "return_url": "https://shop.example/return"}'
}
dashboard() { curl -fsS -u "operator:sk_dashboard_0123456789" "$base/sandbox/dashboard"; }
# act ACTION FIELD VALUE: one of the dashboard's buttons, with the page's form token.
act() {
    local form_token
    form_token="$(dashboard | sed -n 's/.*name="form_token" value="\([0-9a-f]*\)".*/\1/p' | head -1)"
    local status
    status="$(curl -sS -o /dev/null -w '%{http_code}' -u "operator:sk_dashboard_0123456789" -X POST "$base/sandbox/dashboard" \
        --data "form_token=$form_token&action=$1&$2=$3")"
    [ "$status" = 303 ] || { echo "dashboard-screenshot: $1 $3 answered $status" >&2; exit 1; }
}

read -r paid paid_token <<<"$(create "order-1001" 1850 alipay "$flaky")"
confirm "$paid_token" alipay
wallet_token="$(curl -fsS "$base/sandbox/wallet/$paid" | sed -n 's/.*name="form_token" value="\([0-9a-f]*\)".*/\1/p' | head -1)"
curl -fsS -o /dev/null -X POST "$base/sandbox/wallet/$paid" --data "form_token=$wallet_token&action=pay"
read -r declined declined_token <<<"$(create "order-1002" 4200 wechatpay "$ipn")"
confirm "$declined_token" wechatpay
act decline charge "$declined"
read -r expired _ <<<"$(create "order-1003" 990 alipay "")"
act expire charge "$expired"
read -r retrying retrying_token <<<"$(create "order-1004" 12500 paypal "$dead")"
confirm "$retrying_token" paypal
read -r open _ <<<"$(create "order-1005" 675 alipay "")"

# Wait until the receiver has failed twice and accepted the rest (paid: pending, succeeded; declined: pending, failed).
for _ in $(seq 1 100); do
    [ "$(grep -c 200 "$work/receiver.port.log" 2>/dev/null || true)" -ge 4 ] && break
    sleep 0.2
done
grep -c 500 "$work/receiver.port.log" | grep -qx 2 || { echo "dashboard-screenshot: the receiver did not fail twice" >&2; exit 1; }
sleep 0.5   # the retrying IPN's third attempt, 1 s after its second

page="$(dashboard)"
for want in "order-1001" "order-1002" "order-1003" "order-1004" "order-1005" ">succeeded<" ">failed<" ">expired<" ">initiated<" \
            "HTTP 500" "HTTP 200" ">delivered<" "connect:"; do
    grep -qF -- "$want" <<<"$page" || { echo "dashboard-screenshot: the dashboard lacks '$want'" >&2; exit 1; }
done
[ "$(grep -o "HTTP 500" <<<"$page" | wc -l)" -eq 2 ] || { echo "dashboard-screenshot: expected two HTTP 500 answers" >&2; exit 1; }

mkdir -p "$(dirname "$out")"
# The browser opens the dashboard itself, authenticating with Basic (the key as the password).
url="http://operator:sk_dashboard_0123456789@${base#http://}/sandbox/dashboard"
"$browser" --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1180,980 \
    --screenshot="$out" "$url" >/dev/null 2>&1
[ -s "$out" ] || { echo "dashboard-screenshot: Chromium wrote no screenshot" >&2; exit 1; }
echo "charges: paid $paid, declined $declined, expired $expired, retrying $retrying, open $open"
echo "saved $out"
