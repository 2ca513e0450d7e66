import Foundation
import NIOConcurrencyHelpers

/// The merchant key and the IPN secret as this instance uses them (to sign IPNs, to
/// greet a listener, to keep a listener's stream open), read from the store again at
/// most once a second. A shared sandbox's instance started with a new `--merchant-key`
/// or `--ipn-secret` rotates them in the store; every other instance signs with the new
/// secret, and ends the streams opened with the old key, within a second.
final class SandboxSecrets: Sendable {
    private struct Values {
        var merchantKey: String
        var ipnSecret: String
    }

    private let values: NIOLockedValueBox<Values>
    private let gate = RefreshGate()

    /// The secrets this instance settled at its start.
    init(merchantKey: String, ipnSecret: String) {
        values = NIOLockedValueBox(Values(merchantKey: merchantKey, ipnSecret: ipnSecret))
    }

    /// The merchant key, as last read.
    var merchantKey: String { values.withLockedValue { $0.merchantKey } }
    /// The IPN secret, as last read.
    var ipnSecret: String { values.withLockedValue { $0.ipnSecret } }

    /// Reads both again when a second has passed (by `clock`) since the last reading.
    func refreshIfStale(from store: any CredentialStore, clock: SandboxClock) async {
        if gate.opens(at: clock.now) { await refresh(from: store) }
    }

    /// Reads both again now (a caller just proved a key this instance has not read yet).
    func refresh(from store: any CredentialStore) async {
        // A failed read keeps what was read before.
        guard let key = try? await store.setting("merchant_key"), let secret = try? await store.setting("ipn_secret") else { return }
        values.withLockedValue { $0 = Values(merchantKey: key, ipnSecret: secret) }
    }
}

/// Lets a reading of the store through at most once a second, for the values every
/// instance of a shared sandbox must agree on (``SandboxClock``, ``SandboxSecrets``).
final class RefreshGate: Sendable {
    private let last = NIOLockedValueBox<Int64?>(nil)

    /// Whether a reading at `now` (milliseconds) goes through; it is then the last.
    /// A clock that went back (a restart on another offset) lets one through too.
    func opens(at now: Int64) -> Bool {
        last.withLockedValue { last in
            if let previous = last, now >= previous, now - previous < 1000 { return false }
            last = now
            return true
        }
    }
}
