import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file behind ``FileLedgerStore``: an append-only journal, one JSON record a line.
///
/// ```
/// {"chargekit":"ledger-journal","version":2}
/// {"put":{…an entry as it now stands…}}
/// {"drop":["nonce", …]}
/// ```
///
/// A step appends its records (an entry issued or settled, the entries pruned) and
/// makes them durable with one `fdatasync`, under the exclusive lock of
/// ``StorageFiles``: its cost is one small write whatever the ledger holds. Each process
/// keeps the entries in memory, with the offset it has read up to and the file's
/// identity; under the lock it reads only what other processes appended since. When
/// superseded records dominate, or the next append would pass the size bound, the
/// journal is compacted: every entry's latest record written to a temporary file,
/// `fsync`ed and renamed over the journal (other processes see a new inode and read
/// it again).
///
/// A process killed mid-append leaves a last line without its line feed: that record
/// was never acknowledged (its `fdatasync` had not returned), so readers ignore it and
/// the next writer cuts it off. A file written by an earlier version (one JSON
/// document, `{"contents":[…],"version":1}`) is read as it is and rewritten as a
/// journal by the first step that changes it.
final class LedgerJournal: @unchecked Sendable {
    // (@unchecked: every field below `mutex` is read and written with it held.)

    static let header = Data(#"{"chargekit":"ledger-journal","version":2}"#.utf8) + Data([0x0A])

    /// One journal per file per process, shared by every store instance on it.
    static func shared(for fileURL: URL) -> LedgerJournal {
        let key = fileURL.standardizedFileURL.path
        return registryLock.withLock {
            if let journal = registry[key] { return journal }
            let journal = LedgerJournal(fileURL: fileURL.standardizedFileURL)
            registry[key] = journal
            return journal
        }
    }

    private static let registryLock = NSLock()
    nonisolated(unsafe) private static var registry: [String: LedgerJournal] = [:]

    let fileURL: URL
    private let mutex = NSLock()
    private var entries = LedgerEntries()
    /// Each entry's latest record, as written (what a compaction writes again).
    private var lines: [String: Data] = [:]
    private var liveBytes = 0
    /// How far the file has been read and applied.
    private var offset = 0
    /// The file's size when it was last read (more than `offset` when a killed writer left half a line).
    private var fileSize = 0
    private var identity: Identity?
    /// Whether the memory reflects the file up to `offset` (false after a failed step).
    private var valid = false
    /// Whether the file is an earlier version's document, to rewrite as a journal.
    private var legacy = false
    /// Whether this process has cleared killed compactions' temporary files yet.
    private var swept = false

    private struct Identity: Equatable {
        var device: UInt64
        var inode: UInt64
    }

    private init(fileURL: URL) { self.fileURL = fileURL }

    /// One record line.
    private struct Record: Codable {
        var put: PendingCharge?
        var drop: [String]?
    }

    /// The earlier version's document.
    private struct LegacyDocument: Decodable {
        var version: Int
        var contents: [PendingCharge]
    }

    // MARK: Steps

    /// Reads the entries as they stand, under the shared lock.
    func read<T>(maximumFileSize: Int, _ body: (LedgerEntries) throws(ChargeKitError) -> T) throws(ChargeKitError) -> T {
        mutex.lock()
        defer { mutex.unlock() }
        return try StorageFiles.withLock(for: fileURL, exclusive: false) { () throws(ChargeKitError) -> T in
            if let descriptor = try catchUp(maximumFileSize: maximumFileSize, writing: false) { close(descriptor) }
            return try body(entries)
        }
    }

    /// What a step changes: the entries, and the records that say so.
    struct Change {
        var entries: LedgerEntries
        fileprivate var dropped: [String] = []
        fileprivate var written: [String: Data] = [:]
        fileprivate var order: [String] = []
        fileprivate var rewrite = false
        fileprivate var baseBytes: Int
        fileprivate var lines: [String: Data]

        /// Records that these entries are gone.
        mutating func drop(_ nonces: [String]) {
            dropped += nonces
            for nonce in nonces {
                baseBytes -= written.removeValue(forKey: nonce)?.count ?? lines.removeValue(forKey: nonce)?.count ?? 0
            }
        }

        /// Records `charge` as it now stands.
        mutating func put(_ charge: PendingCharge) throws(ChargeKitError) {
            let line = try LedgerJournal.line(Record(put: charge))
            let nonce = charge.nonce.value
            baseBytes += line.count - (written[nonce]?.count ?? lines[nonce]?.count ?? 0)
            if written.updateValue(line, forKey: nonce) == nil { order.append(nonce) }
        }

        /// The bytes every entry's latest record takes, these changes included.
        var liveBytes: Int { baseBytes }

        /// Asks for the whole journal to be written again from `entries` (after a change
        /// that touched many entries, such as forgetting kept callbacks).
        mutating func rewriteAll() throws(ChargeKitError) {
            rewrite = true
            written = [:]
            order = []
            lines = [:]
            baseBytes = 0
            for charge in entries.sorted { try put(charge) }
        }
    }

    /// Runs `body` on the entries under the exclusive lock, then makes its records
    /// durable. When `body` throws, nothing is written.
    func write<T>(maximumFileSize: Int, _ body: (inout Change) throws(ChargeKitError) -> T) throws(ChargeKitError) -> T {
        mutex.lock()
        defer { mutex.unlock() }
        return try StorageFiles.withLock(for: fileURL, exclusive: true) { () throws(ChargeKitError) -> T in
            // A compaction killed before its rename left its temporary file: the first step
            // of each process, and every compaction, clear them.
            if !swept {
                StorageFiles.sweepTemporaryFiles(of: fileURL)
                swept = true
            }
            let descriptor = try catchUp(maximumFileSize: maximumFileSize, writing: true)
            defer { if let descriptor { close(descriptor) } }
            // The memory is changed in place; until the records are durable, it is not the file's.
            valid = false
            // Moved, not copied: the step changes them in place, at the cost of what it touches.
            var change = Change(entries: entries, baseBytes: liveBytes, lines: lines)
            entries = LedgerEntries()
            lines = [:]
            let result = try body(&change)
            var appended = Data()
            if !change.dropped.isEmpty { appended += try Self.line(Record(drop: change.dropped)) }
            for nonce in change.order { if let line = change.written[nonce] { appended += line } }
            let compact = change.rewrite || legacy || descriptor == nil || offset + appended.count > maximumFileSize
                || (offset + appended.count > 2 * change.liveBytes + 1024 * 1024)
            // Moved back the same way (a copy left in `change` would make the next change copy them whole).
            entries = change.entries
            change.entries = LedgerEntries()
            lines = change.lines
            change.lines = [:]
            for (nonce, line) in change.written { lines[nonce] = line }
            liveBytes = change.liveBytes
            if compact {
                try rewrite(maximumFileSize: maximumFileSize)
            } else if let descriptor {
                // A killed writer's last line, never acknowledged, is cut off first.
                guard fileSize == offset || ftruncate(descriptor, off_t(offset)) == 0,
                      StorageFiles.write(appended, to: descriptor, at: off_t(offset)), StorageFiles.sync(descriptor) else {
                    throw .storage("cannot write \(fileURL.path): \(String(cString: strerror(errno)))")
                }
                offset += appended.count
                fileSize = offset
            }
            valid = true
            return result
        }
    }

    // MARK: Reading

    /// Brings the memory up to the file: reads what was appended since `offset`, or the
    /// whole file when it was replaced. Returns the open file when `writing`.
    private func catchUp(maximumFileSize: Int, writing: Bool) throws(ChargeKitError) -> Int32? {
        let path = fileURL.path
        guard let descriptor = try StorageFiles.openTrusted(path, flags: writing ? O_RDWR : O_RDONLY) else {
            reset()
            identity = nil
            valid = true
            return nil
        }
        do throws(ChargeKitError) {
            var status = stat()
            guard fstat(descriptor, &status) == 0 else { throw ChargeKitError.storage("cannot read \(path): \(String(cString: strerror(errno)))") }
            let size = Int(status.st_size)
            guard size <= maximumFileSize else { throw ChargeKitError.corruptStorage("\(path) is larger than \(maximumFileSize) bytes") }
            let now = Identity(device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
            if !valid || identity != now || size < offset {
                reset()
                identity = now
            }
            if size > offset {
                try apply(try StorageFiles.read(descriptor, at: offset, count: size - offset, path: path))
            }
            fileSize = size
            valid = true
        } catch {
            valid = false
            close(descriptor)
            throw error
        }
        if writing { return descriptor }
        close(descriptor)
        return nil
    }

    private func reset() {
        entries = LedgerEntries()
        lines = [:]
        liveBytes = 0
        offset = 0
        legacy = false
    }

    /// Applies the bytes read at `offset`: whole lines only (a last line without its line
    /// feed is a killed writer's, never acknowledged).
    private func apply(_ data: Data) throws(ChargeKitError) {
        var data = data[...]
        if offset == 0 {
            if data.starts(with: Self.header) {
                data = data.dropFirst(Self.header.count)
                offset = Self.header.count
            } else {
                try readLegacy(Data(data))
                return
            }
        }
        let decoder = JSONDecoder.storage
        while let end = data.firstIndex(of: 0x0A) {
            let line = data[data.startIndex...end]
            let record: Record
            do { record = try decoder.decode(Record.self, from: Data(line)) } catch {
                throw .corruptStorage("\(fileURL.path): the record at byte \(offset) is not a ChargeKit ledger record")
            }
            if let drop = record.drop {
                for nonce in drop {
                    entries.remove(nonce)
                    liveBytes -= lines.removeValue(forKey: nonce)?.count ?? 0
                }
            }
            if let charge = record.put {
                entries.put(charge)
                liveBytes += line.count - (lines.updateValue(Data(line), forKey: charge.nonce.value)?.count ?? 0)
            }
            offset += line.count
            data = data[(end + 1)...]
        }
    }

    /// Reads a ledger an earlier version wrote (one JSON document); the first step that
    /// changes it writes it again as a journal.
    private func readLegacy(_ data: Data) throws(ChargeKitError) {
        let document: LegacyDocument
        do { document = try JSONDecoder.storage.decode(LegacyDocument.self, from: data) } catch {
            throw .corruptStorage("\(fileURL.path) is not a ChargeKit ledger file: \(error)")
        }
        guard document.version == 1 else { throw .corruptStorage("\(fileURL.path): unsupported version \(document.version)") }
        entries = LedgerEntries(document.contents)
        for charge in entries.sorted {
            let line = try Self.line(Record(put: charge))
            lines[charge.nonce.value] = line
            liveBytes += line.count
        }
        offset = data.count
        legacy = true
    }

    // MARK: Writing

    private static func line(_ record: Record) throws(ChargeKitError) -> Data {
        do {
            var line = try JSONEncoder.storage.encode(record)
            line.append(0x0A)
            return line
        } catch {
            throw .storage("cannot encode a ledger record: \(error)")
        }
    }

    /// Writes every entry's latest record to a new journal and renames it over the old.
    private func rewrite(maximumFileSize: Int) throws(ChargeKitError) {
        var data = Self.header
        for charge in entries.sorted { if let line = lines[charge.nonce.value] { data += line } }
        guard data.count <= maximumFileSize else {
            throw .storageFull("the ledger would be \(data.count) bytes, more than its bound of \(maximumFileSize)")
        }
        let replaced = try StorageFiles.replace(fileURL, with: data)
        identity = Identity(device: replaced.device, inode: replaced.inode)
        offset = data.count
        fileSize = offset
        legacy = false
    }
}
