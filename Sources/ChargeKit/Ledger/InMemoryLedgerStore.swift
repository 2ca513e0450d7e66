import Foundation

/// A store in memory: for tests, and for apps that accept losing pending charges on
/// restart. Safe to share between ledger instances in one process.
public actor InMemoryLedgerStore: LedgerStore {
    private var entries = LedgerEntries()
    /// The most entries it holds; a new charge beyond it is refused once settled
    /// entries are gone.
    public let maximumEntries: Int

    /// Makes an empty store.
    public init(maximumEntries: Int = 100_000) { self.maximumEntries = maximumEntries }

    public func insert(_ charge: PendingCharge, now: Date, retention: TimeInterval) throws(ChargeKitError) {
        var copy = entries
        try copy.insert(charge, now: now, retention: retention, maximumEntries: maximumEntries)
        entries = copy
    }

    public func charge(for nonce: Nonce) -> PendingCharge? { entries.byNonce[nonce.value] }

    public func consume(_ nonce: Nonce, at date: Date, accepting accepted: AcceptedCallback?) throws(ChargeKitError) -> PendingCharge {
        try entries.consume(nonce, at: date, accepting: accepted)
    }

    public func charges() -> [PendingCharge] { entries.sorted }

    public func resolve(_ nonce: Nonce, as resolution: Resolution) throws(ChargeKitError) -> PendingCharge {
        try entries.resolve(nonce, as: resolution)
    }
}
