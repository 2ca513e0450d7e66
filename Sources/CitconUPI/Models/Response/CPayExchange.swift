import Foundation

/// Currency exchange of a transaction.
public struct CPayExchange: Sendable, Equatable, Codable {
    /// Amount in the settlement currency's minor unit.
    public var amount: Int?
    /// Settlement currency.
    public var currency: String?
    /// Rate, exact.
    public var rate: Decimal?

    /// Makes an exchange object.
    public init(amount: Int? = nil, currency: String? = nil, rate: Decimal? = nil) {
        self.amount = amount
        self.currency = currency
        self.rate = rate
    }

    enum CodingKeys: String, CodingKey { case amount, currency, rate }

    /// Reads `rate` as a JSON number or a decimal string (either may come: the live
    /// API's `exchange` is not documented, and an unknown shape must not refuse a charge).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        amount = try? c.decodeIfPresent(Int.self, forKey: .amount)
        currency = try? c.decodeIfPresent(String.self, forKey: .currency)
        if let number = try? c.decodeIfPresent(Decimal.self, forKey: .rate) {
            rate = number
        } else if let text = try? c.decodeIfPresent(String.self, forKey: .rate) {
            rate = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(amount, forKey: .amount)
        try c.encode(currency, forKey: .currency)
        try c.encode(rate, forKey: .rate)
    }
}
