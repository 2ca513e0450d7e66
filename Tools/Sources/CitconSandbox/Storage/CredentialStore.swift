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
    /// Adds `delta` to the whole number the setting `key` holds (none: 0) in one atomic
    /// step and returns the sum: of several instances adding at once, every one counts.
    func add(_ delta: Int64, toSetting key: String) async throws -> Int64
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

/// The sum every engine's ``CredentialStore/add(_:toSetting:)`` stores: a stored value
/// that is not a whole number, or a sum past `Int64`, is refused naming the setting
/// (never taken as 0, which would move the clock back).
package enum SettingSum {
    /// Why a setting could not be added to.
    package struct Refusal: Error, CustomStringConvertible {
        package var description: String

        package init(description: String) { self.description = description }
    }

    package static func adding(_ delta: Int64, to stored: String?, key: String) throws(Refusal) -> Int64 {
        guard let stored else { return delta }
        guard let value = Int64(stored) else { throw Refusal(description: "setting \(key): holds no whole number") }
        let (sum, overflow) = value.addingReportingOverflow(delta)
        guard !overflow else { throw Refusal(description: "setting \(key): the sum is past the largest whole number") }
        return sum
    }
}
