@_spi(Tools) import CitconUPI
import Foundation
import ServiceLifecycle

/// Delivers the outbox: POSTs each pending IPN (a flat JSON object signed with the
/// merchant's IPN secret, as Citcon sends it) to its `urls.ipn`.
/// A 2xx answer marks it delivered. Any other answer, a timeout or a refused
/// connection schedules the next attempt after the next delay of
/// ``SandboxConfiguration/ipnRetrySchedule``; when the schedule is used up the IPN is
/// dead-lettered (``OutboxState/dead``, with the last error). Because the outbox is in
/// the database, pending deliveries resume after a restart. Delivery is at least once.
struct IPNWorker: Service {
    let store: any ChargeStore & OutboxStore & CredentialStore
    let configuration: SandboxConfiguration
    let poster: IPNPost
    /// The merchant's IPN secret (every delivery is signed with it), read again from
    /// the store at most once a second, so that a rotation on another instance reaches this one.
    let secrets: SandboxSecrets
    /// The sandbox's clock (its offset read again at every tick).
    let clock: SandboxClock

    init(store: any ChargeStore & OutboxStore & CredentialStore, configuration: SandboxConfiguration, secrets: SandboxSecrets, clock: SandboxClock = SandboxClock()) {
        self.clock = clock
        self.store = store
        self.configuration = configuration
        self.secrets = secrets
        poster = IPNPost(timeout: configuration.ipnTimeout, loopbackOnly: !configuration.allowNonLoopbackIPN)
    }

    /// How long a claimed IPN stays this instance's: longer than any attempt can take
    /// (its deadline) with room to record it; another instance of a shared sandbox takes
    /// it over when it has passed.
    var lease: Int64 { 2 * configuration.ipnTimeout.milliseconds + 5000 }

    /// The most deliveries in flight at once.
    static let concurrency = 32

    func run() async throws {
        // Stop between deliveries, never in the middle of one: a delivery in flight
        // ends within the IPN timeout (see ``IPNPost``) and its outcome is recorded.
        // Deliveries run side by side, so a slow receiver delays only its own IPNs.
        // The store's claims (with a lease) keep one IPN with one deliverer, in this
        // instance and across instances of a shared sandbox; this counts what is in
        // flight here so that no more is claimed than can be delivered at once.
        let inFlight = InFlight()
        await withDiscardingTaskGroup { group in
            while !Task.isCancelled && !Task.isShuttingDownGracefully {
                let free = Self.concurrency - inFlight.count
                await clock.refreshIfStale(from: store)
                await secrets.refreshIfStale(from: store, clock: clock)
                if free > 0 {
                    let now = clock.now
                    let due = (try? await store.dueNotifications(now: now, limit: free, leaseUntil: now + lease)) ?? []
                    for entry in due {
                        inFlight.add()
                        group.addTask {
                            await deliver(entry)
                            inFlight.remove()
                        }
                    }
                }
                try? await Task.sleep(for: configuration.workerInterval)
            }
        }
    }

    /// How many deliveries are in flight in this instance.
    final class InFlight: @unchecked Sendable {
        private let lock = NSLock()
        private var value = 0
        var count: Int { lock.withLock { value } }
        func add() { lock.withLock { value += 1 } }
        func remove() { lock.withLock { value -= 1 } }
    }

    /// The IPN body Citcon sends: the stored fields as one flat JSON object, with
    /// `fields` and `sign` (see ``CPayIPN``).
    static func signedBody(_ payload: Data, secret: String) -> Data {
        let pairs = ((try? JSONDecoder().decode([[String]].self, from: payload)) ?? []).compactMap { pair in
            pair.count == 2 ? (pair[0], pair[1]) : nil
        }
        let signed = CPayIPN.signed(pairs, secret: secret)
        return (try? UPIWire.encoder().encode(signed)) ?? Data("{}".utf8)
    }

    /// `url` without its user part, query and fragment (`http://host:port/path`), for logs.
    static func redacted(_ url: String) -> String {
        guard var components = URLComponents(string: url) else { return "(not a URL)" }
        let hidden = components.query != nil || components.user != nil || components.password != nil
        components.user = nil
        components.password = nil
        components.query = nil
        components.fragment = nil
        return (components.string ?? "(not a URL)") + (hidden ? "?…" : "")
    }

    /// One attempt at one IPN (two in a row for a charge whose IPNs a test asked to be
    /// duplicated, see ``IPNFault``).
    func deliver(_ entry: OutboxEntry) async {
        let fault = (try? await store.charge(id: entry.transactionID))?.ipnFault.flatMap(IPNFault.init(header:))
        if fault == .reorder, entry.attempts == 0, IPNFault.isHeldBack(status: entry.status.rawValue) {
            // Handed on at once, so that the charge's next IPN is claimed, and posted after it.
            let now = clock.now
            try? await store.recordAttempt(IPNAttempt(notificationID: entry.id, number: 1, time: now,
                                                      answer: "held back so that the next IPN arrives first (\(IPNFault.header): reorder)",
                                                      delivered: false), state: .delivered, nextAttemptAt: now)
            Task {
                try? await Task.sleep(for: IPNFault.reorderHold)
                await attempt(entry, attempts: 2, cutOff: false)
            }
            return
        }
        await attempt(entry, attempts: entry.attempts + 1, cutOff: fault == .reset && entry.attempts == 0)
        if fault == .duplicate {
            await attempt(entry, attempts: entry.attempts + 2, cutOff: false)
        }
    }

    private func attempt(_ entry: OutboxEntry, attempts: Int, cutOff: Bool) async {
        let outcome = await poster.post(Self.signedBody(entry.payload, secret: secrets.ipnSecret), to: entry.url, headers: [
            ("Content-Type", "application/json"),
            ("X-Citcon-Transaction", entry.transactionID),
            ("X-Citcon-Attempt", String(attempts)),
        ], cutOff: cutOff)
        var failure: String?
        var permanent = false
        let answer: String
        switch outcome {
        case .success(let status): answer = "HTTP \(status)"
        case .failure(let reason): (answer, failure, permanent) = (reason.reason, reason.reason, reason.isPermanent)
        }
        let now = clock.now
        let state: OutboxState
        var next = now
        if failure == nil {
            state = .delivered
        } else if attempts > configuration.ipnRetrySchedule.count || permanent {
            state = .dead
        } else {
            state = .pending
            next = now + configuration.ipnRetrySchedule[attempts - 1].milliseconds
        }
        try? await store.recordAttempt(IPNAttempt(notificationID: entry.id, number: attempts, time: now, answer: answer,
                                                  delivered: failure == nil), state: state, nextAttemptAt: next)
        // The body (signed) and the secret are not logged, nor the URL's query or user
        // part, where merchants often put a token of their own.
        configuration.logger.log(level: state == .dead ? .warning : .info, "ipn attempt", metadata: [
            "transaction": .string(entry.transactionID), "status": .string(entry.status.rawValue), "url": .string(Self.redacted(entry.url)),
            "attempt": .stringConvertible(attempts), "result": .string(failure ?? "delivered"), "state": .string(state.rawValue),
            "next_attempt_ms": .stringConvertible(state == .pending ? next : 0),
        ])
    }
}

/// Expires unpaid charges whose time is up, on the same interval as the IPN worker: a
/// charge's own expiry, which queues its `expired` IPN like any other change.
struct ChargeExpiry: Service {
    let api: SandboxAPI
    let interval: Duration

    func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            _ = try? await api.expireOverdue()
            try? await Task.sleep(for: interval)
        }
    }
}
