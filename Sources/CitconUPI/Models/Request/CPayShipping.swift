import Foundation

/// Shipping details: the seed's `CPayShipping`.
public struct CPayShipping: Sendable, Equatable, Codable {
    /// First name.
    public var firstName: String?
    /// Last name.
    public var lastName: String?
    /// Phone.
    public var phone: String?
    /// Email.
    public var email: String?
    /// Street.
    public var street: String?
    /// Unit.
    public var street2: String?
    /// City.
    public var city: String?
    /// State.
    public var state: String?
    /// Zip.
    public var zip: String?
    /// ISO 3166-1 alpha-2 country.
    public var country: String?

    /// Makes empty shipping details.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case phone, email, street, street2, city, state, zip, country
        case firstName = "first_name", lastName = "last_name"
    }
}
