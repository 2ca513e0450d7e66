#!/usr/bin/env bash
# Checks the chargekit command-line contract: the seeds' URLs byte for byte, the JSON
# keys of `parse --json`, and the exit codes (0 valid, 2 refused, other for usage).
set -uo pipefail
cd "$(dirname "$0")/.."
bin="${CHARGEKIT_BIN:-$(swift build --package-path Tools --show-bin-path)/chargekit}"
pass=0
fail=0
check() { # name expected actual
  if [ "$2" == "$3" ]; then pass=$((pass + 1)); else fail=$((fail + 1)); printf 'FAIL %s\n  expected: %s\n  actual:   %s\n' "$1" "$2" "$3"; fi
}

"$bin" parse >/dev/null 2>&1; code=$?; check "usage error exits non-zero, not 2" yes "$([ $code -ne 0 ] && [ $code -ne 2 ] && echo yes || echo no)"

apps=$(CHARGEKIT_BIN="$bin" bash scripts/registered-apps.sh --providers | tr '\n' ' ')
ledger="$(mktemp -d)/ledger.json"
# Every app that takes extras: its example request (request --examples) with an extra
# full of reserved characters, answered, verified through a file ledger, then replayed.
examples_json=$("$bin" request --examples json)
example_args() { # PROVIDER AMOUNT: the example's arguments for PROVIDER at AMOUNT, one a line
  echo "$examples_json" | python3 -c 'import json,sys; p, a = sys.argv[1:3]; r = next(x for x in json.load(sys.stdin) if x["provider"] == p)["arguments"]; r[r.index("--amount") + 1] = a; print("\n".join(r))' "$1" "$2"
}
with_extras=0
for provider in $apps; do
  mapfile -t args < <(example_args "$provider" 5.00)
  url=$("$bin" request "${args[@]}" --extra 'note=a&b c' --ledger "$ledger" 2>/dev/null) || continue   # an app that returns no extras refuses them
  with_extras=$((with_extras + 1))
  callback=$("$bin" simulate "$url" --outcome approved)
  out=$("$bin" parse --ledger "$ledger" --json "$callback"); code=$?
  check "$provider: verified through the file ledger, its extra kept" "0 true approved $provider a&b c" \
    "$code $(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(str(d["verified"]).lower(), d["outcome"], d["provider"], d["extraParams"]["note"])')"
  "$bin" parse --ledger "$ledger" "$callback" >/dev/null 2>&1; check "$provider: replay exits 2" 2 $?
done
check "apps that take extras were played" yes "$([ $with_extras -ge 2 ] && echo yes)"
# The app the checks below hand off to when any will do: the first whose example names a
# reference it echoes (request --examples).
example=$(echo "$examples_json" | python3 -c 'import json,sys; print(next(x["provider"] for x in json.load(sys.stdin) if "--reference" in x["arguments"]))')
reference_of() { python3 -c 'import sys; a = sys.argv[1:]; print(a[a.index("--reference") + 1] if "--reference" in a else "None")' "$@"; }
# Each app's own checks live in its home, scripts/cli-check/<app>.sh (sourced here, in
# the order of the registry).
for provider in $apps; do
  if [ -f "scripts/cli-check/$provider.sh" ]; then source "scripts/cli-check/$provider.sh"; else check "$provider has its checks in scripts/cli-check/$provider.sh" yes no; fi
done

# request --ttl: a hand-off that waits one second; its late approval is refused as expired.
mapfile -t args < <(example_args "$example" 2.00)
url=$("$bin" request "${args[@]}" --ledger "$ledger" --ttl 1)
callback=$("$bin" simulate "$url" --scenario after-expiry); sleep 1.5
out=$("$bin" parse --ledger "$ledger" "$callback" 2>&1); code=$?
check "request --ttl 1: the approval after a second is refused as expired (2)" "2 yes" "$code $(echo "$out" | grep -q expired && echo yes)"
"$bin" request "${args[@]}" --ttl 5 >/dev/null 2>&1
check "request --ttl without --ledger exits 64" 64 "$?"

