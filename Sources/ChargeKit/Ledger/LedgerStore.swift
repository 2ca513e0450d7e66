import Foundation

/// Where a ``ChargeLedger`` keeps its pending charges.
///
/// Every method is one atomic step against every other user of the same storage:
/// other ledger instances, other threads and other processes. A store that keeps
/// its data in a database implements ``insert(_:now:retention:)`` and
/// ``consume(_:at:accepting:)`` as single statements (for example an `UPDATE … WHERE
/// consumed_at IS NULL AND expires_at > $now RETURNING …`), never as a read in Swift
/// followed by a write, so that a nonce is consumed exactly once however many
/// instances race for it.
///
/// The behaviour every store must show is written once, as a test suite that any
/// store can run; this repository runs it over every store it ships.
public protocol LedgerStore: Sendable {
    /// Adds a newly issued charge.
    ///
    /// First drops entries settled (consumed or expired) more than `retention` before
    /// `now`. When the store would then pass its bounds, drops settled entries; when it
    /// still would, refuses the charge with ``ChargeKitError/storageFull(_:)`` and
    /// changes nothing, so that every outstanding charge keeps verifying.
    /// - Throws: ``ChargeKitError/storageFull(_:)``, ``ChargeKitError/storage(_:)``, or
    ///   ``ChargeKitError/duplicateField(_:)`` (`nonce`) when the nonce is already stored.
    func insert(_ charge: PendingCharge, now: Date, retention: TimeInterval) async throws(ChargeKitError)

    /// The entry for `nonce`, in whatever state, or `nil`.
    func charge(for nonce: Nonce) async throws(ChargeKitError) -> PendingCharge?

    /// Marks the charge consumed at `date` if it is outstanding then, keeping the
    /// accepted callback (``PendingCharge/consumed(at:accepting:)``); returns the
    /// updated entry.
    /// - Throws: ``ChargeKitError/unknownNonce``, ``ChargeKitError/replayedNonce`` or
    ///   ``ChargeKitError/expiredNonce``, changing nothing.
    func consume(_ nonce: Nonce, at date: Date, accepting accepted: AcceptedCallback?) async throws(ChargeKitError) -> PendingCharge

    /// Every stored entry, outstanding or settled.
    func charges() async throws(ChargeKitError) -> [PendingCharge]

    /// Marks the charge settled by hand (``PendingCharge/resolved(as:)``) if no callback
    /// or earlier settlement consumed it, expired or not; returns the updated entry.
    /// - Throws: ``ChargeKitError/unknownNonce``, ``ChargeKitError/replayedNonce`` (a
    ///   callback answered it) or ``ChargeKitError/settledByHand(outcome:note:)``,
    ///   changing nothing.
    func resolve(_ nonce: Nonce, as resolution: Resolution) async throws(ChargeKitError) -> PendingCharge
}

extension LedgerStore {
    /// A store written before hand-offs could be settled by hand refuses to: it has no
    /// atomic step for it.
    public func resolve(_ nonce: Nonce, as resolution: Resolution) async throws(ChargeKitError) -> PendingCharge {
        throw .storage("\(type(of: self)) cannot record a hand-off settled by hand")
    }
}

/// The rules every store applies to its entries, written once: stores differ only in
/// where the entries live and how a step is made atomic.
///
/// Every step costs the same however many entries are kept: an entry is found by its
/// nonce, and the entries due to be pruned are found in a queue ordered by the moment
/// each settles, not by a scan.
@_spi(Tools) public struct LedgerEntries: Sendable {
    package private(set) var byNonce: [String: PendingCharge]
    /// When each entry settles, soonest first (stale items, of entries since consumed or
    /// dropped, are skipped as they come up).
    private var settling = SettleQueue()

    /// The longest accepted callback URL whose result is kept with a consumed entry.
    package static let maximumKeptCallback = 4096

    @_spi(Tools) public init(_ charges: [PendingCharge] = []) {
        byNonce = [:]
        for charge in charges where byNonce[charge.nonce.value] == nil { put(charge) }
    }

    /// The entries, oldest first.
    @_spi(Tools) public var sorted: [PendingCharge] {
        byNonce.values.sorted { ($0.createdAt, $0.nonce.value) < ($1.createdAt, $1.nonce.value) }
    }

