import Foundation

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
        // Encoded once: the size is measured on what is written (encoded again only
        // when settled entries had to be dropped).
        try file.updateEncoded { (stored: [PendingCharge]?) throws(ChargeKitError) in
            var entries = LedgerEntries(stored ?? [])
            try entries.insert(charge, now: now, retention: retention, maximumEntries: maximumEntries)
            var encoded = try file.encoded(entries.sorted)
            if encoded.size > highWater {
                entries.dropSettled(now: now)
                entries.dropKeptCallbacks()
                encoded = try file.encoded(entries.sorted)
                guard encoded.size <= highWater else {
                    throw .storageFull("the ledger file would pass \(highWater) bytes; answer or let expire the outstanding charges")
                }
            }
            return ((), encoded)
        }
    }

    public func charge(for nonce: Nonce) throws(ChargeKitError) -> PendingCharge? {
        try (file.load() ?? []).first { $0.nonce == nonce }
    }

    public func consume(_ nonce: Nonce, at date: Date, accepting accepted: AcceptedCallback?) throws(ChargeKitError) -> PendingCharge {
        try settle(at: date) { entries throws(ChargeKitError) in try entries.consume(nonce, at: date, accepting: accepted) }
    }

    public func resolve(_ nonce: Nonce, as resolution: Resolution) throws(ChargeKitError) -> PendingCharge {
        try settle(at: resolution.resolvedAt) { entries throws(ChargeKitError) in try entries.resolve(nonce, as: resolution) }
    }

    /// Settles one entry with `change`, in one locked read and replacement of the file;
    /// over the size bound, kept callbacks and then other settled entries make room.
    private func settle(
        at date: Date, _ change: (inout LedgerEntries) throws(ChargeKitError) -> PendingCharge
    ) throws(ChargeKitError) -> PendingCharge {
        let file = self.file
        let limit = maximumFileSize
        return try file.updateEncoded { (stored: [PendingCharge]?) throws(ChargeKitError) -> (PendingCharge, AtomicJSONFile<[PendingCharge]>.Encoded?) in
            var entries = LedgerEntries(stored ?? [])
            let charge = try change(&entries)
            var encoded = try file.encoded(entries.sorted)
            if encoded.size > limit {
                entries.dropKeptCallbacks()
                encoded = try file.encoded(entries.sorted)
                if encoded.size > limit {
                    entries.dropSettled(now: date)
                    entries.put(charge)
                    encoded = try file.encoded(entries.sorted)
                }
            }
            return (charge, encoded)
        }
    }

    public func charges() throws(ChargeKitError) -> [PendingCharge] {
        LedgerEntries(try file.load() ?? []).sorted
    }
}
