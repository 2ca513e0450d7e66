import Foundation

/// What a hand-off asked the payment app to do. Only ``charge`` is a sale: a refund,
/// a query or opening the app is never reported as an approved sale.
public enum HandoffOperation: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// Take a payment: every app's sale request (each app's article names its operations).
    case charge
    /// Give money back (an app's refund operation, where it has one).
    case refund
    /// Ask about an earlier payment (an app's query operation, where it has one).
    case query
    /// Open the payment app, for an app whose protocol has such an operation.
    case open

    public var description: String { rawValue }
}
