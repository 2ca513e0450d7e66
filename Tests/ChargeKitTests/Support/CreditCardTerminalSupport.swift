@_spi(Tools) @testable import ChargeKit
import Foundation

// Credit Card Terminal's request as its tests make it (the seed's ChargeDemo order),
// shared with Tools/Tests/ChargeKitToolsTests (a link to this file).

func chargeRequest(_ amount: String = "50.00", extras: [QueryItem] = [QueryItem("record_id", "123")]) throws -> CreditCardTerminal.ChargeRequest {
    try CreditCardTerminal.ChargeRequest(chargeFields(amount, extras: extras))
}

/// The fields of ``chargeRequest(_:extras:)``, to change before the request is made.
func chargeFields(_ amount: String = "50.00", extras: [QueryItem] = [QueryItem("record_id", "123")]) throws -> CreditCardTerminal.ChargeRequest.Fields {
    var fields = CreditCardTerminal.ChargeRequest.Fields()
    fields.setReturnURL("com-innerfence-ChargeDemo://chargeResponse", extraParams: extras)
    fields.amount = try Money(parsing: amount, currency: .usd)
    fields.taxRate = .percent("8.5")
    return fields
}
