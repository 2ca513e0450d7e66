/// The checks of an app that echoes one field of the request as it was sent, carrying
/// ChargeKit's nonce and then, after a `.`, the order's reference (`<nonce>.<reference>`):
/// the nonce must be the charge's, the reference the one asked, and an approved amount,
/// in minor units, the amount asked.
struct EchoedTransactionID {
    /// The echoed field's wire name.
    var field: String
    /// The app, for the messages (its display name).
    var app: String

    /// Checks `nonce` and `reference`, read from the echoed field, against `charge`.
    func check(nonce: Nonce?, reference: String?, against charge: PendingCharge) throws(ChargeKitError) {
        guard nonce == charge.nonce else { throw .mismatch(field: field, rule: "must carry the request's nonce, as \(app) echoes it") }
        if let asked = charge.request.reference, reference != asked { throw .mismatch(field: field, rule: "must echo the reference sent") }
    }

    /// Checks an approval's amount in minor units (its field `amountField`) against the amount asked.
    static func checkApproved(amount: Int64?, field amountField: String, against charge: PendingCharge) throws(ChargeKitError) {
        guard let asked = charge.request.amount else { return }
        guard let amount else { throw .missingField(amountField) }
        guard amount == asked.minorUnits else {
            throw .mismatch(field: amountField, rule: "approved \(amount) minor units, \(asked.minorUnits) were asked")
        }
    }
}
