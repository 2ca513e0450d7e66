import Foundation

/// A store in one file, shared safely by every ledger instance, thread and process
/// that opens it: the embedded default.
///
/// The file is a journal (see the Performance article): a step appends the records it
/// changes and makes them durable with one `fdatasync`, under an exclusive lock on
/// `<file>.lock`, so that issuing or verifying a charge costs about one small durable
/// write however many entries the ledger keeps. Each process keeps the entries in
/// memory and reads only what others appended since its last step. A process killed at
/// any point loses no acknowledged step and leaves a ledger that loads. The file and
/// its folder are created readable by their owner only; a file written by an earlier
/// version is read as it is and rewritten as a journal on the first change.
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
    private let journal: LedgerJournal

    /// Makes a store at `fileURL`; the file (and its folder) is created on the first write.
    public init(fileURL: URL, maximumFileSize: Int = 8 * 1024 * 1024, maximumEntries: Int = 20_000) {
        journal = LedgerJournal.shared(for: fileURL)
        self.maximumFileSize = maximumFileSize
        self.maximumEntries = maximumEntries
    }

    /// Makes a store at a file path.
    public init(path: String) { self.init(fileURL: URL(fileURLWithPath: path)) }

    public func insert(_ charge: PendingCharge, now: Date, retention: TimeInterval) throws(ChargeKitError) {
        let highWater = maximumFileSize / 8 * 7
        let maximumEntries = self.maximumEntries
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

    public func charge(for nonce: Nonce) throws(ChargeKitError) -> PendingCharge? {
        try journal.read(maximumFileSize: maximumFileSize) { entries in entries.byNonce[nonce.value] }
    }

    public func consume(_ nonce: Nonce, at date: Date, accepting accepted: AcceptedCallback?) throws(ChargeKitError) -> PendingCharge {
        try settle(at: date) { entries throws(ChargeKitError) in try entries.consume(nonce, at: date, accepting: accepted) }
    }

    public func resolve(_ nonce: Nonce, as resolution: Resolution) throws(ChargeKitError) -> PendingCharge {
        try settle(at: resolution.resolvedAt) { entries throws(ChargeKitError) in try entries.resolve(nonce, as: resolution) }
    }

    /// Settles one entry with `change`, in one locked step; over the size bound, kept
    /// callbacks and then other settled entries make room.
    private func settle(
        at date: Date, _ settle: (inout LedgerEntries) throws(ChargeKitError) -> PendingCharge
    ) throws(ChargeKitError) -> PendingCharge {
        let limit = maximumFileSize - LedgerJournal.header.count
        return try journal.write(maximumFileSize: maximumFileSize) { change throws(ChargeKitError) -> PendingCharge in
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

    public func charges() throws(ChargeKitError) -> [PendingCharge] {
        try journal.read(maximumFileSize: maximumFileSize) { entries in entries.sorted }
    }
}