# pending: the hand-offs of a ledger still waiting, read by another process.
waiting="$(mktemp -d)/ledger.json"
mapfile -t args < <(example_args "$example" 5.00)
answered=$("$bin" request "${args[@]}" --ledger "$waiting")
mapfile -t args < <(example_args "$example" 7.25)
"$bin" request "${args[@]}" --ledger "$waiting" >/dev/null
"$bin" parse --ledger "$waiting" "$("$bin" simulate "$answered" --outcome approved)" >/dev/null
out=$("$bin" pending --ledger "$waiting" --json); code=$?
check "pending --json lists the one hand-off not answered" "0 1 $example 7.25 $(reference_of "${args[@]}") True" \
  "$code $(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); r=d[0]; print(len(d), r["provider"], r["amount"], r["reference"], r["age_seconds"] >= 0 and len(r["nonce"]) == 27 and len(r["currency"]) == 3)')"

# resolve: a hand-off settled by hand in one process; the others see it, and its late callback is refused naming it.
settling="$(mktemp -d)/ledger.json"
mapfile -t args < <(example_args "$example" 9.50)
lost=$("$bin" request "${args[@]}" --ledger "$settling")
nonce=$("$bin" pending --ledger "$settling" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["nonce"])')
out=$("$bin" resolve "$nonce" --ledger "$settling" --outcome approved --note "in the app's history: TX 4711" --json); code=$?
check "resolve --json settles the hand-off with its note" "0 approved in the app's history: TX 4711" \
  "$code $(echo "$out" | python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["outcome"], r["note"])')"
check "pending no longer lists a settled hand-off" "[]" "$("$bin" pending --ledger "$settling" --json)"
err=$("$bin" parse --ledger "$settling" "$("$bin" simulate "$lost" --outcome approved)" 2>&1 >/dev/null); code=$?
check "a callback for a settled hand-off exits 2, naming the settlement" "2 yes" "$code $(echo "$err" | grep -q 'settled by hand as approved' && echo yes)"
"$bin" resolve "$nonce" --ledger "$settling" --outcome declined --note again >/dev/null 2>&1
check "settling it again exits 2" 2 "$?"
"$bin" resolve aaaaaaaaaaaaaaaaaaaaaaaaaaa --ledger "$settling" --outcome approved --note x >/dev/null 2>&1
check "settling an unknown nonce exits 2" 2 "$?"
"$bin" resolve -aaaaaaaaaaaaaaaaaaaaaaaaaa --ledger "$settling" --outcome approved --note x >/dev/null 2>&1
check "a nonce starting with '-' is a nonce, not an option (unknown: exit 2)" 2 "$?"
"$bin" resolve --ledger "$settling" --outcome approved --note x >/dev/null 2>&1
check "resolve without a nonce exits 64" 64 "$?"
"$bin" resolve "$nonce" --ledger "$settling" --outcome failed --note x >/dev/null 2>&1
check "resolve --outcome failed is a usage error" 64 "$?"

# --json on every command that prints a result.
mapfile -t args < <(example_args "$example" 1.00)
out=$("$bin" request "${args[@]}" --json)
check "request --json prints url and provider" "$example yes" "$(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["provider"], "yes" if d["url"] == sys.argv[1] else "no")' "$("$bin" request "${args[@]}")")"
out=$("$bin" simulate "$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["url"])')" --json)
check "simulate --json prints the outcome and the callbacks" "approved 1" "$(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["outcome"], len(d["callbacks"]))')"

# scenarios: the text table cuts no outcome (capture-fails ends authorized).
check "scenarios prints every outcome whole" "authorized" \
  "$("$bin" scenarios --provider sandbox | awk '$1 == "sandbox" && $2 == "capture-fails" { print $3 }')"
# scenarios: the catalog as JSON; each played through a ledger by another process.
out=$("$bin" scenarios --json); code=$?
check "scenarios --json lists every app's catalog and the sandbox's, with their outcomes" "0 $(echo $apps sandbox | tr ' ' '\n' | sort | paste -sd,) True" \
  "$code $(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(",".join(sorted({r["provider"] for r in d})), all(set(r) == {"provider","name","outcome","description"} for r in d) and any(r["outcome"] == "none" for r in d) and {r["outcome"] for r in d if r["name"] in ("after-expiry", "another-app")} == {"refused"})')"
