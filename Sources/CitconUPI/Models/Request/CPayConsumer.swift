import Foundation

/// The consumer: the seed's `CPayConsumer`.
public struct CPayConsumer: Sendable, Equatable, Codable {
    /// The merchant's identifier for the consumer (required for vaulting).
    public var reference: String?
    /// First name (required for 3-D Secure).
    public var firstName: String?
    /// Last name (required for 3-D Secure).
    public var lastName: String?
    /// Phone number (required for 3-D Secure).
    public var phone: String?
    /// Email (required for 3-D Secure).
    public var email: String?
    /// Street.
    public var street: String?
    /// City.
    public var city: String?
    /// Zip code.
    public var zip: String?
    /// ISO 3166-1 alpha-2 country.
    public var country: String?

    /// Makes an empty consumer.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case reference, phone, email, street, city, zip, country
        case firstName = "first_name", lastName = "last_name"
    }
}
