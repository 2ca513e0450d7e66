import Foundation

/// A card's billing address: the seed's `CPayBillingAddr`.
public struct CPayBillingAddr: Sendable, Equatable, Codable {
    /// Street number and name.
    public var street: String?
    /// Unit number.
    public var street2: String?
    /// City.
    public var city: String?
    /// State or province.
    public var state: String?
    /// Zip code.
    public var zip: String?
    /// ISO 3166-1 alpha-2 country.
    public var country: String?

    /// Makes an empty address.
    public init() {}
}
