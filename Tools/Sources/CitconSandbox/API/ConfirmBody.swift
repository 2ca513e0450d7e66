@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI
import Foundation

// The body as the sandbox reads it (its own type, which the generated operation decodes
// through the configuration's `typeOverrides`, described by the schema named beside it),
// and the value it is checked into.

/// `POST /v1/charges/{charge-token}` (schema `ConfirmRequest`): what the app's SDK sends.
package struct ConfirmBody: Decodable, Sendable, Hashable {
    /// The method chosen.
    package var payment: CPayPayment
    /// The consumer.
    package var consumer: CPayConsumer?
    /// Where the wallet returns to the app: its scheme URL or universal link.
    package var returnURL: String?
    /// Extra data.
    package var ext: CPayExt?
    /// Installments.
    package var installments: CPayInstallments?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case payment, consumer, ext, installments
        case returnURL = "return_url"
    }

    /// Hashable as the generated operations ask (by the method: equal bodies have equal ones).
    package func hash(into hasher: inout Hasher) { hasher.combine(payment.method) }
}

/// A confirmation, valid when made: the charge token's form, the method (one the
/// sandbox plays), the return URL (an app's or a safe redirect), each refusal a `4000`
/// naming the field. The operation hands it to ``SandboxAPI/confirm(_:scenario:)``.
package struct ChargeConfirmation: Sendable {
    /// The charge's token.
    package let chargeToken: String
    /// The method chosen.
    package let method: SandboxMethod
    /// Where the wallet returns to the app.
    package let returnURL: String?

    /// Checks `body`, for the charge of `chargeToken`.
    package init(_ body: ConfirmBody, chargeToken: String) throws(APIError) {
        try SandboxAPI.field { () throws(ChargeKitError) in try FieldRules.identifier(chargeToken, field: "charge_token", limit: 128) }
        method = try SandboxMethod.checked(body.payment.method)
        if let returnURL = body.returnURL {
            try SandboxAPI.field { () throws(ChargeKitError) in try FieldRules.callbackURL(returnURL, field: "return_url") }
            try SandboxAPI.checkRedirect(returnURL, field: "return_url")
        }
        self.chargeToken = chargeToken
        returnURL = body.returnURL
    }
}
