import CitconSandbox
import Foundation
import Synchronization

/// A store that counts how often each read of the outbox is made, forwarding
/// everything to an in-memory store: for tests of how much a route reads.
final class CountingStore: SandboxStore {
    private let base = InMemorySandboxStore()
    private let calls = Mutex<[String: Int]>([:])

    /// How often `name` (a method's name) was called.
    func count(_ name: String) -> Int { calls.withLock { $0[name, default: 0] } }

    private func counted(_ name: String) { calls.withLock { $0[name, default: 0] += 1 } }

    func migrate() async throws -> Int { try await base.migrate() }
    func setting(_ key: String) async throws -> String? { try await base.setting(key) }
    func setSetting(_ key: String, to value: String) async throws { try await base.setSetting(key, to: value) }
    func add(_ delta: Int64, toSetting key: String) async throws -> Int64 { try await base.add(delta, toSetting: key) }
    func rotateMerchantKey(to key: String) async throws -> Bool { try await base.rotateMerchantKey(to: key) }
    func insertToken(_ token: AccessTokenRecord) async throws { try await base.insertToken(token) }
    func token(_ value: String) async throws -> AccessTokenRecord? { try await base.token(value) }
    func insertCharge(_ charge: ChargeRecord) async throws { try await base.insertCharge(charge) }
    func charge(id: String) async throws -> ChargeRecord? { try await base.charge(id: id) }
    func charge(chargeToken: String) async throws -> ChargeRecord? { try await base.charge(chargeToken: chargeToken) }
    func recentCharges(limit: Int) async throws -> [ChargeRecord] { try await base.recentCharges(limit: limit) }
    func updateCharge<T: Sendable>(id: String, reference: String?, now: Int64,
                                   _ body: @escaping @Sendable (inout ChargeRecord) throws -> T) async throws -> (ChargeRecord, T) {
        try await base.updateCharge(id: id, reference: reference, now: now, body)
    }
    func overdueCharges(now: Int64, limit: Int) async throws -> [String] { try await base.overdueCharges(now: now, limit: limit) }
    func dueNotifications(now: Int64, limit: Int, leaseUntil: Int64) async throws -> [OutboxEntry] {
        try await base.dueNotifications(now: now, limit: limit, leaseUntil: leaseUntil)
    }
    func recordAttempt(_ attempt: IPNAttempt, state: OutboxState, nextAttemptAt: Int64) async throws {
        try await base.recordAttempt(attempt, state: state, nextAttemptAt: nextAttemptAt)
    }
    func notificationLog(transactionIDs: [String]) async throws -> (notifications: [OutboxEntry], attempts: [IPNAttempt]) {
        counted("notificationLog")
        return try await base.notificationLog(transactionIDs: transactionIDs)
    }
    func resendNotification(id: Int64, now: Int64) async throws -> Bool { try await base.resendNotification(id: id, now: now) }
    func notifications(transactionID: String?) async throws -> [OutboxEntry] {
        counted(transactionID == nil ? "notifications(all)" : "notifications(transaction)")
        return try await base.notifications(transactionID: transactionID)
    }
    func latestNotifications(transactionID: String?, limit: Int) async throws -> (notifications: [OutboxEntry], attempts: [IPNAttempt]) {
        counted("latestNotifications")
        return try await base.latestNotifications(transactionID: transactionID, limit: limit)
    }
    func notifications(after id: Int64, limit: Int) async throws -> [OutboxEntry] { try await base.notifications(after: id, limit: limit) }
    func recordForward(notificationID: Int64, time: Int64, answer: String, delivered: Bool) async throws -> Bool {
        try await base.recordForward(notificationID: notificationID, time: time, answer: answer, delivered: delivered)
    }
    func latestNotificationID() async throws -> Int64 { try await base.latestNotificationID() }
    func chargeCount() async throws -> Int { try await base.chargeCount() }
    func recordAuthenticationFailure(at time: Int64, forgettingBefore cutoff: Int64) async throws {
        try await base.recordAuthenticationFailure(at: time, forgettingBefore: cutoff)
    }
    func authenticationFailures(since: Int64) async throws -> (count: Int, oldest: Int64?) { try await base.authenticationFailures(since: since) }
    func close() { base.close() }
}
