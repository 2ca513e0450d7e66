@_spi(Tools) import ChargeKit
import Foundation

/// A flat, JSON-ready account of a callback: the contract of `chargekit parse --json`.
///
/// Keys: `provider`, `operation` (`charge`, `refund`, `query`, `open`; `unknown` for a
/// callback read without a ledger from an app whose callbacks do not say, since only
/// the request says what it asked), `outcome`, `providerStatus`, `verified`,
/// `extraParams`, `message` (the app's human-readable message) when sent, `receiptSent`
/// (a JSON boolean, for apps that say), and always `unknownFields`: the
/// provider-namespace parameters ChargeKit does not know, as sent. Then each field the
/// callback carries under its documented name, as each app's tool file
/// (`ToolApp/reportedFields(of:)`) lists them. Money is the exact decimal string.
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
            let named = ToolApps.app(callback.provider)?.callbackNamesOperation ?? true
            operation = named ? HandoffOperation.charge.rawValue : "unknown"
        }
        outcome = callback.outcome.rawValue
        providerStatus = callback.providerStatus
        verified = result != nil
        extraParams = callback.extraItems.firstValues
        nonce = callback.nonce?.value
        flags = result?.flags.map(\.description) ?? []
        unknownFields = callback.unknownFields.firstValues
        receiptSent = nil
        var fields: [String: String?] = ["message": callback.message]
        if let app = ToolApps.app(callback.provider) {
            fields.merge(app.reportedFields(of: callback)) { _, new in new }
            receiptSent = app.receiptSent(in: callback)
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
