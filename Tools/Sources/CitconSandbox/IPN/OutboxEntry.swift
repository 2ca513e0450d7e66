@_spi(Tools) import CitconUPI
import Foundation

/// Where an IPN is in its delivery.
public enum OutboxState: String, Sendable, Equatable, CaseIterable {
    /// Waiting for its next attempt (or in one).
    case pending
    /// A 2xx answer came.
    case delivered
    /// The retry schedule was used up; the last error is kept.
    case dead
    /// Not posted anywhere (the charge named no IPN URL): kept for the listeners
    /// (`chargekit upi listen`), which get every IPN of their merchant.
    case listeners

    /// The state a new IPN to `url` starts in.
    public static func initial(url: String) -> OutboxState { url.isEmpty ? .listeners : .pending }
}

/// An IPN in the outbox.
public struct OutboxEntry: Sendable, Equatable {
    /// The most IPNs to one receiver origin (scheme, host and port) in flight at once
    /// (claimed, lease not ended): a claim passes over an origin's further IPNs, so that
    /// a receiver that hangs holds at most this many delivery slots, whatever its
    /// backlog and however many paths or queries its URLs use, and another origin's IPN
    /// is never queued behind it. Every store's `dueNotifications` keeps it.
    public static let maximumInFlightPerOrigin = 4

    /// The receiver origin of an IPN URL, as the outbox groups deliveries:
    /// `scheme://host:port`, scheme and host lowercased, the port explicit (80 for
    /// http, 443 for https). The path, query, fragment and user part are not part of
    /// it. A URL without a host (the outbox keeps no other) is its own origin.
    public static func origin(of url: String) -> String {
        guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
              let host = components.host?.lowercased(), !host.isEmpty
        else { return url }
        let port = components.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(host):\(port)"
    }

    /// Row id.
    public var id: Int64
    /// The transaction.
    public var transactionID: String
    /// The status the notification reports.
    public var status: NotificationStatus
    /// Where it goes.
    public var url: String
    /// The JSON body.
    public var payload: Data
    /// Attempts made so far.
    public var attempts: Int
    /// When the next attempt is due (ms since 1970).
    public var nextAttemptAt: Int64
    /// Where it is in its delivery.
    public var state: OutboxState
    /// The last failure.
    public var lastError: String?

    /// Makes an entry (for stores).
    public init(id: Int64, transactionID: String, status: NotificationStatus, url: String, payload: Data, attempts: Int,
                nextAttemptAt: Int64, state: OutboxState, lastError: String?) {
        self.id = id
        self.transactionID = transactionID
        self.status = status
        self.url = url
        self.payload = payload
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.state = state
        self.lastError = lastError
    }
}
