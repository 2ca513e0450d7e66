# Sourced by scripts/cli-check.sh (which defines bin, check and ledger): Credit Card Terminal's own
# checks of the chargekit contract.
# The seed's request and response byte for byte, the simulator's tax and tip.
check "ccterminal seed request" \
  'com-innerfence-ccterminal://charge/1.0.0/?amount=10.99&email=john%40example.com&returnURL=com-your-app%3A%2F%2Faction%2F' \
  "$("$bin" request ccterminal --amount 10.99 --email john@example.com --return-url com-your-app://action/)"
seed='com-your-app://action/?ifcc_responseType=approved&ifcc_transactionId=100001&ifcc_amount=10.99&ifcc_currency=USD&ifcc_redactedCardNumber=XXXXXXXXXXXX1111&ifcc_cardType=Visa&ifcc_taxAmount=0.93&ifcc_taxRate=8.5&ifcc_tipAmount=1.50'
check "parse --json seed response" \
  '{"amount":"10.99","cardType":"Visa","currency":"USD","extraParams":{},"flags":[],"format":"standard","operation":"charge","outcome":"approved","provider":"ccterminal","providerStatus":"approved","redactedCardNumber":"XXXXXXXXXXXX1111","taxAmount":"0.93","taxRate":"8.5","tipAmount":"1.50","transactionId":"100001","unknownFields":{},"verified":false}' \
  "$("$bin" parse --json "$seed")"
"$bin" parse 'com-your-app://action/?ifcc_responseType=approved' >/dev/null 2>&1; check "invalid response exits 2" 2 $?
"$bin" parse 'com-your-app://action/?ifcc_responseType=declined' >/dev/null 2>&1; check "declined response exits 0" 0 $?
out=$("$bin" simulate "$("$bin" request ccterminal --amount 10.00 --tax-rate default --return-url a://b)" --default-tax-rate 8.125 --tip 1.50)
check "simulate default tax and tip" "ifcc_amount=12.31 ifcc_taxAmount=0.81 ifcc_taxRate=8.125 ifcc_tipAmount=1.50" \
  "$(echo "$out" | tr '&?' '\n\n' | grep -E '^ifcc_(amount|taxAmount|taxRate|tipAmount)=' | sort | tr '\n' ' ' | sed 's/ $//')"
out=$("$bin" request ccterminal --amount 1.00 --email not-an-address --return-url my-app://done 2>&1 >/dev/null); code=$?
check "ccterminal: an email that is none exits 64 with the subcommand's usage" "64 yes" "$code $(echo "$out" | grep -q 'Usage: chargekit request ccterminal' && echo yes)"
