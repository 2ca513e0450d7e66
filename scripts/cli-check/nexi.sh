# Sourced by scripts/cli-check.sh (which defines bin, check and ledger): Nexi POS's own
# checks of the chargekit contract.
# The request as §8 spells it, the nonce in callerTrxId; the documented answer read with
# every field, its %20 padding trimmed; a played payment settled through the ledger file.
check "nexi request" \
  'neximpos://payment?amount=1&callerTrxId=qwerty&callerName=Payment&uri=demonexi%3A%2F%2Fpayment&sendTicket=true&urlTicket=true' \
  "$("$bin" request nexi --amount 0.01 --caller-name Payment --uri demonexi://payment --reference qwerty --send-ticket true --url-ticket true)"
"$bin" request nexi --amount 1.00 --caller-name P --uri 'my-app://p?x=1' >/dev/null 2>&1; check "nexi request with a query in --uri exits 64" 64 $?
"$bin" request nexi --amount 1.00 --caller-name P --uri my-app://p --reference 'Order #42' >/dev/null 2>&1; check "nexi: a reference Nexi may not echo exits 64" 64 $?
"$bin" request nexi --amount 1.00 --caller-name P --uri my-app://p --send-ticket true --auto-close true >/dev/null 2>&1
check "nexi: sendTicket with autoClose exits 64" 64 $?
documented='demonexi://payment?result=0&amount=1&callerTrxId=qwerty&operationType=PAYMENT&actionCode=000&pan=************5938&transactionType=CLI&timestamp=0912202317&resultDescription=&cardTypeCVM=2&acquirerId=00000000003&stan=000002&operationNumber=000031&acquirerName=NEXI%20%20%20%20%20%20%20%20%20%20%20%20&terminalId=30350039&merchantId=0000091%20%20%20%20%20%20%20%20&authorizationNumber=012651&urlTicket=https%3A%2F%2Freceipts.example%2F1.png'
out=$("$bin" parse --json "$documented"); code=$?
check "nexi: parse reads the documented answer as approved, every field, padding trimmed" "0 approved nexi 0 000 ************5938 NEXI 0000091 000031 0912202317 18" \
  "$code $(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["outcome"], d["provider"], d["result"], d["actionCode"], d["pan"], d["acquirerName"], d["merchantId"], d["operationNumber"], d["timestamp"], sum(1 for k in ("result","amount","callerTrxId","operationType","actionCode","pan","transactionType","timestamp","resultDescription","cardTypeCVM","acquirerId","stan","operationNumber","acquirerName","terminalId","merchantId","authorizationNumber","urlTicket") if k in d))')"
url=$("$bin" request nexi --amount 12.50 --caller-name Shop --uri demonexi://payment --reference ord-7 --ledger "$ledger")
callback=$("$bin" simulate "$url" --outcome approved)
out=$("$bin" parse --ledger "$ledger" --json "$callback"); code=$?
check "nexi: a simulated payment is verified through the file ledger" "0 true approved nexi 1250 ord-7" \
  "$code $(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(str(d["verified"]).lower(), d["outcome"], d["provider"], d["amount"], d["callerTrxId"].split(".")[1])')"
"$bin" parse --ledger "$ledger" "$callback" >/dev/null 2>&1; check "nexi: replay exits 2" 2 $?
out=$("$bin" parse --json "$("$bin" simulate "$url" --scenario network-not-available)")
check "nexi: result -14 reads as failed" "failed -14" "$(echo "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["outcome"], d["providerStatus"])')"
# doctor: an app that uses Nexi POS must query neximpos.
plist="$(mktemp -d)/Info.plist"
python3 - "$plist" <<'PY'
import plistlib, sys
plistlib.dump({"LSApplicationQueriesSchemes": [], "CFBundleURLTypes": [{"CFBundleURLSchemes": ["my-shop"]}],
               "UIApplicationSceneManifest": {"UIApplicationSupportsMultipleScenes": False}}, open(sys.argv[1], "wb"))
PY
out=$("$bin" doctor --plist "$plist" --provider nexi --return-url my-shop://paid --json); code=$?
check "doctor --provider nexi: neximpos must be queried" "1 LSApplicationQueriesSchemes yes" \
  "$code $(echo "$out" | python3 -c 'import json,sys; f=json.load(sys.stdin)["findings"][0]; print(f["key"], "yes" if "neximpos" in f["fix"] else "no")')"