    @_spi(Tools) public var count: Int { byNonce.count }

    /// Drops entries settled more than `retention` before `now`; returns their nonces.
    @discardableResult
    package mutating func prune(now: Date, retention: TimeInterval) -> [String] {
        var dropped: [String] = []
        while let (settles, nonce) = settling.first, now.timeIntervalSince(settles) >= retention {
            settling.removeFirst()
            guard let charge = byNonce[nonce], charge.settledAt == settles, charge.isSettled(at: now) else { continue }
            byNonce[nonce] = nil
            dropped.append(nonce)
        }
        return dropped
    }

    /// Drops every settled entry (they only serve to report late replays as replays);
    /// returns their nonces.
    @discardableResult
    package mutating func dropSettled(now: Date) -> [String] {
        let dropped = byNonce.values.filter { $0.isSettled(at: now) }.map(\.nonce.value)
        for nonce in dropped { byNonce[nonce] = nil }
        return dropped
    }

    /// Inserts `charge`, pruning first and dropping settled entries when over
    /// `maximumEntries`; returns the nonces dropped. Nothing changes when it throws
    /// ``ChargeKitError/duplicateField(_:)``; when it throws
    /// ``ChargeKitError/storageFull(_:)`` only settled entries were dropped.
    @discardableResult
    @_spi(Tools) public mutating func insert(
        _ charge: PendingCharge, now: Date, retention: TimeInterval, maximumEntries: Int
    ) throws(ChargeKitError) -> [String] {
        guard byNonce[charge.nonce.value] == nil else { throw .duplicateField("nonce") }
        var dropped = prune(now: now, retention: retention)
        if byNonce.count >= maximumEntries { dropped += dropSettled(now: now) }
        guard byNonce.count < maximumEntries else {
            throw .storageFull("\(byNonce.count) charges are outstanding, the most this ledger holds")
        }
        put(charge)
        return dropped
    }

    /// Consumes the outstanding charge for `nonce`.
    @_spi(Tools) public mutating func consume(_ nonce: Nonce, at date: Date, accepting accepted: AcceptedCallback?) throws(ChargeKitError) -> PendingCharge {
        guard let outstanding = byNonce[nonce.value] else { throw .unknownNonce }
        guard outstanding.consumedAt == nil else { throw .replayedNonce }
        try outstanding.refuseDamaged()
        guard date < outstanding.expiresAt else { throw .expiredNonce }
        let charge = outstanding.consumed(at: date, accepting: accepted)
        put(charge)
        return charge
    }

    /// Settles the unanswered charge for `nonce` by hand, expired or not.
    @_spi(Tools) public mutating func resolve(_ nonce: Nonce, as resolution: Resolution) throws(ChargeKitError) -> PendingCharge {
        guard let entry = byNonce[nonce.value] else { throw .unknownNonce }
        try entry.refuseSettling()
        let charge = entry.resolved(as: resolution)
        put(charge)
        return charge
    }

    /// Stores `charge` as it is.
    @_spi(Tools) public mutating func put(_ charge: PendingCharge) {
        let previous = byNonce.updateValue(charge, forKey: charge.nonce.value)
        if previous?.settledAt != charge.settledAt { settling.insert(charge.settledAt, charge.nonce.value) }
    }

    /// Forgets the entry for `nonce`.
    @_spi(Tools) public mutating func remove(_ nonce: String) { byNonce[nonce] = nil }

    /// Forgets the kept callback URL of every consumed entry (to make room).
    package mutating func dropKeptCallbacks() {
        for (key, var charge) in byNonce where charge.accepted != nil {
            charge.accepted = nil
            byNonce[key] = charge
        }
    }
}

/// A binary min-heap of (moment, nonce): the entries in the order they settle.
struct SettleQueue: Sendable {
    private var items: [(Date, String)] = []

    var first: (Date, String)? { items.first }

    mutating func insert(_ date: Date, _ nonce: String) {
        items.append((date, nonce))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard items[child].0 < items[parent].0 else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func removeFirst() {
        guard !items.isEmpty else { return }
        items.swapAt(0, items.count - 1)
        items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < items.count && items[left].0 < items[smallest].0 { smallest = left }
            if right < items.count && items[right].0 < items[smallest].0 { smallest = right }
            guard smallest != parent else { return }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
