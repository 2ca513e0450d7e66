import Foundation

/// What the listeners' streams (`/v1/ipn-events`, `chargekit upi listen`) read, and the
/// forwards they report.
public protocol ListenerStore: Sendable {
    /// The IPNs whose id is above `id`, oldest first, at most `limit`: what a listener
    /// (`/v1/ipn-events`) has not had yet.
    func notifications(after id: Int64, limit: Int) async throws -> [OutboxEntry]
    /// Records that a listener forwarded IPN `notificationID` and how its URL answered,
    /// as an attempt numbered -1, -2…, leaving the IPN's own delivery as it is. Returns
    /// whether the IPN exists.
    func recordForward(notificationID: Int64, time: Int64, answer: String, delivered: Bool) async throws -> Bool
    /// The id of the latest IPN (0 when there is none): where a new listener starts.
    func latestNotificationID() async throws -> Int64
}
