import Foundation

/// Card data: the seed's `CPayPaymentData` (its `cw` is the card verification value).
public struct CPayPaymentData: Sendable, Equatable, Codable {
    /// Cardholder's first name.
    public var firstName: String?
    /// Cardholder's last name.
    public var lastName: String?
    /// Card verification value.
    public var cvv: String?
    /// Card number.
    public var pan: String?
    /// Expiry, `MM/YY`.
    public var expiry: String?
    /// Card issuer (published SDK).
    public var issuer: String?

    /// Makes empty card data.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case cvv, pan, expiry, issuer
        case firstName = "first_name", lastName = "last_name"
    }
}
