import Foundation

/// What the ledger remembers of a charge it handed off: enough to recognise the one
/// callback that answers it, and to check that the answer fits what was asked.
///
/// Pending charges are made by ``ChargeLedger/issue(_:)`` from a ``HandoffRequest``;
/// an app reads them but cannot make one that the ledger would accept as its own.
public struct PendingCharge: Hashable, Sendable, Codable {
    /// The one-time correlation token carried on the callback URL.
    public internal(set) var nonce: Nonce
    /// The request it was issued for: what a callback is checked against. Its `url` is
    /// kept when it is at most ``HandoffRequest/maximumKeptURLLength`` bytes long (a
    /// Zettle request with an image is longer) and is empty otherwise.
    public internal(set) var request: HandoffRequest
    /// When the charge was handed off.
    public internal(set) var createdAt: Date
    /// After this moment a callback for it is refused as expired.
    public internal(set) var expiresAt: Date
    /// When a valid callback consumed the nonce; `nil` while outstanding.
    public internal(set) var consumedAt: Date?
    /// The callback that consumed the nonce, as the ledger accepted it (kept so that a
    /// call waiting for this charge in another ledger instance or process completes
    /// with the same result); `nil` while outstanding, or when its URL was longer than
    /// ``AcceptedCallback`` keeps.
    public internal(set) var accepted: AcceptedCallback?
    /// How the hand-off was settled by hand, when it was (its nonce is then consumed
    /// at ``Resolution/resolvedAt``, and no callback is counted for it).
    public internal(set) var resolution: Resolution?
    /// Why the entry's state is unknown, when it is: its ledger's file was found damaged
    /// after the entry's last intact record, and the lost bytes may have held the
    /// callback that settled it. A callback for it is refused
    /// (``ChargeKitError/corruptStorage(_:)``, never accepted); check the payment app's
    /// history and settle it with ``ChargeLedger/resolve(_:as:note:)``. `nil` otherwise.
    public internal(set) var damage: String?
    /// The callback URL that consumed the nonce, when it is kept.
    public var acceptedCallback: String? { accepted?.url }

    /// The payment app the charge went to.
    public var provider: PaymentProvider { request.provider }
    /// What was asked: a sale, a refund, a query or opening the app.
    public var operation: HandoffOperation { request.operation }

    /// Records `request` as issued at `date`, waiting `timeToLive`.
    init(nonce: Nonce, request: HandoffRequest, createdAt date: Date, timeToLive: TimeInterval, consumedAt: Date? = nil) {
        self.nonce = nonce
        self.request = request
        self.createdAt = date
        self.expiresAt = Self.adding(timeToLive, to: date)
        self.consumedAt = consumedAt
    }

    /// `date + interval`, clamped to the far future (no overflow, no NaN).
    static func adding(_ interval: TimeInterval, to date: Date) -> Date {
        guard interval.isFinite, interval > 0 else { return date }
        return date.addingTimeInterval(min(interval, Date.distantFuture.timeIntervalSince(date)))
    }

    /// Whether it is still waiting for its callback at `date`.
    public func isOutstanding(at date: Date) -> Bool { consumedAt == nil && date < expiresAt }

    /// Whether it is done with (consumed or expired) at `date`, so that it may be pruned
    /// when space is needed.
    func isSettled(at date: Date) -> Bool { !isOutstanding(at: date) }

    /// The moment after which it is of no more use than reporting a late replay.
    var settledAt: Date { consumedAt ?? expiresAt }

    /// This entry consumed at `date`, keeping `accepted` when its URL is at most
    /// 4096 bytes long: what every store records when a
    /// nonce is used (the checks come before, in the store). A ``LedgerStore`` of your
    /// own calls it in its `consume`.
    public func consumed(at date: Date, accepting accepted: AcceptedCallback?) -> PendingCharge {
        var charge = self
        charge.consumedAt = date
        if let accepted, accepted.isKept { charge.accepted = accepted }
        return charge
    }

    /// Throws when the entry was already answered: by a callback
    /// (``ChargeKitError/replayedNonce``) or by hand
    /// (``ChargeKitError/settledByHand(outcome:note:)``).
    @_spi(Tools) public func refuseSettling() throws(ChargeKitError) {
        guard consumedAt != nil else { return }
        if let resolution { throw .settledByHand(outcome: resolution.outcome, note: resolution.note) }
        throw .replayedNonce
    }

    /// This entry with its kept callback's card numbers masked to the app's form, or
    /// `nil` when none needed it: for entries a ledger kept before callbacks were masked.
    /// A kept callback that no longer reads once masked is dropped (the entry stays
    /// consumed).
    func maskingCardNumbers() -> PendingCharge? {
        guard let accepted, let masked = provider.definition.maskingCardNumbers(in: accepted.url) else { return nil }
        var charge = self
        if let callback = try? provider.definition.parse(masked, maximumLength: .max) {
            charge.accepted = AcceptedCallback(url: masked, callback: callback, flags: accepted.flags)
        } else {
            charge.accepted = nil
        }
        return charge
    }

    /// Throws when the entry's state was lost to damage (``damage``): its callback may
    /// have been accepted already.
    func refuseDamaged() throws(ChargeKitError) {
        if let damage { throw .corruptStorage("nonce: \(damage)") }
    }

    /// This entry settled by hand as `resolution` says: consumed at its
    /// ``Resolution/resolvedAt``. A ``LedgerStore`` of your own calls it in its `resolve`.
    public func resolved(as resolution: Resolution) -> PendingCharge {
        var charge = self
        charge.consumedAt = resolution.resolvedAt
        charge.resolution = resolution
        return charge
    }

    private enum CodingKeys: String, CodingKey {
        case nonce, request, createdAt, expiresAt, consumedAt, accepted, resolution, damage
    }

    /// Reads an entry; one written before the request was kept whole (its fields
    /// beside the nonce) reads the same.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        nonce = try container.decode(Nonce.self, forKey: .nonce)
        request = container.contains(.request)
            ? try container.decode(HandoffRequest.self, forKey: .request) : try HandoffRequest(from: decoder)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        expiresAt = try container.decode(Date.self, forKey: .expiresAt)
        consumedAt = try container.decodeIfPresent(Date.self, forKey: .consumedAt)
        // An entry written before the result was kept held only the URL: it reads as
        // not kept (a waiting call is told the charge was answered elsewhere).
        accepted = try container.decodeIfPresent(AcceptedCallback.self, forKey: .accepted)
        resolution = try container.decodeIfPresent(Resolution.self, forKey: .resolution)
        damage = try container.decodeIfPresent(String.self, forKey: .damage)
    }
}
