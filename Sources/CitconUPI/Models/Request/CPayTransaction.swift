import Foundation

/// The trade: the seed's `CPayTransaction`.
public struct CPayTransaction: Sendable, Equatable, Codable {
    /// The merchant's unique serial number for the trade (an idempotency key).
    public var reference = ""
    /// The amount in the currency's minor unit, tax included (`128` is 1.28 USD).
    public var amount = 0
    /// ISO 4217 code, upper case.
    public var currency = ""
    /// ISO 3166-1 alpha-2 code, upper case.
    public var country = ""
    /// Capture without a separate capture call. Ignored by wechatpay, alipay and unionpay.
    public var autoCapture = false
    /// Merchant-defined note.
    public var note = ""

    /// Makes an empty transaction.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case reference, amount, currency, country, note
        case autoCapture = "auto_capture"
    }

    /// Reads the wire form: `reference`, `amount`, `currency` and `country` are
    /// required; `auto_capture` defaults to `false`, `note` to empty.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        reference = try c.decode(String.self, forKey: .reference)
        amount = try c.decode(Int.self, forKey: .amount)
        currency = try c.decode(String.self, forKey: .currency)
        country = try c.decode(String.self, forKey: .country)
        autoCapture = try c.decodeIfPresent(Bool.self, forKey: .autoCapture) ?? false
        note = try c.decodeIfPresent(String.self, forKey: .note) ?? ""
    }
}

/// The seed's misspelt name for ``CPayTransaction``.
@available(*, deprecated, renamed: "CPayTransaction")

public typealias CPayTranscation = CPayTransaction
