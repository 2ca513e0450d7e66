import Foundation

/// An installment plan: the seed's `CPayInstallments`.
public struct CPayInstallments: Sendable, Equatable, Codable {
    /// The plan's maximum.
    public var id: String?
    /// Number of payments (published SDK).
    public var paymentNumber: Int?
    /// Quantity (published SDK).
    public var quantity: Int?

    /// Makes an empty plan.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case id, quantity
        case paymentNumber = "payment_number"
    }
}
