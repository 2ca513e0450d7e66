@_spi(Tools) import ChargeKit
import Foundation

/// An order handed to a wallet and not yet answered. It holds no secret: no access
/// token, no charge token, no card data.
public struct CPayPendingOrder: Sendable, Equatable, Codable {
    /// Citcon's transaction id.
    public var id: String
    /// The merchant's reference.
    public var reference: String
    /// Amount in minor units.
    public var amount: Int
    /// Currency.
    public var currency: String
    /// Payment method.
    public var method: String
    /// The URL the wallet returns to the app on.
    public var returnURL: String
    /// When the wallet was opened.
    public var started: Date

    /// Makes a pending order.
    public init(id: String, reference: String, amount: Int, currency: String, method: String, returnURL: String,
                started: Date) {
        self.id = id
        self.reference = reference
        self.amount = amount
        self.currency = currency
        self.method = method
        self.returnURL = returnURL
        self.started = started
    }
}
