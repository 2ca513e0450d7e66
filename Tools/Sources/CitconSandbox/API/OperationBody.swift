@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI
import Foundation

// The body as the sandbox reads it (its own type, which the generated operation decodes
// through the configuration's `typeOverrides`, described by the schema named beside it),
// and the value it is checked into.

/// `POST /v1/captures`, `/v1/refunds` and `/v1/cancels` (schema `OperationRequest`).
package struct OperationBody: Decodable, Sendable, Hashable {
    /// The charge's id.
    package var transactionID: String
    /// The operation's own reference (an idempotency key; must differ from the charge's).
    package var reference: String
    /// Amount in minor units (captures and refunds; absent means all).
    package var amount: Int?
    /// Why (refunds).
    package var reason: String?
    /// The amount's currency, where the caller states it; it must be the charge's.
    package var currency: String?
    /// The charge's own reference (the live API's cancels send it); it must be the charge's.
    package var transactionReference: String?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case reference, amount, reason, id, note, currency
        case transactionID = "transaction_id", transactionReference = "transaction_reference"
    }

    /// Reads the seed's shape (`transaction_id`, `reason`) and the live API's (`id` for
    /// the charge, `note`, and on cancels `transaction_reference`, the charge's own
    /// reference). Fields that contradict each other are refused, never one of them
    /// dropped: `transaction_id` and `id` naming two charges, `reason` and `note` saying
    /// two things.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let seedID = try c.decodeIfPresent(String.self, forKey: .transactionID)
        let liveID = try c.decodeIfPresent(String.self, forKey: .id)
        guard let id = seedID ?? liveID else {
            throw DecodingError.keyNotFound(CodingKeys.transactionID, .init(codingPath: c.codingPath,
                                            debugDescription: "transaction_id (or id) is required"))
        }
        if let seedID, let liveID, seedID != liveID {
            throw DecodingError.dataCorruptedError(forKey: .id, in: c, debugDescription: "names another charge than transaction_id ('\(seedID)')")
        }
        transactionID = id
        reference = try c.decode(String.self, forKey: .reference)
        amount = try c.decodeIfPresent(Int.self, forKey: .amount)
        let reason = try c.decodeIfPresent(String.self, forKey: .reason)
        let note = try c.decodeIfPresent(String.self, forKey: .note)
        if let reason, let note, reason != note {
            throw DecodingError.dataCorruptedError(forKey: .note, in: c, debugDescription: "says another thing than reason")
        }
        self.reason = reason ?? note
        currency = try c.decodeIfPresent(String.self, forKey: .currency)
        transactionReference = try c.decodeIfPresent(String.self, forKey: .transactionReference)
    }
}

/// A capture, refund or cancel, valid when made: the charge's id and the operation's
/// reference are identifiers, a reason is text, an amount is above zero, each refusal a
/// `4000` naming the field. What must agree with the charge (its currency, its
/// reference) is checked against it when the store changes it
/// (``SandboxAPI/checkAgreement(_:with:)``).
package struct ChargeOperation: Sendable {
    /// The body, checked.
    package let body: OperationBody

    /// Checks `body`.
    package init(_ body: OperationBody) throws(APIError) {
        try SandboxAPI.field { () throws(ChargeKitError) in
            try FieldRules.identifier(body.transactionID, field: "transaction_id", limit: 128)
            try FieldRules.identifier(body.reference, field: "reference", limit: 128)
            if let reason = body.reason { try FieldRules.text(reason, field: "reason", limit: 256) }
        }
        if let amount = body.amount, amount <= 0 {
            throw APIError(.invalidRequest, "amount: must be greater than zero")
        }
        self.body = body
    }
}
