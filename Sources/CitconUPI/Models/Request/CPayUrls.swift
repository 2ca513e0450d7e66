import Foundation

/// The trade's URLs: the seed's `CPayUrls`.
public struct CPayUrls: Sendable, Equatable, Codable {
    /// Where the server POSTs asynchronous notifications (IPN).
    public var ipn = ""
    /// Browser return after success.
    public var success = ""
    /// Browser return after failure.
    public var fail = ""
    /// Browser return after cancellation.
    public var cancel = ""

    /// Makes empty URLs.
    public init() {}

    /// Reads the wire form; every URL is optional.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        ipn = try c.decodeIfPresent(String.self, forKey: .ipn) ?? ""
        success = try c.decodeIfPresent(String.self, forKey: .success) ?? ""
        fail = try c.decodeIfPresent(String.self, forKey: .fail) ?? ""
        cancel = try c.decodeIfPresent(String.self, forKey: .cancel) ?? ""
    }

    enum CodingKeys: String, CodingKey { case ipn, success, fail, cancel }
}