played="$(mktemp -d)/ledger.json"
mapfile -t args < <(example_args "$example" 4.00)
request=$("$bin" request "${args[@]}" --ledger "$played")
twice=$("$bin" simulate "$request" --scenario duplicate-callback)
"$bin" parse --ledger "$played" "$(echo "$twice" | head -1)" >/dev/null; first=$?
"$bin" parse --ledger "$played" "$(echo "$twice" | tail -1)" >/dev/null 2>&1; second=$?
check "simulate --scenario duplicate-callback: two lines, the second refused by the ledger" "2 0 2" "$(echo "$twice" | wc -l | tr -d ' ') $first $second"
out=$("$bin" simulate "$request" --scenario no-callback); code=$?
check "simulate --scenario no-callback prints nothing" "0 " "$code $out"
"$bin" simulate "$request" --scenario not-a-scenario >/dev/null 2>&1
check "simulate --scenario with an unknown name exits 64" 64 "$?"

# doctor: an app's Info.plist, XML and binary; 0 all holds, 1 something wrong, 65 not a plist, 64 usage.
plists="$(mktemp -d)"
scheme=$("$bin" request "${args[@]}" | cut -d: -f1)
python3 - "$plists" "$scheme" <<'PY'
import plistlib, sys
good = {"LSApplicationQueriesSchemes": [sys.argv[2]], "CFBundleURLTypes": [{"CFBundleURLSchemes": ["my-shop"]}],
        "UIApplicationSceneManifest": {"UIApplicationSupportsMultipleScenes": False}}
