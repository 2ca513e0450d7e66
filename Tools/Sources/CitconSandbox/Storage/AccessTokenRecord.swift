@_spi(Tools) import CitconUPI
import Foundation

/// An access token as stored.
public struct AccessTokenRecord: Sendable, Equatable, Codable {
    /// The token.
    public var token: String
    /// `server` or `client`.
    public var type: String
    /// Granted permissions.
    public var permissions: [String]
    /// Expiry, milliseconds since 1970.
    public var expiresAt: Int64

    /// Makes a token record.
    public init(token: String, type: String, permissions: [String], expiresAt: Int64) {
        self.token = token
        self.type = type
        self.permissions = permissions
        self.expiresAt = expiresAt
    }

    /// Permissions of each token type.
    public static let permissions: [String: [String]] = [
        "server": ["charge", "inquiry", "capture", "refund", "cancel"],
        "client": ["confirm", "inquiry"],
    ]
}
