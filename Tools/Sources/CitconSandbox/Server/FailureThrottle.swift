@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI
import Foundation

/// Slows down guessing: counts each client's failed authentications (a wrong merchant
/// key presented on `POST /v1/access-tokens` or on the dashboard) over a sliding ``window``, and
/// once a client has failed ``allowedFailures`` times in it, refuses that client's
/// further attempts with `4290` (HTTP 429) without checking them, until old failures
/// leave the window. A right key never counts; other clients are not affected.
final class FailureThrottle: @unchecked Sendable {
    /// Failures allowed in the window before attempts are refused.
    static let allowedFailures = 10
    /// How far back failures count.
    static let window: Duration = .seconds(60)
    /// The most clients tracked (the oldest entries go first when it is reached).
    static let capacity = 10_000

    private let lock = NSLock()
    private var failures: [String: [ContinuousClock.Instant]] = [:]
    private let now: @Sendable () -> ContinuousClock.Instant

    init(now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.now = now
    }

    /// Refuses `client` (`4290`, saying when to retry) while it is over the limit.
    func check(_ client: String) throws(APIError) {
        let wait: Duration? = lock.withLock {
            let recent = prune(client)
            guard recent.count >= Self.allowedFailures, let oldest = recent.first else { return nil }
            return Self.window - (now() - oldest)
        }
        if let wait {
            let seconds = max(1, Int(wait.components.seconds) + 1)
            throw APIError(.tooManyRequests, "Authorization: too many failed attempts from this client; retry in \(seconds) s")
        }
    }

    /// Counts a failed authentication of `client`.
    func recordFailure(_ client: String) {
        lock.withLock {
            if failures.count >= Self.capacity, failures[client] == nil { failures.removeAll(keepingCapacity: true) }
            var recent = prune(client)
            recent.append(now())
            failures[client] = recent
        }
    }

    /// Runs `authenticate` for `client` unless it is over the limit, counting a `4010`
    /// it throws as a failure when a credential was presented (`authorization`). A
    /// request without one is no guess: it is how every browser first asks for a page
    /// behind Basic authentication, before the person types the key.
    func guarded<T>(_ client: String, authorization: String?, _ authenticate: () async throws -> T) async throws -> T {
        try check(client)
        do {
            return try await authenticate()
        } catch let error as APIError where error.code == .unauthorized {
            if authorization != nil { recordFailure(client) }
            throw error
        }
    }

    /// `client`'s failures still in the window (the lock is held).
    private func prune(_ client: String) -> [ContinuousClock.Instant] {
        let cutoff = now() - Self.window
        let recent = (failures[client] ?? []).filter { $0 > cutoff }
        failures[client] = recent.isEmpty ? nil : recent
        return recent
    }
}
