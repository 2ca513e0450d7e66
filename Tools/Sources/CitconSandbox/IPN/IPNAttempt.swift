import Foundation

/// One delivery attempt of an IPN, as the outbox keeps it: what the merchant's server
/// answered (or why no answer came), for the dashboard and for tests.
public struct IPNAttempt: Sendable, Equatable {
    /// The IPN (``OutboxEntry/id``).
    public var notificationID: Int64
    /// Which attempt, from 1; negative for a listener's forward (`chargekit upi
    /// listen` posted it to its own URL): -1 for the first.
    public var number: Int
    /// When it was made, milliseconds since 1970.
    public var time: Int64
    /// The answer: `HTTP 200`, `HTTP 500`, `timed out`, `connect: …`.
    public var answer: String
    /// Whether it delivered the IPN (a 2xx answer).
    public var delivered: Bool

    /// What the attempt leaves as the IPN's ``OutboxEntry/lastError``: the answer of a
    /// failed attempt, `nil` once delivered.
    public var lastError: String? { delivered ? nil : answer }

    /// Makes an attempt record.
    public init(notificationID: Int64, number: Int, time: Int64, answer: String, delivered: Bool) {
        self.notificationID = notificationID
        self.number = number
        self.time = time
        self.answer = answer
        self.delivered = delivered
    }
}
