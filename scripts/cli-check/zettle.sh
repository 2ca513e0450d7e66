# Sourced by scripts/cli-check.sh (which defines bin, check and ledger): Zettle's own
# checks of the chargekit contract.
# The api/ operations: a charge verified through the ledger with its operation and payment
# info; the same callback read without a ledger says its operation is unknown; a query.
url=$("$bin" request zettle --api charge --amount 5.00 --currency SEK --callback-success my-app://ok --callback-failure my-app://fail --reference Z-1 --ledger "$ledger")
check "zettle --api charge request" yes "$(echo "$url" | grep -q '^izettle://api/payment/charge?amount=5.00&currency=SEK&reference=Z-1&successURL=my-app%3A%2F%2Fok%3Fchargekit-nonce%3D' && echo yes)"
callback=$("$bin" simulate "$url" --outcome approved)
check "zettle: parse without a ledger reports operation unknown" "unknown approved Z-1" \
  "$("$bin" parse --json "$callback" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["operation"], d["outcome"], d["reference"])')"
out=$("$bin" parse --ledger "$ledger" --json "$callback"); code=$?
check "zettle: the api/ charge verified, its operation and payment info reported" "0 true charge EMV **** **** **** 1111" \
  "$code $(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(str(d["verified"]).lower(), d["operation"], d["entryMode"], d["obfuscatedPan"])')"
check "zettle --api query request" 'izettle://api/payment/query?reference=Z-1&successURL=my-app%3A%2F%2Fok&failureURL=my-app%3A%2F%2Ffail' \
  "$("$bin" request zettle --api query --reference Z-1 --callback-success my-app://ok --callback-failure my-app://fail)"
out=$("$bin" parse --json 'my-app://fail?errorCode=CancelledByUser&reference=Z-2'); code=$?
check "zettle: a 1.0 CancelledByUser reads as cancelled" "0 cancelled CancelledByUser" \
  "$code $(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["outcome"], d["errorCode"])')"
