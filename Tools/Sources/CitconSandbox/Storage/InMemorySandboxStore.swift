@_spi(Tools) import CitconUPI
import Foundation

/// A ``SandboxStore`` in memory, for fast tests of the sandbox's rules without a file
/// or HTTP. Every method runs under one lock, so each is atomic like a transaction;
/// nothing survives the process.
public final class InMemorySandboxStore: SandboxStore, @unchecked Sendable {
    private let lock = NSLock()
    private var settings: [String: String] = [:]
    private var tokens: [String: AccessTokenRecord] = [:]
    private var charges: [String: ChargeRecord] = [:]
    private var chargeIDsByToken: [String: String] = [:]
    private var references: [String: String] = [:]
    private var outbox: [OutboxEntry] = []
    private var nextOutboxID: Int64 = 1
    private var leases: [Int64: Int64] = [:]
    private var attempts: [IPNAttempt] = []
    private var insertionOrder: [String] = []
    private var authenticationFailures: [Int64] = []

    /// Makes an empty store.
    public init() {}

    public func migrate() async throws -> Int { SQLiteSandboxStore.migrations.count }

    public func setting(_ key: String) async throws -> String? { lock.withLock { settings[key] } }

    public func setSetting(_ key: String, to value: String) async throws { lock.withLock { settings[key] = value } }

    public func add(_ delta: Int64, toSetting key: String) async throws -> Int64 {
        try lock.withLock {
            let sum = try SettingSum.adding(delta, to: settings[key], key: key)
            settings[key] = String(sum)
            return sum
        }
    }

    public func rotateMerchantKey(to key: String) async throws -> Bool {
        lock.withLock {
            let stored = settings["merchant_key"]
            guard stored != key else { return false }
            settings["merchant_key"] = key
            if stored != nil { tokens.removeAll() }
            return true
        }
    }

    public func recordAuthenticationFailure(at time: Int64, forgettingBefore cutoff: Int64) async throws {
        lock.withLock {
            authenticationFailures.removeAll { $0 < cutoff }
            authenticationFailures.append(time)
        }
    }

    public func authenticationFailures(since: Int64) async throws -> (count: Int, oldest: Int64?) {
        lock.withLock {
            let recent = authenticationFailures.filter { $0 >= since }
            return (recent.count, recent.min())
        }
    }

    public func insertToken(_ token: AccessTokenRecord) async throws { lock.withLock { tokens[token.token] = token } }

    public func token(_ value: String) async throws -> AccessTokenRecord? { lock.withLock { tokens[value] } }

    public func insertCharge(_ charge: ChargeRecord) async throws {
        try lock.withLock {
            // A taken reference is told first, as the SQL stores tell it.
            try requireFree(charge.reference)
            guard charges[charge.id] == nil, chargeIDsByToken[charge.chargeToken] == nil else {
                throw ChargeIdentifiersTaken(id: charge.id)
            }
            references[charge.reference] = charge.id
            charges[charge.id] = charge
            chargeIDsByToken[charge.chargeToken] = charge.id
            insertionOrder.append(charge.id)
        }
    }

    /// Refuses a reference some charge or operation has claimed.
    private func requireFree(_ reference: String) throws {
        guard references[reference] == nil else { throw APIError.duplicateReference(reference) }
    }

    public func charge(id: String) async throws -> ChargeRecord? { lock.withLock { charges[id] } }

    public func charge(chargeToken: String) async throws -> ChargeRecord? {
        lock.withLock { chargeIDsByToken[chargeToken].flatMap { charges[$0] } }
    }

    public func updateCharge<T: Sendable>(id: String, reference: String?, now: Int64,
                                          _ body: @escaping @Sendable (inout ChargeRecord) throws -> T) async throws -> (ChargeRecord, T) {
        try lock.withLock {
            guard var charge = charges[id] else { throw APIError(.notFound, "transaction_id: no transaction '\(id)'") }
            if let reference {
                guard reference != charge.reference else {
                    throw APIError(.duplicateReference, "reference: must differ from the charge's own reference")
                }
                try requireFree(reference)
            }
            let (value, notification) = try charge.apply(now: now, body)  // throwing here changes nothing: the claim comes after
            if let reference { references[reference] = id }
            charges[id] = charge
            if let notification {
                outbox.append(OutboxEntry(id: nextOutboxID, transactionID: id, status: notification.status, url: charge.urls.ipn,
                                          payload: notification.payload, attempts: 0, nextAttemptAt: now + notification.hold,
                                          state: .initial(url: charge.urls.ipn),
                                          lastError: nil))
                nextOutboxID += 1
            }
            return (charge, value)
        }
    }

    public func overdueCharges(now: Int64, limit: Int) async throws -> [String] {
        lock.withLock {
            Array(charges.values.filter { ($0.status == .initiated || $0.status == .pending) && $0.expiresAt <= now }
                .map(\.id).sorted().prefix(max(0, limit)))
        }
    }

