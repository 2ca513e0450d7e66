# Sourced by scripts/cli-check.sh (which defines bin, check and ledger): Viva.com Terminal's own
# checks of the chargekit contract.
# Viva.com Terminal: the request as §7 spells it, the nonce in clientTransactionId; the
# answer written unencoded (raw spaces, a + in transactionDate) and read as sent.
check "viva request" \
  'vivapayclient://pay/v1?action=sale&appId=com.example.shop&callback=my-app%3A%2F%2Fresult&amount=100&tipAmount=20&paymentMethod=CardPresent&show_receipt=false' \
  "$("$bin" request viva --amount 1.00 --currency EUR --app-id com.example.shop --callback my-app://result --tip 0.20 --payment-method CardPresent --show-receipt false)"
"$bin" request viva --amount 1.00 --currency EUR --app-id com.example.shop --callback 'my-app://result?x=1' >/dev/null 2>&1; check "viva request with a query in --callback exits 64" 64 $?
"$bin" request viva --amount 1.00 --currency EUR --app-id a --callback my-app://r --reference 'Fish & Chips' >/dev/null 2>&1; check "viva: a reference with & (echoed unencoded) exits 64" 64 $?
"$bin" request viva --action abort --amount 1.00 --currency EUR --app-id a --callback my-app://r >/dev/null 2>&1; check "viva abort with an amount exits 64" 64 $?
# The caller reset during PIN entry: issued by one process, answered into a fresh one.
url=$("$bin" request viva --amount 12.50 --currency EUR --app-id com.example.shop --callback my-app://result --reference ord-7 --ledger "$ledger")
callback=$("$bin" simulate "$url" --scenario caller-reset)
check "viva: the answer carries raw spaces and a literal + in transactionDate" "yes yes" \
  "$(echo "$callback" | grep -q 'message=Transaction successful&' && echo yes) $(echo "$callback" | grep -qE 'transactionDate=[0-9T:.-]{27}\+02:00&' && echo yes)"
out=$("$bin" parse --ledger "$ledger" --json "$callback"); code=$?
check "viva: the cold-launched answer is settled from the ledger on disk" "0 true approved viva 1250 ord-7" \
  "$code $(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(str(d["verified"]).lower(), d["outcome"], d["provider"], d["amount"], d["clientTransactionId"].split(".")[1])')"
"$bin" parse --ledger "$ledger" "$callback" >/dev/null 2>&1; check "viva: replay exits 2" 2 $?
out=$("$bin" parse --json "$("$bin" simulate "$url" --scenario cancelled)"); check "viva: User_cancel reads as cancelled" "cancelled User_cancel" \
  "$(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["outcome"], d["providerStatus"])')"
# doctor: an app that uses Viva must query vivapayclient.
plist="$(mktemp -d)/Info.plist"
python3 - "$plist" another-app <<'PY'
import plistlib, sys
plistlib.dump({"LSApplicationQueriesSchemes": [sys.argv[2]], "CFBundleURLTypes": [{"CFBundleURLSchemes": ["my-shop"]}],
               "UIApplicationSceneManifest": {"UIApplicationSupportsMultipleScenes": False}}, open(sys.argv[1], "wb"))
PY
out=$("$bin" doctor --plist "$plist" --provider viva --return-url my-shop://paid --json); code=$?
check "doctor --provider viva: vivapayclient must be queried" "1 LSApplicationQueriesSchemes yes" \
  "$code $(echo "$out" | python3 -c 'import json,sys; f=json.load(sys.stdin)["findings"][0]; print(f["key"], "yes" if "vivapayclient" in f["fix"] else "no")')"
