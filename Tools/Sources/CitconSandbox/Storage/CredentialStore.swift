import Foundation

/// The merchant's credentials and the settings beside them: the merchant key (and the
/// access tokens issued under it), the IPN secret, the clock's offset, and the failed
/// authentications the throttle counts. What the sandbox's clock, its secrets and its
/// throttle read, and all they read.
public protocol CredentialStore: Sendable {
    /// A setting such as the merchant key.
    func setting(_ key: String) async throws -> String?
    /// Stores a setting.
    func setSetting(_ key: String, to value: String) async throws
    /// Makes `key` the merchant key; when another key was stored, every access token
    /// issued under it is revoked in the same transaction. Returns whether it changed.
    @discardableResult
    func rotateMerchantKey(to key: String) async throws -> Bool
    /// Stores a token.
    func insertToken(_ token: AccessTokenRecord) async throws
    /// Finds a token.
    func token(_ value: String) async throws -> AccessTokenRecord?
    /// Counts a failed authentication with the merchant key at `time` (milliseconds), for
    /// the merchant across every instance on this store, and forgets the failures before
    /// `cutoff` (only those).
    func recordAuthenticationFailure(at time: Int64, forgettingBefore cutoff: Int64) async throws
    /// The failed authentications at or after `since`: how many, and when the oldest was.
    func authenticationFailures(since: Int64) async throws -> (count: Int, oldest: Int64?)
}
