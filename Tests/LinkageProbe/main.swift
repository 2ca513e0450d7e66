// Links ChargeKit and CitconUPI as an app would; scripts/linkage-check.sh inspects the
// binary and fails if anything but Foundation (and the Swift runtime) came with them.
@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI

let money = Money(minorUnits: 1099, currency: .usd)
let order = CPayRequest()
print(money.description, order.transaction.currency)
