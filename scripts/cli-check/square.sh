# Sourced by scripts/cli-check.sh (which defines bin, check and ledger): Square Point of Sale's own
# checks of the chargekit contract.
# Square Point of Sale: the request's data JSON as Square's SDK writes it, the ledger's nonce in state.
check "square request" \
  'square-commerce-v1://payment/create?data=%7B%22amount_money%22%3A%7B%22amount%22%3A1099%2C%22currency_code%22%3A%22USD%22%7D%2C%22callback_url%22%3A%22my-app%3A%5C%2F%5C%2Fcallback%5C%2Fsquare_request%22%2C%22client_id%22%3A%22sq0idp-APP%22%2C%22options%22%3A%7B%22auto_return%22%3Atrue%2C%22clear_default_fees%22%3Afalse%2C%22disable_cnp%22%3Afalse%2C%22skip_receipt%22%3Afalse%2C%22supported_tender_types%22%3A%5B%22CREDIT_CARD%22%2C%22CASH%22%5D%7D%2C%22sdk_version%22%3A%223.5.4%22%2C%22state%22%3A%22S%22%2C%22version%22%3A%221.3%22%7D' \
  "$("$bin" request square --client-id sq0idp-APP --amount 10.99 --currency USD --callback-url my-app://callback --state S --tenders CREDIT_CARD,CASH --auto-return)"
"$bin" request square --amount 10.99 --currency USD --callback-url my-app://callback >/dev/null 2>&1; check "square request without --client-id exits 64" 64 $?
url=$("$bin" request square --client-id A --amount 5.00 --currency USD --callback-url my-app://done --state 'mine' --ledger "$ledger")
callback=$("$bin" simulate "$url" --outcome approved)
out=$("$bin" parse --ledger "$ledger" --json "$callback"); code=$?
check "square: verified through the file ledger, state unchanged" "0 true approved square mine" \
  "$code $(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(str(d["verified"]).lower(), d["outcome"], d["provider"], d["state"])')"
"$bin" parse --ledger "$ledger" "$callback" >/dev/null 2>&1; check "square: replay exits 2" 2 $?
for outcome in cancelled failed; do
  out=$("$bin" parse --provider square --json "$("$bin" simulate "$url" --outcome $outcome)"); code=$?
  check "square: simulate --outcome $outcome" "0 $outcome" "$code $(echo "$out" | python3 -c 'import json,sys; print(json.load(sys.stdin)["outcome"])')"
done

# demo --json: each step's outcome (Square reads a declined card as cancelled).
out=$("$bin" demo --provider square --json); code=$?
check "demo --json prints each step's outcome" "0 approved cancelled yes" \
  "$code $(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["approved"], d["declined"], "yes" if d["forged_refused"] and d["replay_refused"] else "no")')"
