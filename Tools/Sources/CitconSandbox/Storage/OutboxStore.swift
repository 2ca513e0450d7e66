import Foundation

/// The IPN outbox: what the worker claims and records of each attempt, and what the
/// dashboard and `GET /v1/ipns` list.
public protocol OutboxStore: Sendable {
    /// Claims the pending IPNs due now for `leaseUntil`: for each transaction only its
    /// oldest pending one (so a transaction's IPNs go out in the order of its status
    /// changes), and none another claimer holds (an instance's claim lasts until its
    /// lease ends or it records the attempt; when the holder dies, another instance
    /// takes the IPN over once the lease has passed).
    /// No receiver origin gets more than ``OutboxEntry/maximumInFlightPerOrigin`` IPNs
    /// in flight (its claimed ones counted, whichever instance holds them), and the
    /// origins take turns: a claim gives each origin with a free slot its oldest due IPN
    /// before any origin its second, however long one origin's backlog is.
    func dueNotifications(now: Int64, limit: Int, leaseUntil: Int64) async throws -> [OutboxEntry]
    /// Records an attempt in one transaction: the IPN's state (`delivered`, `pending`
    /// for a retry at `nextAttemptAt`, or `dead`), its attempt count (`attempt.number`)
    /// and last error (the answer of a failed attempt, `nil` once delivered), the
    /// attempt itself in the IPN's attempt log; and ends the claim.
    func recordAttempt(_ attempt: IPNAttempt, state: OutboxState, nextAttemptAt: Int64) async throws
    /// Every IPN of the given transactions, oldest first, with their attempts (the
    /// sandbox's own deliveries and the listeners' forwards) in the order they were made:
    /// what the dashboard shows of its charges, read in two queries however many.
    func notificationLog(transactionIDs: [String]) async throws -> (notifications: [OutboxEntry], attempts: [IPNAttempt])
    /// Sends an IPN again: makes it pending and due at `now`, whatever its state (a
    /// delivered or dead-lettered one too); its attempts keep counting. One kept for the
    /// listeners only (its charge named no URL) is written again as a new IPN, with the
    /// same body, so that every running listener gets it. Returns whether the IPN exists.
    @discardableResult
    func resendNotification(id: Int64, now: Int64) async throws -> Bool
    /// Every IPN, optionally of one transaction (for tests and inspection).
    func notifications(transactionID: String?) async throws -> [OutboxEntry]
    /// The newest `limit` IPNs, optionally of one transaction, oldest first, with their
    /// attempts in the order they were made: what `GET /v1/ipns` shows, read in two
    /// queries however many IPNs and transactions the outbox holds.
    func latestNotifications(transactionID: String?, limit: Int) async throws -> (notifications: [OutboxEntry], attempts: [IPNAttempt])
}
