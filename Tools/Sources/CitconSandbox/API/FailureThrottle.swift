@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI
import Foundation
import Logging
import Synchronization

/// Slows down guessing of the merchant key, without ever refusing the right key
/// unchecked to a client that is not guessing.
///
/// - **Every presented key is checked at once**: the right key is answered at once,
///   from any address, however many wrong keys others sent.
/// - **A budget for the whole sandbox**: failures (a wrong merchant key presented on
///   `POST /v1/access-tokens`, the dashboard or a listener's route) are counted in the
///   store over a sliding ``window``, so every instance of a shared sandbox counts the
///   same failures. Past ``allowedFailures`` in the window, a wrong key's answer is
///   withheld: `4290` (HTTP 429, saying when to retry) instead of `4010`, so that a
///   guesser spread over many addresses and instances gets at most the budget's
///   verdicts a window. The operator is told: a warning in the log and a line on the
///   dashboard (``recentFailures()``).
/// - **A cap per client address** (an IPv4 address, or an IPv6 /64), kept by each
///   instance: an address with ``allowedFailuresPerAddress`` failures in the window is
///   refused outright (`4290`, unchecked) until they leave it. Behind a proxy or a
///   container engine's port mapping every client may share one address: the cap is
///   then the merchant's too.
///
/// A right key never counts. Time is the sandbox's clock (``SandboxClock``).
struct FailureThrottle: Sendable {
    /// Wrong-key verdicts the whole sandbox gives in a window.
    static let allowedFailures = 10
    /// Failures one address may have in the window before it is refused outright.
    static let allowedFailuresPerAddress = 10
    /// How far back failures count.
    static let window: Duration = .seconds(60)

    let store: any CredentialStore
    let clock: SandboxClock
    /// This instance's failures per client address.
    var addresses = AddressFailures()
    var logger: Logger?

    private var windowMilliseconds: Int64 { Self.window.milliseconds }

    /// The failures in the window, for the dashboard.
    func recentFailures() async throws -> Int {
        try await store.authenticationFailures(since: clock.now - windowMilliseconds).count
    }

    /// Counts a failed authentication (from `address`, when known).
    func recordFailure(from address: String? = nil) async throws {
        let now = clock.now
        try await store.recordAuthenticationFailure(at: now, forgettingBefore: now - windowMilliseconds)
        if let address { addresses.record(address, at: now, window: windowMilliseconds) }
    }

    /// Runs `authenticate` (unless `address` is over its cap), counting a `4010` it
    /// throws as a failure when a credential was presented (`authorization`); past the
    /// budget, that `4010` becomes a `4290`. A request without a credential is no
    /// guess: it is how every browser first asks for a page behind Basic
    /// authentication, before the person types the key.
    func guarded<T>(authorization: String?, address: String?, _ authenticate: () async throws -> T) async throws -> T {
        let now = clock.now
        if let address, let oldest = addresses.capped(address, now: now, window: windowMilliseconds, limit: Self.allowedFailuresPerAddress) {
            throw APIError(.tooManyRequests, "Authorization: too many failed attempts from your address with a wrong merchant key; "
                           + "retry in \(retry(oldest, now)) s")
        }
        do {
            return try await authenticate()
        } catch let error as APIError where error.code == .unauthorized {
            guard authorization != nil else { throw error }
            try await recordFailure(from: address)
            let recent = try await store.authenticationFailures(since: now - windowMilliseconds)
            guard recent.count > Self.allowedFailures else { throw error }
            logger?.warning("the merchant key is being guessed: \(recent.count) wrong keys in the last \(Self.window.components.seconds) s")
            throw APIError(.tooManyRequests, "Authorization: too many failed attempts with a wrong merchant key; retry in "
                           + "\(retry(recent.oldest ?? now, now)) s")
        }
    }

    private func retry(_ oldest: Int64, _ now: Int64) -> Int64 { max(1, (windowMilliseconds - (now - oldest)) / 1000 + 1) }

    /// The key of a client address: an IPv4 address as it is, an IPv6 address's /64.
    static func addressKey(_ address: String?) -> String? {
        guard let address else { return nil }
        guard address.contains(":") else { return address }
        var bytes = [UInt8](repeating: 0, count: 16)
        guard inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        // An IPv4-mapped address is that IPv4 address.
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return bytes[12...].map(String.init).joined(separator: ".")
        }
        return bytes[0..<8].map { String(format: "%02x", $0) }.joined() + "::/64"
    }
}

/// Failures per client address over the window, bounded (the oldest addresses are
/// forgotten first past ``maximumAddresses``).
final class AddressFailures: Sendable {
    static let maximumAddresses = 10_000
    private let failures = Mutex<[String: [Int64]]>([:])

    func record(_ address: String, at now: Int64, window: Int64) {
        failures.withLock { failures in
            if failures[address] == nil && failures.count >= Self.maximumAddresses {
                failures = failures.filter { $0.value.contains { $0 > now - window } }
                if failures.count >= Self.maximumAddresses, let oldest = failures.min(by: { ($0.value.last ?? 0) < ($1.value.last ?? 0) }) {
                    failures[oldest.key] = nil
                }
            }
            failures[address, default: []].removeAll { $0 <= now - window }
            failures[address, default: []].append(now)
        }
    }

    /// The oldest failure in the window when `address` has `limit` or more, else `nil`.
    func capped(_ address: String, now: Int64, window: Int64, limit: Int) -> Int64? {
        failures.withLock { failures in
            let recent = (failures[address] ?? []).filter { $0 > now - window }
            return recent.count >= limit ? recent.first : nil
        }
    }
}
