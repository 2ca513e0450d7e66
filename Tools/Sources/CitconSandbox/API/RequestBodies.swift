@_spi(Tools) import CitconUPI
import Foundation

// The request bodies the sandbox reads, as it reads them: its own types, which the
// generated operations decode through the configuration's `typeOverrides`, each
// described by a schema of `Tools/openapi/sandbox.yaml` (named beside it). The app SDK keeps its own types for what it sends
// (`UPIWire.ChargeRequest`…, encoded only); the values inside (`CPayTransaction`…) are
// the UPI data model both sides share. They take the seed's shape and the live API's.

/// `POST /v1/charges` (schema `ChargeRequest`): what the merchant's server sends.
package struct ChargeBody: Decodable, Sendable, Hashable {
    /// The trade.
    package var transaction: CPayTransaction
    /// The method (optional at creation; the SDK confirms with one).
    package var payment: CPayPayment?
    /// IPN and browser returns.
    package var urls: CPayUrls?
    /// The consumer.
    package var consumer: CPayConsumer?
    /// Goods.
    package var goods: CPayGoods?
    /// Whether the body carried `transaction.auto_capture` (the sandbox defaults it per
    /// method when absent).
    package var autoCaptureSent: Bool

    package enum CodingKeys: String, CodingKey, CaseIterable { case transaction, payment, urls, consumer, goods }
    enum TransactionKeys: String, CodingKey { case autoCapture = "auto_capture" }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        transaction = try c.decode(CPayTransaction.self, forKey: .transaction)
        payment = try c.decodeIfPresent(CPayPayment.self, forKey: .payment)
        urls = try c.decodeIfPresent(CPayUrls.self, forKey: .urls)
        consumer = try c.decodeIfPresent(CPayConsumer.self, forKey: .consumer)
        goods = try c.decodeIfPresent(CPayGoods.self, forKey: .goods)
        autoCaptureSent = try c.nestedContainer(keyedBy: TransactionKeys.self, forKey: .transaction).contains(.autoCapture)
    }

    /// Hashable as the generated operations ask (by the trade's reference: equal bodies have equal ones).
    package func hash(into hasher: inout Hasher) { hasher.combine(transaction.reference) }
}

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