plistlib.dump(good, open(sys.argv[1] + "/good.plist", "wb"), fmt=plistlib.FMT_BINARY)
bad = dict(good); del bad["LSApplicationQueriesSchemes"]
plistlib.dump(bad, open(sys.argv[1] + "/bad.plist", "wb"), fmt=plistlib.FMT_XML)
PY
"$bin" doctor --plist "$plists/good.plist" --provider "$example" --return-url my-shop://paid >/dev/null; check "doctor: a complete binary plist exits 0" 0 $?
out=$("$bin" doctor --plist "$plists/bad.plist" --provider "$example" --return-url my-shop://paid --json); code=$?
check "doctor: a missing LSApplicationQueriesSchemes exits 1, named in the JSON" "1 False LSApplicationQueriesSchemes" \
  "$code $(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["ok"], d["findings"][0]["key"])')"
echo "not a plist" > "$plists/garbage.plist"
"$bin" doctor --plist "$plists/garbage.plist" --provider "$example" --return-url my-shop://paid >/dev/null 2>&1; check "doctor: not a property list exits 65" 65 $?
"$bin" doctor --plist "$plists/good.plist" --provider nope --return-url my-shop://paid >/dev/null 2>&1; check "doctor: an unknown provider exits 64" 64 $?
rm -rf "$plists"


# Every registered app, as the registry lists it (request --examples): the seeds' four
# first, each once.
check "request --examples lists every registered app once" yes \
  "$([ "$(echo $apps | tr ' ' '\n' | sort -u | wc -l)" = "$(bash scripts/registered-apps.sh | wc -l)" ] && [ "$(echo $apps | wc -w)" = "$(bash scripts/registered-apps.sh | wc -l)" ] && echo yes)"
for provider in $apps; do
  out=$("$bin" demo --provider "$provider"); code=$?
  check "demo --provider $provider" "0 yes" "$code $(echo "$out" | grep -q 'Approved, declined and forged callbacks were told apart.' && ! echo "$out" | grep -q ACCEPTED && echo yes)"
done

out=$("$bin" demo --provider citcon 2>/dev/null); code=$?
check "demo --provider citcon" "0 yes" "$code $(echo "$out" | grep -q 'Paid, verified by inquiry, notified, and the IPN reached the merchant.' && echo yes)"

# chargekit sandbox serve: prints URL and key, keeps the key in the database, exits 0 on SIGTERM.
work="$(mktemp -d)"
serve() { "$bin" sandbox serve --port 0 --db "$work/s.sqlite" "$@" >"$work/log" 2>&1 & pid=$!; for _ in $(seq 1 100); do grep -qs "merchant key:" "$work/log" && break; sleep 0.1; done; }
"$bin" sandbox serve --port 0 --db "$work/json.sqlite" --merchant-key sk_cli_check_json_0123 --json >"$work/json.log" 2>&1 & pid=$!
for _ in $(seq 1 100); do grep -qs "merchant_key" "$work/json.log" && break; sleep 0.1; done
check "sandbox serve --json prints its start line as one JSON object, the key given masked, the payment apps' page" "sk_c…0123 yes yes yes" \
  "$(head -1 "$work/json.log" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["merchant_key"], "yes" if d["base_url"].startswith("http://127.0.0.1:") else "no", "yes" if d["ipn_secret"] else "no", "yes" if d["payment_apps"] == d["base_url"] + "/apps/open" else "no")')"
kill -TERM $pid; wait $pid
serve --merchant-key sk_cli_check_0123456789
base="$(sed -n 's/^Citcon UPI sandbox listening on //p' "$work/log")"
check "sandbox serve prints a loopback base URL" yes "$(echo "$base" | grep -qE '^http://127\.0\.0\.1:[0-9]+$' && echo yes)"
check "sandbox serve shows the merchant key given masked, and no secret it was given in full" "merchant key: sk_c…6789 no" \
  "$(grep '^merchant key:' "$work/log") $(grep -q 'sk_cli_check_0123456789' "$work/log" && echo yes || echo no)"
status=$(curl -s -o /dev/null -w '%{http_code}' -X POST "$base/v1/access-tokens" -H 'Authorization: Bearer sk_cli_check_0123456789' -d '{"token_type":"server"}')
check "sandbox issues a token for the key" 200 "$status"
kill -TERM $pid; wait $pid; check "sandbox exits 0 on SIGTERM" 0 $?
serve
check "sandbox keeps the key in the database" "merchant key: sk_cli_check_0123456789" "$(grep '^merchant key:' "$work/log")"
kill -INT $pid; wait $pid; check "sandbox exits 0 on SIGINT" 0 $?
# A busy port is named, with what to do (69); --port 0 with --public-url still shows the port it got.
python3 -c 'import socket, sys, time; s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(); open(sys.argv[1], "w").write(str(s.getsockname()[1])); time.sleep(30)' "$work/busy.port" & busy=$!
for _ in $(seq 1 50); do [ -s "$work/busy.port" ] && break; sleep 0.1; done
held_port=$(cat "$work/busy.port")
out=$("$bin" sandbox serve --port "$held_port" --db "$work/busy.sqlite" 2>&1); code=$?
check "sandbox serve on a busy port exits 69 naming the port and what to do" "69 yes" \
  "$code $(echo "$out" | grep -q "port $held_port on 127.0.0.1 is already in use.*--port 0" && echo yes)"
kill "$busy" 2>/dev/null; wait "$busy" 2>/dev/null
"$bin" sandbox serve --port 0 --public-url https://sandbox.example --db "$work/public.sqlite" >"$work/public.log" 2>&1 & pid=$!
for _ in $(seq 1 100); do grep -qs "merchant key:" "$work/public.log" && break; sleep 0.1; done
check "sandbox serve --port 0 --public-url shows the public URL and the port it is bound to" yes \
  "$(grep -q '^Citcon UPI sandbox listening on https://sandbox.example$' "$work/public.log" && grep -qE '^bound to: 127\.0\.0\.1:[0-9]+$' "$work/public.log" && echo yes)"
kill -TERM $pid; wait $pid
# Secrets: a short key is refused (64), the key and the database come from the environment.
"$bin" sandbox serve --port 0 --db "$work/short.sqlite" --merchant-key sk >/dev/null 2>&1; check "a 2-letter --merchant-key exits 64" 64 $?
CHARGEKIT_IPN_SECRET=short "$bin" sandbox serve --port 0 --db "$work/short.sqlite" >/dev/null 2>&1; check "a short CHARGEKIT_IPN_SECRET exits 64" 64 $?
CHARGEKIT_MERCHANT_KEY=sk_from_environment_0123 CHARGEKIT_DB_URL="$work/env.sqlite" "$bin" sandbox serve --port 0 >"$work/log" 2>&1 & pid=$!
for _ in $(seq 1 100); do grep -qs "merchant key:" "$work/log" && break; sleep 0.1; done
check "sandbox serve takes the key from CHARGEKIT_MERCHANT_KEY (shown masked)" "merchant key: sk_f…0123" "$(grep '^merchant key:' "$work/log")"
check "sandbox serve takes the database from CHARGEKIT_DB_URL" yes "$([ -f "$work/env.sqlite" ] && echo yes)"
base="$(sed -n 's/^Citcon UPI sandbox listening on //p' "$work/log")"
out=$(CHARGEKIT_MERCHANT_KEY=sk_from_environment_0123 "$bin" upi token --base-url "$base/v1"); code=$?
check "upi token takes the key from CHARGEKIT_MERCHANT_KEY" "0 yes" "$code $(echo "$out" | grep -q '^access_token: st_' && echo yes)"
# --body is listed by the commands that send a body, and only by them.
check "upi charge lists --body; upi pay, clock and logs tail do not" "yes no no no" \
  "$("$bin" upi charge --help | grep -q -- '--body' && echo yes || echo no) $("$bin" upi pay --help | grep -q -- '--body' && echo yes || echo no) $("$bin" upi clock advance --help | grep -q -- '--body' && echo yes || echo no) $("$bin" upi logs tail --help | grep -q -- '--body' && echo yes || echo no)"
# upi against this sandbox: the key and the base URL from the environment, amounts in major units.
export CHARGEKIT_MERCHANT_KEY=sk_from_environment_0123 CHARGEKIT_SANDBOX_URL="$base/v1"
created=$("$bin" upi charge --amount 10.99 --currency USD --reference cli-amount-1 --country US --json); code=$?
charge=$(echo "$created" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
check "upi charge --amount 10.99 --currency USD creates a charge of 1099 (key and URL from the environment)" "0 1099" \
  "$code $(echo "$created" | python3 -c 'import json,sys; print(json.load(sys.stdin)["amount"])')"
check "upi charge --amount 500 --currency JPY is 500 (no minor units)" 500 \
  "$("$bin" upi charge --amount 500 --currency JPY --reference cli-amount-2 --country JP --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["amount"])')"
check "upi charge --amount-minor 1099 is 1099" 1099 \
  "$("$bin" upi charge --amount-minor 1099 --currency USD --reference cli-amount-3 --country US --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["amount"])')"
"$bin" upi charge --amount 10.999 --currency USD --reference cli-amount-4 --country US >/dev/null 2>&1
check "upi charge --amount 10.999 --currency USD exits 64" 64 "$?"
out=$("$bin" upi charge --amount 2.50 --currency USD --reference cli-human-1 --country US --method alipay)
check "upi's human output: the amount with its currency, booleans as true/false, the wallet URL" "yes yes yes" \
  "$(echo "$out" | grep -qx 'amount: 2.50 USD' && echo yes) $(echo "$out" | grep -qx 'auto_capture: true' && echo yes) $(echo "$out" | grep -q 'redirect: http.*/sandbox/wallet/' && echo yes)"
out=$("$bin" upi pay "$charge" --json); code=$?
check "upi pay confirms an initiated charge with a card and pays it" "0 authorized" "$code $(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')"
"$bin" upi capture --id "$charge" --reference cli-capture-1 >/dev/null
out=$("$bin" upi refund --id "$charge" --reference cli-refund-1 --amount 1.50 --json); code=$?
check "upi refund --amount 1.50 reads the charge's currency: 150" "0 150" "$code $(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["amount_refunded"])')"
"$bin" upi pay "$charge" >/dev/null 2>&1
check "upi pay on a charge no longer payable exits 2" 2 "$?"
second=$("$bin" upi charge --amount 1.00 --currency USD --reference cli-decline-1 --country US --method alipay --json)
token=$(echo "$second" | python3 -c 'import json,sys; print(json.load(sys.stdin)["charge_token"])')
out=$("$bin" upi confirm "$token" --method alipay --json); code=$?
check "upi confirm CHARGE_TOKEN --method alipay answers with the wallet to open" "0 yes" "$code $(echo "$out" | grep -q '/sandbox/wallet/' && echo yes)"
out=$("$bin" upi decline "$(echo "$second" | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')" --json)
check "upi decline fails a pending charge" failed "$(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')"
out=$("$bin" upi trigger charge.succeeded --override transaction.currency=EUR --override transaction.amount=7.25 --json | tail -1)
check "upi trigger --override sets the create body's fields (amount in major units)" "725 EUR succeeded" \
  "$(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["amount"], d["currency"], d["status"])')"
printf '%s' '{"steps": [{"step": "charge", "body": {"transaction": {"amount": 400}, "payment": {"method": "card"}}}, {"step": "confirm", "method": "card"}, {"step": "pay"}, {"step": "capture"}, {"step": "refund", "amount": "1.50"}]}' >"$work/fixture.json"
out=$("$bin" upi trigger --fixture "$work/fixture.json" --json | tail -1)
check "upi trigger --fixture plays its steps: a card charge of 4.00 captured, 1.50 refunded" "400 400 150" \
  "$(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["amount"], d["amount_captured"], d["amount_refunded"])')"
"$bin" upi trigger charge.teleported >/dev/null 2>&1
check "upi trigger with an unknown event exits 64" 64 "$?"
# upi listen: IPNs forwarded to a local receiver, each verifying with upi verify-ipn, also across a restart of the sandbox.
# A merchant's IPN receiver: each POST to /NAME is kept as DIR/NAME/<n>.json; it prints its port.
start_receiver() {
  python3 - "$1" >"$1.port" 2>/dev/null <<'PY' &
import http.server, os, sys, threading
folder = sys.argv[1]; lock = threading.Lock()
class Receiver(http.server.BaseHTTPRequestHandler):
    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
        place = os.path.join(folder, self.path.strip("/").replace("/", "_") or "root")
        with lock:
            os.makedirs(place, exist_ok=True)
            name = os.path.join(place, "%03d.json" % len(os.listdir(place)))
            open(name + ".part", "wb").write(body); os.rename(name + ".part", name)
        self.send_response(200); self.end_headers()
    def log_message(self, *arguments): pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
print(server.server_address[1], flush=True)
server.serve_forever()
PY
  receiver_pid=$!
  for _ in $(seq 1 50); do [ -s "$1.port" ] && break; sleep 0.1; done
}
start_receiver "$work/received"; receiver=$receiver_pid
received="$work/received/ipn"
"$bin" upi listen --forward-to "http://127.0.0.1:$(cat "$work/received.port")/ipn" --print-secret >"$work/listen.log" 2>&1 &
listener=$!
"$bin" upi listen --forward-to "http://127.0.0.1:$(cat "$work/received.port")/json" --json >"$work/listen-json.log" 2>"$work/listen-json.err" &
json_listener=$!
for _ in $(seq 1 50); do grep -qs "^ipn secret:" "$work/listen.log" && grep -qs "forwarding IPNs of" "$work/listen-json.err" && break; sleep 0.1; done
check "upi listen says what it is connected to and where it forwards" yes \
  "$(grep -q "^connected to .*/v1/ipn-events: forwarding IPNs of .* to http://127.0.0.1:$(cat "$work/received.port")/ipn$" "$work/listen.log" && echo yes)"
paid=$("$bin" upi charge --amount 3.00 --currency USD --reference cli-listen-1 --country US --method alipay --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
"$bin" upi pay "$paid" >/dev/null
"$bin" upi trigger charge.succeeded >/dev/null
"$bin" upi trigger refund.succeeded >/dev/null
logs=$("$bin" upi logs tail --once --after 0 --bodies)
check "upi logs tail --once lists the API requests with their bodies, the access token masked" "yes yes yes" \
  "$(echo "$logs" | grep -q 'POST /v1/charges  200' && echo yes) $(echo "$logs" | grep -q '"access_token":"…' && echo yes) $(echo "$logs" | grep -q "$CHARGEKIT_MERCHANT_KEY" || echo yes)"
count_json() { ls "$1" 2>/dev/null | grep -c '\.json$'; }
wait_for_ipns() { for _ in $(seq 1 100); do [ "$(count_json "$received")" -ge "$1" ] && break; sleep 0.1; done; count_json "$received"; }
# upi pay: 1 (succeeded); trigger charge.succeeded: 2 (pending, succeeded); refund.succeeded: 3 (pending, succeeded, refund).
check "upi listen forwards every IPN of pay and two triggers to the receiver" 6 "$(wait_for_ipns 6)"
secret=$(sed -n 's/^ipn secret: //p' "$work/listen.log")
verified=0; for file in "$received"/*.json; do "$bin" upi verify-ipn --secret "$secret" "$file" >/dev/null && verified=$((verified + 1)); done
check "each forwarded IPN verifies with upi verify-ipn and the printed secret" 6 "$verified"
check "upi listen prints a line per IPN, with its number, event and the local answer" "yes yes yes" \
  "$(grep -q 'refund.succeeded  HTTP 200' "$work/listen.log" && echo yes) $(grep -c 'charge.succeeded  HTTP 200' "$work/listen.log" | grep -q 3 && echo yes) $(grep -qE '^[0-9T:-]+Z  ipn [0-9]+  ' "$work/listen.log" && echo yes)"
for _ in $(seq 1 50); do [ "$(count_json "$work/received/json")" -ge 6 ] && break; sleep 0.1; done
check "upi listen --json prints one JSON object per IPN, with its event and answer" "6 yes" \
  "$(python3 -c 'import json,sys; rows=[json.loads(l) for l in open(sys.argv[1]) if l.strip()]; print(len(rows), "yes" if all(r["delivered"] and r["answer"] == "HTTP 200" and r["event"].count(".") == 1 for r in rows) else "no")' "$work/listen-json.log")"
kill $json_listener 2>/dev/null; wait $json_listener 2>/dev/null
# A new listener resumes after an IPN an earlier one printed: the three after the third.
third=$(python3 -c 'import json,sys; rows=[json.loads(l) for l in open(sys.argv[1]) if l.strip()]; print(rows[2]["ipn"])' "$work/listen-json.log")
"$bin" upi listen --forward-to "http://127.0.0.1:$(cat "$work/received.port")/resumed" --after "$third" >/dev/null 2>&1 &
resumed_listener=$!
for _ in $(seq 1 100); do [ "$(count_json "$work/received/resumed")" -ge 3 ] && break; sleep 0.1; done
sleep 0.3
check "upi listen --after an IPN it printed sends the ones after it, once" 3 "$(count_json "$work/received/resumed")"
kill $resumed_listener 2>/dev/null; wait $resumed_listener 2>/dev/null
"$bin" upi listen --forward-to "http://127.0.0.1:1/x" --after latest >/dev/null 2>&1
check "upi listen --after with no IPN number exits 64" 64 "$?"
port=${base##*:}
kill -TERM $pid; wait $pid
CHARGEKIT_DB_URL="$work/env.sqlite" "$bin" sandbox serve --port "$port" >"$work/log" 2>&1 & pid=$!
for _ in $(seq 1 100); do grep -qs "merchant key:" "$work/log" && break; sleep 0.1; done
"$bin" upi trigger charge.failed >/dev/null
check "upi listen reconnects to a restarted sandbox and resumes after the last IPN it had" 8 "$(wait_for_ipns 8)"
listed=$("$bin" upi ipn list --charge "$paid" --json)
check "upi ipn list --charge shows the charge's IPN, its event and state, and the listener's forward" "1 charge.succeeded listeners -1 HTTP 200" \
  "$(echo "$listed" | python3 -c 'import json,sys; d=json.load(sys.stdin); a=d[0]["attempts"]; print(len(d), d[0]["event"], d[0]["state"], a[0]["number"] if a else "-", a[0]["answer"] if a else "-")')"
out=$("$bin" upi ipn resend "$(echo "$listed" | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')" 2>&1); code=$?
check "upi ipn resend of an IPN with no URL sends it to the running listener again" "0 9 2" \
  "$code $(wait_for_ipns 9) $("$bin" upi ipn list --charge "$paid" --json | python3 -c 'import json,sys; print(len(json.load(sys.stdin)))')"
"$bin" upi ipn resend 999999 >/dev/null 2>&1
check "upi ipn resend of an unknown IPN exits 2" 2 "$?"
hooked=$("$bin" upi charge --amount 1.00 --currency USD --reference cli-hooked-1 --country US --method alipay \
  --ipn-url "http://127.0.0.1:$(cat "$work/received.port")/hook" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["id"])')
out=$("$bin" upi cancel "$hooked" --json); code=$?
check "upi cancel ID presses the wallet's Cancel" "0 canceled" "$code $(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["status"])')"
for _ in $(seq 1 50); do "$bin" upi ipn list --charge "$hooked" --json | grep -q '"delivered"' && break; sleep 0.1; done
number=$("$bin" upi ipn list --charge "$hooked" --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d[0]["id"])')
"$bin" upi ipn resend "$number" >/dev/null; code=$?
own_attempts() { "$bin" upi ipn list --charge "$hooked" --json | python3 -c 'import json,sys; print(len([a for a in json.load(sys.stdin)[0]["attempts"] if a["number"] > 0]))'; }
for _ in $(seq 1 50); do [ "$(own_attempts)" = 2 ] && break; sleep 0.1; done
check "upi ipn resend sends a delivered IPN again: a second attempt of its own" "0 2" "$code $(own_attempts)"
kill $listener $receiver 2>/dev/null; wait $listener $receiver 2>/dev/null
# Two instances of a shared sandbox (PostgreSQL) and a listener on each: each gets every IPN of either instance, once.
if [ -n "${CHARGEKIT_POSTGRES_URL:-}" ]; then
  shared="$CHARGEKIT_POSTGRES_URL?table_prefix=cli_$(date +%s)_"
  export CHARGEKIT_MERCHANT_KEY=sk_shared_listeners_0123
  for n in 1 2; do
    "$bin" sandbox serve --port 0 --db "$shared" >"$work/shared$n.log" 2>&1 &
    eval "shared_pid$n=\$!"
    for _ in $(seq 1 100); do grep -qs "merchant key:" "$work/shared$n.log" && break; sleep 0.1; done
    eval "shared_base$n=\"\$(sed -n 's/^Citcon UPI sandbox listening on //p' "$work/shared$n.log")\""
  done
  start_receiver "$work/pg"; pg_receiver=$receiver_pid
  "$bin" upi listen --base-url "$shared_base1/v1" --forward-to "http://127.0.0.1:$(cat "$work/pg.port")/one" >"$work/one.log" 2>&1 & one=$!
  "$bin" upi listen --base-url "$shared_base2/v1" --forward-to "http://127.0.0.1:$(cat "$work/pg.port")/two" >"$work/two.log" 2>&1 & two=$!
  sleep 1.5
  "$bin" upi trigger charge.succeeded --base-url "$shared_base1/v1" >/dev/null
  "$bin" upi trigger refund.succeeded --base-url "$shared_base2/v1" >/dev/null
  ids() { [ -d "$work/pg/$1" ] && python3 -c 'import json,os,sys; print(" ".join(sorted((lambda d: d["id"] + d["status"])(json.load(open(os.path.join(sys.argv[1], f)))) for f in os.listdir(sys.argv[1]) if f.endswith(".json"))))' "$work/pg/$1"; }
  for _ in $(seq 1 100); do [ "$(ids one | wc -w)" -ge 5 ] && [ "$(ids two | wc -w)" -ge 5 ] && break; sleep 0.1; done
  check "two listeners on two instances of a shared sandbox each get the five IPNs of both, once" "5 yes" \
    "$(ids one | wc -w | tr -d ' ') $([ "$(ids one)" = "$(ids two)" ] && echo yes)"
  kill $one $two $pg_receiver $shared_pid1 $shared_pid2 2>/dev/null; wait $one $two $pg_receiver $shared_pid1 $shared_pid2 2>/dev/null
  unset CHARGEKIT_MERCHANT_KEY
fi
unset CHARGEKIT_MERCHANT_KEY CHARGEKIT_SANDBOX_URL
kill -TERM $pid; wait $pid
echo '{"fields":"id","id":"1","sign":"x"}' > "$work/ipn.json"
"$bin" upi verify-ipn --secret "" "$work/ipn.json" >/dev/null 2>&1; check "verify-ipn --secret '' exits 64" 64 $?
"$bin" upi verify-ipn "$work/ipn.json" >/dev/null 2>&1; check "verify-ipn without a secret exits 64" 64 $?
CHARGEKIT_IPN_SECRET=whatever-citcon-issued "$bin" upi verify-ipn "$work/ipn.json" >/dev/null 2>&1; check "verify-ipn takes CHARGEKIT_IPN_SECRET (a bad signature exits 2)" 2 $?
for command in "sandbox serve" "upi token" "upi charge" "upi pay" "upi listen" "upi trigger" "upi verify-ipn"; do
  check "$command --help names its environment variables" yes "$("$bin" $command --help | grep -q 'CHARGEKIT_' && echo yes)"
done

rm -rf "$work"

echo "cli checks: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
