import Foundation
import NIOConcurrencyHelpers

/// The listener streams (`GET /v1/ipn-events`) open on this instance, and what wakes
/// them. One poll of the store per tick serves them all, and none runs while none is
/// open: a stream reads the outbox only when the poll saw it change, so an idle stream
/// costs no query. The poll also reads the merchant's secrets (``SandboxSecrets``), so
/// that a stream opened with a key that was rotated away ends within a second.
///
/// The merchant key opens at most ``limit`` at once here (``maximumStreams``, or half a
/// client's share of `--max-connections` when that is less): one key cannot take every
/// connection the instance has.
final class ListenerFeed: Sendable {
    /// The most streams the merchant key may have open at once on one instance.
    static let maximumStreams = 16
    /// This instance's bound, derived from `--max-connections`.
    let limit: Int

    private struct State {
        var open = 0
        var polling = false
        /// Moves on each change the poll saw (new IPNs, a rotated key).
        var generation: UInt64 = 0
        var seen: Fingerprint?
        /// Polls made, and reads of the outbox by the streams (for tests).
        var polls = 0
        var reads = 0
    }

    /// What a poll compares: the newest IPN, how many of the recent ones are committed
    /// (one committed late by another instance changes it), and the merchant key.
    private struct Fingerprint: Equatable {
        var latest: Int64
        var recent: Int
        var merchantKey: String
    }

    private let state = NIOLockedValueBox(State())
    private let store: any ListenerStore & CredentialStore
    private let secrets: SandboxSecrets
    private let clock: SandboxClock
    private let interval: Duration

    init(store: any ListenerStore & CredentialStore, secrets: SandboxSecrets, clock: SandboxClock, interval: Duration, maximumConnections: Int = 256) {
        limit = min(Self.maximumStreams, max(1, ClientConnections.share(of: maximumConnections) / 2))
        self.store = store
        self.secrets = secrets
        self.clock = clock
        self.interval = interval
    }

    /// Opens a stream (``close()`` it when it ends), or refuses it (`4290`) when the key
    /// has ``limit`` open.
    @discardableResult
    func open() throws(APIError) -> Place {
        let (opened, startPoll) = state.withLockedValue { state -> (Bool, Bool) in
            guard state.open < limit else { return (false, false) }
            state.open += 1
            defer { state.polling = true }
            return (true, !state.polling)
        }
        guard opened else {
            throw APIError(.tooManyRequests, "Authorization: this merchant key has \(limit) listener streams open on this instance; end one first")
        }
        if startPoll { Task { await poll() } }
        return Place(feed: self)
    }

    /// One open stream's place, freed once: when its stream ends (``free()``), or when
    /// it is released unused (a response whose body never ran, its connection gone
    /// between head and body).
    final class Place: Sendable {
        private let feed: ListenerFeed
        private let freed = NIOLockedValueBox(false)

        fileprivate init(feed: ListenerFeed) { self.feed = feed }

        /// Frees the place (again is nothing).
        func free() {
            guard freed.withLockedValue({ freed in defer { freed = true }; return !freed }) else { return }
            feed.state.withLockedValue { $0.open -= 1 }
        }

        deinit { free() }
    }

    /// Changes seen so far: a stream reads the outbox again when it has moved.
    var generation: UInt64 { state.withLockedValue { $0.generation } }

    /// Counts a stream's read of the outbox.
    func countRead() { state.withLockedValue { $0.reads += 1 } }

    /// Polls made and stream reads so far, for tests.
    package var counts: (polls: Int, reads: Int) { state.withLockedValue { ($0.polls, $0.reads) } }

    /// Streams open now, for tests.
    package var openStreams: Int { state.withLockedValue { $0.open } }

    private func poll() async {
        while true {
            let goOn = state.withLockedValue { state -> Bool in
                if state.open == 0 { state.polling = false }
                return state.open > 0
            }
            guard goOn else { return }
            await secrets.refreshIfStale(from: store, clock: clock)
            if let latest = try? await store.latestNotificationID(),
               let recent = try? await store.notifications(after: max(0, latest - IPNEventStream.lateWindow), limit: 500) {
                let now = Fingerprint(latest: latest, recent: recent.count, merchantKey: secrets.merchantKey)
                state.withLockedValue { state in
                    state.polls += 1
                    if state.seen != now {
                        state.seen = now
                        state.generation &+= 1
                    }
                }
            }
            try? await Task.sleep(for: interval)
        }
    }
}
