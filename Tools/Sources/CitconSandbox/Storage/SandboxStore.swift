@_spi(Tools) import CitconUPI
import Foundation

/// The sandbox's storage. SQLite (``SQLiteSandboxStore``) is the default; another
/// engine implements this protocol. Every method is atomic; ``updateCharge(id:reference:now:_:)``
/// writes the status change and its IPN in one transaction.
public protocol SandboxStore: Sendable {
    /// Creates or migrates the schema; returns the schema version.
    @discardableResult
    func migrate() async throws -> Int
    /// A setting such as the merchant key.
    func setting(_ key: String) async throws -> String?
    /// Stores a setting.
    func setSetting(_ key: String, to value: String) async throws
    /// Makes `key` the merchant key; when another key was stored, every access token
    /// issued under it is revoked in the same transaction. Returns whether it changed.
    @discardableResult
    func rotateMerchantKey(to key: String) async throws -> Bool
    /// Stores a token.
    func insertToken(_ token: AccessTokenRecord) async throws
    /// Finds a token.
    func token(_ value: String) async throws -> AccessTokenRecord?
    /// Stores a new charge and claims its reference.
    /// - Throws: ``APIError`` `4100` when the reference was used before;
    ///   ``ChargeIdentifiersTaken`` when another charge has its id or charge token.
    ///   Either way nothing is written (the reference stays free on the second).
    func insertCharge(_ charge: ChargeRecord) async throws
    /// Finds a charge by id.
    func charge(id: String) async throws -> ChargeRecord?
    /// Finds a charge by charge token.
    func charge(chargeToken: String) async throws -> ChargeRecord?
    /// The charges most recently stored, newest first, at most `limit` (the dashboard).
    func recentCharges(limit: Int) async throws -> [ChargeRecord]
    /// Changes a charge in one transaction: claims `reference` (for a capture, refund or
    /// cancel), runs `body`, saves, and when the status changed and `urls.ipn` is set,
    /// adds the IPN to the outbox. `body` throwing rolls everything back. Stores run
    /// `body` through ``ChargeRecord/apply(now:_:)``, which keeps the status history.
    func updateCharge<T: Sendable>(id: String, reference: String?, now: Int64,
                                   _ body: @escaping @Sendable (inout ChargeRecord) throws -> T) async throws -> (ChargeRecord, T)
    /// Ids of unpaid charges whose time is up.
    func overdueCharges(now: Int64, limit: Int) async throws -> [String]
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
    /// The IPNs whose id is above `id`, oldest first, at most `limit`: what a listener
    /// (`/v1/ipn-events`) has not had yet.
    func notifications(after id: Int64, limit: Int) async throws -> [OutboxEntry]
    /// Records that a listener forwarded IPN `notificationID` and how its URL answered,
    /// as an attempt numbered -1, -2…, leaving the IPN's own delivery as it is. Returns
    /// whether the IPN exists.
    func recordForward(notificationID: Int64, time: Int64, answer: String, delivered: Bool) async throws -> Bool
    /// The id of the latest IPN (0 when there is none): where a new listener starts.
    func latestNotificationID() async throws -> Int64
    /// The number of charges.
    func chargeCount() async throws -> Int
    /// Counts a failed authentication with the merchant key at `time` (milliseconds), for
    /// the merchant across every instance on this store, and forgets the failures before
    /// `cutoff` (only those).
    func recordAuthenticationFailure(at time: Int64, forgettingBefore cutoff: Int64) async throws
    /// The failed authentications at or after `since`: how many, and when the oldest was.
    func authenticationFailures(since: Int64) async throws -> (count: Int, oldest: Int64?)
    /// Finishes the queued work and closes the storage.
    func close()
}

/// A store's refusal of a new charge whose transaction id or charge token another
/// charge already has. Nothing of the charge was written and its reference stays
/// free; ``SandboxAPI`` draws new identifiers and stores the charge again. (Ids follow
/// the clock, so two sandbox processes on one database can draw the same one.)
public struct ChargeIdentifiersTaken: Error, Sendable, Equatable, CustomStringConvertible {
    /// The refused charge's transaction id.
    public var id: String

    /// Makes the refusal of the charge `id`.
    public init(id: String) { self.id = id }

    public var description: String { "transaction id '\(id)' or its charge token belongs to another charge" }
}
