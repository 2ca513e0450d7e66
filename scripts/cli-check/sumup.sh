# Sourced by scripts/cli-check.sh (which defines bin, check and ledger): SumUp's own
# checks of the chargekit contract.
# The seed's request byte for byte, and the help of its options.
check "sumup seed request" \
  'sumupmerchant://pay/1.0?amount=10.00&currency=EUR&affiliate-key=YOUR-AFFILIATE-KEY&title=My%20title&callbackfail=samplepaymentapp%3A%2F%2F&callbacksuccess=samplepaymentapp%3A%2F%2F' \
  "$("$bin" request sumup --amount 10.00 --currency EUR --affiliate-key YOUR-AFFILIATE-KEY --title "My title" --callback-success samplepaymentapp:// --callback-failure samplepaymentapp://)"

check "request sumup --help explains --skip-screen-success" yes "$("$bin" request sumup --help | grep -A1 -- '--skip-screen-success' | grep -q 'success screen' && echo yes)"
out=$("$bin" request sumup --amount 1.00 --currency XYZ --affiliate-key k --title t --callback-success a:// --callback-failure a:// 2>&1 >/dev/null); code=$?
check "sumup: a currency that is none exits 64 with the subcommand's usage" "64 yes" "$code $(echo "$out" | grep -q 'Usage: chargekit request sumup' && echo yes)"
