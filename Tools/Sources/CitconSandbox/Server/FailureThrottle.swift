@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI
import Foundation

/// Slows down guessing: counts the merchant's failed authentications (a wrong merchant
/// key presented on `POST /v1/access-tokens`, the dashboard or a listener's route)
/// over a sliding ``window``, in the store, so that every instance of a shared sandbox
/// counts the same failures whichever address they came from. Once ``allowedFailures``
/// are in the window, further attempts are refused with `4290` (HTTP 429) without
/// being checked, the right key's too, until old failures leave the window: a guesser
/// gets ten guesses a minute, however many addresses or instances it spreads them
/// over. Only failures older than the window are ever forgotten. A right key never
/// counts. Time is the sandbox's clock (``SandboxClock``).
struct FailureThrottle: Sendable {
    /// Failures allowed in the window before attempts are refused.
    static let allowedFailures = 10
    /// How far back failures count.
    static let window: Duration = .seconds(60)

    let store: any SandboxStore
    let clock: SandboxClock

    private var windowMilliseconds: Int64 { Self.window.milliseconds }

    /// Refuses (`4290`, saying when to retry) while the merchant is over the limit.
    func check() async throws {
        let now = clock.now
        let recent = try await store.authenticationFailures(since: now - windowMilliseconds)
        guard recent.count >= Self.allowedFailures, let oldest = recent.oldest else { return }
        let seconds = max(1, (windowMilliseconds - (now - oldest)) / 1000 + 1)
        throw APIError(.tooManyRequests, "Authorization: too many failed attempts with a wrong merchant key; retry in \(seconds) s")
    }

    /// Counts a failed authentication.
    func recordFailure() async throws {
        let now = clock.now
        try await store.recordAuthenticationFailure(at: now, forgettingBefore: now - windowMilliseconds)
    }

    /// Runs `authenticate` unless the merchant is over the limit, counting a `4010` it
    /// throws as a failure when a credential was presented (`authorization`). A request
    /// without one is no guess: it is how every browser first asks for a page behind
    /// Basic authentication, before the person types the key.
    func guarded<T>(authorization: String?, _ authenticate: () async throws -> T) async throws -> T {
        try await check()
        do {
            return try await authenticate()
        } catch let error as APIError where error.code == .unauthorized {
            if authorization != nil { try await recordFailure() }
            throw error
        }
    }
}
