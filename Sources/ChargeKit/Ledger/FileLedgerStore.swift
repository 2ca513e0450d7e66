import Foundation

/// A store in one file, shared safely by every ledger instance, thread and process
/// that opens it: the embedded default.
///
/// The file is a journal of checksummed records (see the Performance and Trust model
/// articles): a step appends the records it changes and makes them durable with one
/// sync, under an exclusive lock on `<file>.lock`, so that issuing or verifying a
/// charge costs about one small durable write however many entries the ledger keeps.
/// Each process keeps the entries in memory, the lock and the file open, and reads
/// only what others appended since its last step. Steps run on a thread of the
/// store's own: waiting for another process's lock or for the disk never holds a
/// thread that runs the app's tasks.
///
/// A process killed at any point, or a power cut, loses no acknowledged step and
/// leaves a ledger that loads. A damaged block in the file never makes the ledger
/// unusable: every intact record is read, the damage is reported by ``damage()``, and
/// the entries whose state the damaged bytes may have changed are marked
/// (``PendingCharge/damage``): their callbacks are refused until they are settled by
/// hand. The file and its folder are created readable by their owner only; a file or
/// lock with a second name (a hard link) is refused; a file written by an earlier
/// version is read as it is and rewritten on the first change.
///
/// The file never grows past ``maximumFileSize``: it is compacted before it would, and
/// new charges may fill the entries it keeps to seven eighths, which leaves room for
/// every outstanding charge to be consumed; settled entries are dropped before a new
/// charge is refused with ``ChargeKitError/storageFull(_:)``.
public struct FileLedgerStore: LedgerStore {
    /// The file's location.
    public var fileURL: URL { journal.fileURL }
    /// The largest file it will read or write (8 MiB by default).
    public let maximumFileSize: Int
    /// The most entries it holds.
    public let maximumEntries: Int
    let journal: LedgerJournal

    /// Makes a store at `fileURL`; the file (and its folder) is created on the first write.
    public init(fileURL: URL, maximumFileSize: Int = 8 * 1024 * 1024, maximumEntries: Int = 20_000) {
        journal = LedgerJournal.shared(for: fileURL)
        self.maximumFileSize = maximumFileSize
        self.maximumEntries = maximumEntries
    }

    /// A store on `journal` (a test's, over a file system it records).
    init(journal: LedgerJournal, maximumFileSize: Int, maximumEntries: Int = 20_000) {
        self.journal = journal
        self.maximumFileSize = maximumFileSize
        self.maximumEntries = maximumEntries
    }

    /// Makes a store at a file path.
    public init(path: String) { self.init(fileURL: URL(fileURLWithPath: path)) }

    public func insert(_ charge: PendingCharge, now: Date, retention: TimeInterval) async throws(ChargeKitError) {
        let highWater = maximumFileSize / 8 * 7
        let (maximumEntries, maximumFileSize) = (self.maximumEntries, self.maximumFileSize)
        try await journal.perform { journal throws(ChargeKitError) in
          try journal.write(maximumFileSize: maximumFileSize) { change throws(ChargeKitError) in
            change.drop(try change.entries.insert(charge, now: now, retention: retention, maximumEntries: maximumEntries))
            try change.put(charge)
            if change.liveBytes > highWater {
                change.entries.dropSettled(now: now)
                change.entries.dropKeptCallbacks()
                try change.rewriteAll()
                guard change.liveBytes <= highWater else {
                    throw .storageFull("the ledger file would pass \(highWater) bytes; answer or let expire the outstanding charges")
                }
            }
          }
        }
    }

    public func charge(for nonce: Nonce) async throws(ChargeKitError) -> PendingCharge? {
        try await read { entries, _ in entries.byNonce[nonce.value] }
    }

    public func consume(_ nonce: Nonce, at date: Date, accepting accepted: AcceptedCallback?) async throws(ChargeKitError) -> PendingCharge {
        try await settle(at: date) { entries throws(ChargeKitError) in try entries.consume(nonce, at: date, accepting: accepted) }
    }

    public func resolve(_ nonce: Nonce, as resolution: Resolution) async throws(ChargeKitError) -> PendingCharge {
        try await settle(at: resolution.resolvedAt) { entries throws(ChargeKitError) in try entries.resolve(nonce, as: resolution) }
    }

    /// The damage found in the file as it now is: empty when every byte is an intact
    /// record (or a torn last record, never acknowledged). The entries it may have
    /// changed are marked (``PendingCharge/damage``); the next write keeps a copy of the
    /// damaged file beside it (`<file>.damaged-<generation>`) and rewrites the file
    /// from its intact records, after which the marks remain and this list is empty.
    public func damage() async throws(ChargeKitError) -> [LedgerDamage] {
        try await read { _, damage in damage }
    }

    /// Rewrites the file from its intact records (every entry, the damaged ones marked),
    /// keeping a damaged file beside it first: what `chargekit ledger check --repair` runs.
    /// Returns the damage the file had.
    @discardableResult
    public func repair() async throws(ChargeKitError) -> [LedgerDamage] {
        let maximumFileSize = self.maximumFileSize
        return try await journal.perform { journal throws(ChargeKitError) in
            var damage: [LedgerDamage] = []
            _ = try journal.read(maximumFileSize: maximumFileSize) { _, found in damage = found }
            try journal.write(maximumFileSize: maximumFileSize, compacting: true) { _ in }
            return damage
        }
    }

    private func read<T: Sendable>(_ body: @escaping @Sendable (LedgerEntries, [LedgerDamage]) -> T) async throws(ChargeKitError) -> T {
        let maximumFileSize = self.maximumFileSize
        return try await journal.perform { journal throws(ChargeKitError) in
            try journal.read(maximumFileSize: maximumFileSize) { entries, damage in body(entries, damage) }
        }
    }

    /// Settles one entry with `change`, in one locked step; over the size bound, kept
    /// callbacks and then other settled entries make room.
    private func settle(
        at date: Date, _ settle: @escaping @Sendable (inout LedgerEntries) throws(ChargeKitError) -> PendingCharge
    ) async throws(ChargeKitError) -> PendingCharge {
        let maximumFileSize = self.maximumFileSize
        let limit = maximumFileSize - LedgerJournal.header(generation: 0).count
        return try await journal.perform { journal throws(ChargeKitError) in
          try journal.write(maximumFileSize: maximumFileSize) { change throws(ChargeKitError) -> PendingCharge in
            let charge = try settle(&change.entries)
            try change.put(charge)
            if change.liveBytes > limit {
                change.entries.dropKeptCallbacks()
                try change.rewriteAll()
                if change.liveBytes > limit {
                    change.entries.dropSettled(now: date)
                    change.entries.put(charge)
                    try change.rewriteAll()
                }
            }
            return charge
          }
        }
    }

    public func charges() async throws(ChargeKitError) -> [PendingCharge] {
        try await read { entries, _ in entries.sorted }
    }
}
