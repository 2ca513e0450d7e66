import Foundation

/// What a hand-off asked the payment app to do. Only ``charge`` is a sale: a refund,
/// a query or opening the app is never reported as an approved sale.
public enum HandoffOperation: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// Take a payment (every Credit Card Terminal, SumUp, Zettle 1.0 and Square request, and
    /// `izettle://api/payment/charge`).
    case charge
    /// Give money back (`izettle://api/payment/refund`).
    case refund
    /// Ask about an earlier payment (`izettle://api/payment/query`).
    case query
    /// Open the payment app (`izettle://api/open`).
    case open

    public var description: String { rawValue }
}