    public func dueNotifications(now: Int64, limit: Int, leaseUntil: Int64) async throws -> [OutboxEntry] {
        lock.withLock {
            var seen: Set<String> = []
            var due: [OutboxEntry] = []
            for entry in outbox where entry.state == .pending && !seen.contains(entry.transactionID) {
                seen.insert(entry.transactionID)
                if entry.nextAttemptAt <= now && leases[entry.id, default: 0] <= now { due.append(entry) }
            }
            var inFlight: [String: Int] = [:]
            for entry in outbox where entry.state == .pending && leases[entry.id, default: 0] > now {
                inFlight[OutboxEntry.origin(of: entry.url), default: 0] += 1
            }
            // Each origin's due IPNs, oldest first, as many as it has free slots; then
            // taken in turns: every origin's first before any origin's second.
            var place: [String: Int] = [:]
            let ranked = due.compactMap { entry -> (place: Int, entry: OutboxEntry)? in
                let origin = OutboxEntry.origin(of: entry.url)
                place[origin, default: inFlight[origin, default: 0]] += 1
                let rank = place[origin, default: 0]
                return rank <= OutboxEntry.maximumInFlightPerOrigin ? (rank, entry) : nil
            }
            let claimed = ranked.sorted { ($0.place, $0.entry.id) < ($1.place, $1.entry.id) }.prefix(max(0, limit))
                .map(\.entry).sorted { $0.id < $1.id }
            for entry in claimed { leases[entry.id] = leaseUntil }
            return claimed
        }
    }

    public func recordAttempt(_ attempt: IPNAttempt, state: OutboxState, nextAttemptAt: Int64) async throws {
        lock.withLock {
            guard let index = outbox.firstIndex(where: { $0.id == attempt.notificationID }) else { return }
            outbox[index].state = state
            outbox[index].attempts = attempt.number
            outbox[index].nextAttemptAt = nextAttemptAt
            outbox[index].lastError = attempt.lastError
            leases[attempt.notificationID] = nil
            attempts.removeAll { $0.notificationID == attempt.notificationID && $0.number == attempt.number }
            attempts.append(attempt)
        }
    }

    public func notificationLog(transactionIDs: [String]) async throws -> (notifications: [OutboxEntry], attempts: [IPNAttempt]) {
        lock.withLock {
            let wanted = Set(transactionIDs)
            let shown = outbox.filter { wanted.contains($0.transactionID) }
            return (shown, attempts(of: shown))
        }
    }

    /// The attempts at `entries`, in the order they were made (the caller holds the lock).
    private func attempts(of entries: [OutboxEntry]) -> [IPNAttempt] {
        let ids = Set(entries.map(\.id))
        return attempts.filter { ids.contains($0.notificationID) }
    }

    public func resendNotification(id: Int64, now: Int64) async throws -> Bool {
        lock.withLock {
            guard let index = outbox.firstIndex(where: { $0.id == id }) else { return false }
            guard !outbox[index].url.isEmpty else {
                var copy = outbox[index]
                copy.id = nextOutboxID
                copy.attempts = 0
                copy.nextAttemptAt = now
                copy.lastError = nil
                outbox.append(copy)
                nextOutboxID += 1
                return true
            }
            outbox[index].state = .pending
            outbox[index].nextAttemptAt = now
            return true
        }
    }

    public func recentCharges(limit: Int) async throws -> [ChargeRecord] {
        lock.withLock { insertionOrder.suffix(max(0, limit)).reversed().compactMap { charges[$0] } }
    }

    public func notifications(transactionID: String?) async throws -> [OutboxEntry] {
        lock.withLock { transactionID.map { id in outbox.filter { $0.transactionID == id } } ?? outbox }
    }

    public func latestNotifications(transactionID: String?, limit: Int) async throws -> (notifications: [OutboxEntry], attempts: [IPNAttempt]) {
        lock.withLock {
            let shown = Array(outbox.filter { transactionID == nil || $0.transactionID == transactionID }.suffix(max(0, limit)))
            return (shown, attempts(of: shown))
        }
    }

    public func notifications(after id: Int64, limit: Int) async throws -> [OutboxEntry] {
        lock.withLock { Array(outbox.filter { $0.id > id }.prefix(limit)) }
    }

    public func recordForward(notificationID: Int64, time: Int64, answer: String, delivered: Bool) async throws -> Bool {
        lock.withLock {
            guard outbox.contains(where: { $0.id == notificationID }) else { return false }
            let number = (attempts.filter { $0.notificationID == notificationID && $0.number < 0 }.map(\.number).min() ?? 0) - 1
            attempts.append(IPNAttempt(notificationID: notificationID, number: number, time: time, answer: answer, delivered: delivered))
            return true
        }
    }

    public func latestNotificationID() async throws -> Int64 { lock.withLock { outbox.last?.id ?? 0 } }

    public func chargeCount() async throws -> Int { lock.withLock { charges.count } }

    public func close() {}
}
