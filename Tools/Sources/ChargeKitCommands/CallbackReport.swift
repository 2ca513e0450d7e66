@_spi(Tools) import ChargeKit
import Foundation

/// A flat, JSON-ready account of a callback: the contract of `chargekit parse --json`.
///
/// Keys: `provider`, `operation` (`charge`, `refund`, `query`, `open`; `unknown` for a
/// Zettle callback read without a ledger, since only the request says what it asked),
/// `outcome`, `providerStatus`, `verified`, `extraParams`, then
/// each field the callback carries under its documented name (Credit Card Terminal:
/// `transactionId`, `amount`, `currency`, `taxAmount`, `taxRate`, `tipAmount`,
/// `cardType`, `redactedCardNumber`; SumUp: `smp-tx-code`, `foreign-tx-id`,
/// `smp-message`; Zettle: `errorCode`, `errorMessage`, `reference` and the payment
/// info names). Money is the exact decimal string.
///
/// Also, when the callback carries them: `message` (the app's human-readable
/// message), `failureCause` (SumUp), `receiptSent` (SumUp, a JSON boolean),
/// `errorDomain` and `errorCode` (Zettle: the structured 3.0 error's parts; for 1.0
/// `errorCode` is the code as sent), `authorizationCode` (Zettle), and always
/// `unknownFields`: the provider-namespace parameters ChargeKit does not know, as sent.
public struct CallbackReport: Encodable, Hashable, Sendable {
    public var provider: String
    public var operation: String
    public var outcome: String
    public var providerStatus: String
    public var verified: Bool
    public var extraParams: [String: String]
    public var fields: [String: String]
    public var nonce: String?
    public var flags: [String]
    public var receiptSent: Bool?
    public var unknownFields: [String: String]

    /// Reports a parsed callback; `result` is the ledger's verdict when it was verified.
    public init(_ callback: PaymentCallback, result: PaymentResult? = nil) {
        provider = callback.provider.rawValue
        if let result {
            operation = result.operation.rawValue
        } else {
            operation = callback.provider == .zettle ? "unknown" : HandoffOperation.charge.rawValue
        }
        outcome = callback.outcome.rawValue
        providerStatus = callback.providerStatus
        verified = result != nil
        extraParams = Dictionary(callback.extraItems.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        nonce = callback.nonce?.value
        flags = result?.flags.map(\.description) ?? []
        unknownFields = Dictionary(callback.unknownFields.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        receiptSent = nil
        var fields: [String: String?] = ["message": callback.message]
        if let response = callback.creditCardTerminal {
            fields.merge([
                "transactionId": response.transactionId, "amount": response.amount?.formatted,
                "currency": response.currency?.code, "taxAmount": response.taxAmount?.formatted,
                "taxRate": response.taxRate, "tipAmount": response.tipAmount?.formatted,
                "cardType": response.cardType?.rawValue, "redactedCardNumber": response.redactedCardNumber,
                "format": response.format.rawValue,
            ]) { _, new in new }
        } else if let callback = callback.sumUp {
            fields.merge(["smp-tx-code": callback.transactionCode, "foreign-tx-id": callback.foreignTransactionID,
                          "smp-message": callback.message, "failureCause": callback.failureCause?.rawValue]) { _, new in new }
            for tag in callback.tags { fields[tag.name] = tag.value }
            receiptSent = callback.receiptSent
        } else if let callback = callback.square {
            fields.merge([
                "transaction_id": callback.transactionID, "client_transaction_id": callback.clientTransactionID,
                "error_code": callback.errorCode?.rawValue, "state": callback.state,
            ]) { _, new in new }
        } else if let callback = callback.zettle {
            let info = callback.paymentInfo
            let structured = callback.structuredError
            fields.merge([
                "errorCode": callback.errorCode?.rawValue ?? structured.map { String($0.code) },
                "errorDomain": structured?.domain, "authorizationCode": info.authorizationCode,
                "operationUUID": callback.operationUUID, "errorMessage": callback.errorMessage, "reference": callback.reference,
                "referenceNumber": info.referenceNumber, "entryMode": info.entryMode?.rawValue, "obfuscatedPan": info.obfuscatedPan,
                "panHash": info.panHash, "cardBrand": info.cardBrand, "AID": info.aid, "TSI": info.tsi, "TVR": info.tvr,
                "applicationName": info.applicationName, "numberOfInstallments": info.numberOfInstallments.map(String.init),
                "installmentAmount": info.installmentAmount,
            ]) { _, new in new }
        }
        self.fields = fields.compactMapValues { $0 }
    }

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(provider, forKey: Key("provider"))
        try container.encode(operation, forKey: Key("operation"))
        try container.encode(outcome, forKey: Key("outcome"))
        try container.encode(providerStatus, forKey: Key("providerStatus"))
        try container.encode(verified, forKey: Key("verified"))
        try container.encode(extraParams, forKey: Key("extraParams"))
        try container.encodeIfPresent(nonce, forKey: Key("nonce"))
        try container.encode(flags, forKey: Key("flags"))
        try container.encodeIfPresent(receiptSent, forKey: Key("receiptSent"))
        try container.encode(unknownFields, forKey: Key("unknownFields"))
        for (name, value) in fields { try container.encode(value, forKey: Key(name)) }
    }

    /// The report as one line of JSON with sorted keys.
    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(self) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }
}
