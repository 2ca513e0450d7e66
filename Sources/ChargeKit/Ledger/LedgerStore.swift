import Foundation

/// Where a ``ChargeLedger`` keeps its pending charges.
///
/// Every method is one atomic step against every other user of the same storage:
/// other ledger instances, other threads and other processes. A store that keeps
/// its data in a database implements ``insert(_:now:retention:)`` and
/// ``consume(_:at:callback:)`` as single statements (for example an `UPDATE … WHERE
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

    /// Marks the charge consumed at `date` if it is outstanding then, keeping `callback`
    /// (the accepted URL) when it is given; returns the updated entry.
    /// - Throws: ``ChargeKitError/unknownNonce``, ``ChargeKitError/replayedNonce`` or
    ///   ``ChargeKitError/expiredNonce``, changing nothing.
    func consume(_ nonce: Nonce, at date: Date, callback: String?) async throws(ChargeKitError) -> PendingCharge

    /// Every stored entry, outstanding or settled.
    func charges() async throws(ChargeKitError) -> [PendingCharge]
}

/// The rules every store applies to its entries, written once: stores differ only in
/// where the entries live and how a step is made atomic.
package struct LedgerEntries: Sendable {
    package private(set) var byNonce: [String: PendingCharge]

    /// The longest accepted callback URL kept with a consumed entry.
    package static let maximumKeptCallback = 4096

    package init(_ charges: [PendingCharge] = []) {
        byNonce = Dictionary(charges.map { ($0.nonce.value, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// The entries, oldest first.
    package var sorted: [PendingCharge] {
        byNonce.values.sorted { ($0.createdAt, $0.nonce.value) < ($1.createdAt, $1.nonce.value) }
    }

    package var count: Int { byNonce.count }

    /// Drops entries settled more than `retention` before `now`.
    package mutating func prune(now: Date, retention: TimeInterval) {
        byNonce = byNonce.filter { _, charge in !charge.isSettled(at: now) || now.timeIntervalSince(charge.settledAt) < retention }
    }

    /// Drops every settled entry (they only serve to report late replays as replays).
    /// Returns whether anything was dropped.
    @discardableResult
    package mutating func dropSettled(now: Date) -> Bool {
        let before = byNonce.count
        byNonce = byNonce.filter { _, charge in !charge.isSettled(at: now) }
        return byNonce.count != before
    }

    /// Inserts `charge`, pruning first and dropping settled entries when over
    /// `maximumEntries`.
    package mutating func insert(
        _ charge: PendingCharge, now: Date, retention: TimeInterval, maximumEntries: Int
    ) throws(ChargeKitError) {
        guard byNonce[charge.nonce.value] == nil else { throw .duplicateField("nonce") }
        prune(now: now, retention: retention)
        if byNonce.count >= maximumEntries { dropSettled(now: now) }
        guard byNonce.count < maximumEntries else {
            throw .storageFull("\(byNonce.count) charges are outstanding, the most this ledger holds")
        }
        byNonce[charge.nonce.value] = charge
    }

    /// Consumes the outstanding charge for `nonce`.
    package mutating func consume(_ nonce: Nonce, at date: Date, callback: String?) throws(ChargeKitError) -> PendingCharge {
        guard let outstanding = byNonce[nonce.value] else { throw .unknownNonce }
        guard outstanding.consumedAt == nil else { throw .replayedNonce }
        guard date < outstanding.expiresAt else { throw .expiredNonce }
        let charge = outstanding.consumed(at: date, callback: callback)
        byNonce[nonce.value] = charge
        return charge
    }

    /// Stores `charge` as it is.
    package mutating func put(_ charge: PendingCharge) { byNonce[charge.nonce.value] = charge }

    /// Forgets the kept callback URL of every consumed entry (to make room).
    package mutating func dropKeptCallbacks() {
        for (key, var charge) in byNonce where charge.acceptedCallback != nil {
            charge.acceptedCallback = nil
            byNonce[key] = charge
        }
    }
}

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

    public func consume(_ nonce: Nonce, at date: Date, callback: String?) throws(ChargeKitError) -> PendingCharge {
        try entries.consume(nonce, at: date, callback: callback)
    }

    public func charges() -> [PendingCharge] { entries.sorted }
}

/// A store in one JSON file, shared safely by every ledger instance, thread and
/// process that opens it.
///
/// Each operation takes an exclusive lock on `<file>.lock`, reads the file, changes
/// it and writes it durably (temporary file, `fsync`, rename, `fsync` of the folder)
/// before releasing the lock; a process killed at any point leaves a ledger that
/// loads. The file and its folder are created readable by their owner only.
///
/// The file never grows past ``maximumFileSize``: new charges may fill it to seven
/// eighths, which leaves room for every outstanding charge to be consumed; settled
/// entries are dropped before a new charge is refused with
/// ``ChargeKitError/storageFull(_:)``.
public struct FileLedgerStore: LedgerStore {
    /// The file's location.
    public var fileURL: URL { file.fileURL }
    /// The largest file it will read or write (8 MiB by default).
    public var maximumFileSize: Int { file.maximumFileSize }
    /// The most entries it holds.
    public let maximumEntries: Int
    private let file: AtomicJSONFile<[PendingCharge]>

    /// Makes a store at `fileURL`; the file (and its folder) is created on the first write.
    public init(fileURL: URL, maximumFileSize: Int = 8 * 1024 * 1024, maximumEntries: Int = 20_000) {
        file = AtomicJSONFile(fileURL: fileURL, kind: "ledger", maximumFileSize: maximumFileSize)
        self.maximumEntries = maximumEntries
    }

    /// Makes a store at a file path.
    public init(path: String) { self.init(fileURL: URL(fileURLWithPath: path)) }

    public func insert(_ charge: PendingCharge, now: Date, retention: TimeInterval) throws(ChargeKitError) {
        let highWater = maximumFileSize / 8 * 7
        let file = self.file
        try file.update { (stored: inout [PendingCharge]?) throws(ChargeKitError) in
            var entries = LedgerEntries(stored ?? [])
            try entries.insert(charge, now: now, retention: retention, maximumEntries: maximumEntries)
            if try file.encodedSize(of: entries.sorted) > highWater {
                entries.dropSettled(now: now)
                entries.dropKeptCallbacks()
                guard try file.encodedSize(of: entries.sorted) <= highWater else {
                    throw .storageFull("the ledger file would pass \(highWater) bytes; answer or let expire the outstanding charges")
                }
            }
            stored = entries.sorted
        }
    }

    public func charge(for nonce: Nonce) throws(ChargeKitError) -> PendingCharge? {
        try (file.load() ?? []).first { $0.nonce == nonce }
    }

    public func consume(_ nonce: Nonce, at date: Date, callback: String?) throws(ChargeKitError) -> PendingCharge {
        let file = self.file
        let limit = maximumFileSize
        return try file.update { (stored: inout [PendingCharge]?) throws(ChargeKitError) -> PendingCharge in
            var entries = LedgerEntries(stored ?? [])
            let charge = try entries.consume(nonce, at: date, callback: callback)
            if try file.encodedSize(of: entries.sorted) > limit {
                entries.dropKeptCallbacks()
                if try file.encodedSize(of: entries.sorted) > limit {
                    entries.dropSettled(now: date)
                    entries.put(charge)
                }
            }
            stored = entries.sorted
            return charge
        }
    }

    public func charges() throws(ChargeKitError) -> [PendingCharge] {
        LedgerEntries(try file.load() ?? []).sorted
    }
}
