import Dispatch
import Foundation

/// The file behind ``FileLedgerStore``: an append-only journal of checksummed records.
///
/// ```
/// {"chargekit":"ledger-journal","generation":"9f1c…","version":3}
/// 9f1c… 5d3e0a17 {"put":{…an entry as it now stands…}}
/// 9f1c… 0b77c2e9 {"drop":["nonce", …]}
/// ```
///
/// Each record is framed with the file's generation (16 hex digits, drawn anew by every
/// compaction) and a CRC-32C of the generation and the record, and ends with a line
/// feed; a record never holds a raw line feed. A step appends its records and makes
/// them durable with one sync (``DurableSync``) under the exclusive lock of
/// `<file>.lock`.
///
/// **One process's view.** The lock and the journal stay open between steps: a step
/// costs a lock, an `fstat` of the open journal and, when writing, one write and one
/// sync. Each process keeps the entries in memory with the offset read up to; under
/// the lock it reads only what others appended since. A compaction (every entry's
/// latest record written to a temporary file with a new generation, synced, renamed
/// over the journal, the folder synced) leaves the old file with no name: a process
/// holding it sees its link count fall to 0 and opens the path again. The descriptor
/// it holds keeps the old inode allocated, so no later file can take its number.
///
/// **What a crash or a disk leaves.**
/// - A last record without its line feed (a process killed, or a power cut, mid-append)
///   was never acknowledged: readers ignore it and the next writer cuts it off.
/// - Bytes between records that are not an intact record of this generation (zeros, a
///   bad block, an old file's content) are damage. Every intact record is still read,
///   before and after it; every entry whose latest intact record lies before the damage
///   is of unknown state (the lost bytes may have held the record that settled it), so
///   it is marked ``PendingCharge/damage``: its callback is refused and it can be
///   settled by hand. The damage is reported (``FileLedgerStore/damage()``), not
///   thrown, and the next write keeps a copy of the damaged file beside it
///   (`<file>.damaged-<generation>`) and compacts.
/// - A file of an earlier version (the version 2 journal without checksums, the
///   version 1 JSON document) is read as it is and rewritten by the first step that
///   changes it.
///
/// Every call into the file system goes through a ``StorageFileSystem``, so that a test
/// can record a workload and rebuild every state a power cut could leave.
final class LedgerJournal: @unchecked Sendable {
    // (@unchecked: every field below `mutex` is read and written with it held.)

    /// The version this code writes.
    static let version = 3

    /// Bugs a test plants to show that the crash-state checker finds them.
    enum Fault: Hashable, Sendable {
        /// A compaction renames its file over the journal before syncing it.
        case renameBeforeSync
        /// A reader keeps reading a journal that a compaction replaced.
        case ignoreReplacement
    }

    /// One journal per file per process, shared by every store instance on it; once the
    /// last store on a file is gone, its journal closes the file and the lock.
    static func shared(for fileURL: URL) -> LedgerJournal {
        let key = fileURL.standardizedFileURL.path
        return registryLock.withLock {
            if let journal = registry[key]?.journal { return journal }
            registry = registry.filter { $0.value.journal != nil }
            let journal = LedgerJournal(path: key, fileSystem: SystemFileSystem.shared)
            registry[key] = Held(journal: journal)
            return journal
        }
    }

    private struct Held {
        weak var journal: LedgerJournal?
    }

    private static let registryLock = NSLock()
    nonisolated(unsafe) private static var registry: [String: Held] = [:]

    let path: String
    var fileURL: URL { URL(fileURLWithPath: path) }
    private let fileSystem: any StorageFileSystem
    private let faults: Set<Fault>
    /// The thread the steps run on: lock waits and syncs block it, never an app's tasks.
    private let queue = DispatchQueue(label: "ChargeKit.LedgerJournal")

    private let mutex = NSLock()
    private var lockHandle: Int32?
    private var handle: Int32?
    private var format = Format.none
    private var entries = LedgerEntries()
    /// Each entry's latest record, unframed (what a compaction writes again).
    private var payloads: [String: Data] = [:]
    /// Where each entry's latest intact record starts.
    private var lastRecord: [String: Int] = [:]
    /// The bytes the framed latest records take.
    private var liveBytes = 0
    /// How far the file has been read and applied.
    private var offset = 0
    /// The file's size when it was last read (more than `offset` after a torn append).
    private var fileSize = 0
    /// Whether the memory reflects the file up to `offset` (false after a failed step).
    private var valid = false
    /// Whether the next write must compact (an earlier version's file, or damage found).
    private var mustRewrite = false
    /// Whether this process has cleared killed compactions' temporary files yet.
    private var swept = false
    /// The damage found in the file as it now is.
    private var found: [LedgerDamage] = []

    enum Format: Equatable {
        case none, document, journal, framed(generation: UInt64)
    }

    init(path: String, fileSystem: any StorageFileSystem, faults: Set<Fault> = []) {
        self.path = path
        self.fileSystem = fileSystem
        self.faults = faults
    }

    deinit {
        if let handle { fileSystem.close(handle) }
        if let lockHandle { fileSystem.close(lockHandle) }
    }

    /// One record.
    private struct Record: Codable {
        var put: PendingCharge?
        var drop: [String]?
    }

    private struct Header: Codable {
        var chargekit: String
        var generation: String?
        var version: Int
    }

    /// The version 1 document.
    private struct LegacyDocument: Decodable {
        var version: Int
        var contents: [PendingCharge]
    }

    // MARK: Steps

    /// Runs `body` on the journal's own thread.
    func perform<T: Sendable>(_ body: @escaping @Sendable (LedgerJournal) throws(ChargeKitError) -> T) async throws(ChargeKitError) -> T {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, ChargeKitError>, Never>) in
            queue.async {
                continuation.resume(returning: Result { () throws(ChargeKitError) -> T in try body(self) })
            }
        }
        return try result.get()
    }

    /// Reads the entries as they stand, under the shared lock.
    func read<T>(maximumFileSize: Int, _ body: (LedgerEntries, [LedgerDamage]) throws(ChargeKitError) -> T) throws(ChargeKitError) -> T {
        mutex.lock()
        defer { mutex.unlock() }
        let lock = try openLock()
        try fileSystem.lock(lock, exclusive: false, path: path + ".lock")
        defer { fileSystem.unlock(lock) }
        try catchUp(maximumFileSize: maximumFileSize)
        return try body(entries, found)
    }

    /// What a step changes: the entries, and the records that say so.
    struct Change {
        var entries: LedgerEntries
        fileprivate var dropped: [String] = []
        fileprivate var written: [String: Data] = [:]
        fileprivate var order: [String] = []
        fileprivate var rewrite = false
        fileprivate var baseBytes: Int
        fileprivate var payloads: [String: Data]

        /// Records that these entries are gone.
        mutating func drop(_ nonces: [String]) {
            dropped += nonces
            for nonce in nonces {
                baseBytes -= (written.removeValue(forKey: nonce) ?? payloads.removeValue(forKey: nonce)).map(LedgerJournal.framedSize) ?? 0
            }
        }

        /// Records `charge` as it now stands.
        mutating func put(_ charge: PendingCharge) throws(ChargeKitError) {
            let payload = try LedgerJournal.encode(Record(put: charge))
            let nonce = charge.nonce.value
            baseBytes += LedgerJournal.framedSize(payload) - ((written[nonce] ?? payloads[nonce]).map(LedgerJournal.framedSize) ?? 0)
            if written.updateValue(payload, forKey: nonce) == nil { order.append(nonce) }
        }

        /// The bytes every entry's latest record takes, these changes included.
        var liveBytes: Int { baseBytes }

        /// Asks for the whole journal to be written again from `entries` (after a change
        /// that touched many entries, such as forgetting kept callbacks).
        mutating func rewriteAll() throws(ChargeKitError) {
            rewrite = true
            written = [:]
            order = []
            payloads = [:]
            baseBytes = 0
            for charge in entries.sorted { try put(charge) }
        }
    }

    /// Runs `body` on the entries under the exclusive lock, then makes its records
    /// durable. When `body` throws, nothing is written.
    func write<T>(maximumFileSize: Int, compacting: Bool = false, _ body: (inout Change) throws(ChargeKitError) -> T) throws(ChargeKitError) -> T {
        mutex.lock()
        defer { mutex.unlock() }
        let lock = try openLock()
        try fileSystem.lock(lock, exclusive: true, path: path + ".lock")
        defer { fileSystem.unlock(lock) }
        // A compaction killed before its rename left its temporary file: the first step
        // of each process, and every compaction, clear them.
        if !swept {
            sweepTemporaryFiles()
            swept = true
        }
        try catchUp(maximumFileSize: maximumFileSize)
        // The memory is changed in place; until the records are durable, it is not the file's.
        valid = false
        // Moved, not copied: the step changes them in place, at the cost of what it touches.
        var change = Change(entries: entries, baseBytes: liveBytes, payloads: payloads)
        entries = LedgerEntries()
        payloads = [:]
        let result = try body(&change)
        var records: [(nonce: String?, payload: Data)] = []
        if !change.dropped.isEmpty { records.append((nil, try Self.encode(Record(drop: change.dropped)))) }
        for nonce in change.order { if let payload = change.written[nonce] { records.append((nonce, payload)) } }
        let appendedBytes = records.reduce(0) { $0 + Self.framedSize($1.payload) }
        var generation: UInt64?
        if case .framed(let current) = format { generation = current }
        let compact = compacting || change.rewrite || mustRewrite || handle == nil || generation == nil
            || offset + appendedBytes > maximumFileSize || offset + appendedBytes > 2 * change.liveBytes + 1024 * 1024
        // Moved back the same way (a copy left in `change` would make the next change copy them whole).
        entries = change.entries
        change.entries = LedgerEntries()
        payloads = change.payloads
        change.payloads = [:]
        for (nonce, payload) in change.written { payloads[nonce] = payload }
        for nonce in change.dropped { lastRecord[nonce] = nil }
        liveBytes = change.liveBytes
        if compact {
            try rewrite(maximumFileSize: maximumFileSize)
        } else if let handle, let generation {
            var appended = Data()
            appended.reserveCapacity(appendedBytes)
            for record in records {
                if let nonce = record.nonce { lastRecord[nonce] = offset + appended.count }
                appended += Self.frame(record.payload, generation: generation)
            }
            // A killed writer's last record, never acknowledged, is cut off first.
            if fileSize != offset { try fileSystem.truncate(handle, to: offset, path: path) }
            try fileSystem.write(appended, to: handle, at: offset, path: path)
            try fileSystem.sync(handle, path: path)
            offset += appended.count
            fileSize = offset
        }
        valid = true
        return result
    }

    /// The entries as this process last read or wrote them, without touching the file
    /// (what a test compares a reopened file with).
    var entriesInMemory: [String: PendingCharge] { mutex.withLock { valid ? entries.byNonce : [:] } }

    // MARK: Opening

    /// The lock file, opened once per process and kept; the folder and its ancestors are
    /// checked when it is opened.
    private func openLock() throws(ChargeKitError) -> Int32 {
        if let lockHandle { return lockHandle }
        try fileSystem.prepareFolder(of: path)
        let lockPath = path + ".lock"
        guard let opened = try fileSystem.open(lockPath, create: true) else { throw .storage("cannot open \(lockPath)") }
        do {
            try fileSystem.refuseLinks(try fileSystem.status(opened, path: lockPath), path: lockPath, what: "lock file")
        } catch {
            fileSystem.close(opened)
            throw error
        }
        lockHandle = opened
        return opened
    }

    /// Brings the memory up to the file: reads what was appended since `offset`, or the
    /// whole file when it was replaced (its link count fell to 0) or is new to this process.
    private func catchUp(maximumFileSize: Int) throws(ChargeKitError) {
        if let current = handle {
            let status = try fileSystem.status(current, path: path)
            if status.links > 0 || faults.contains(.ignoreReplacement) {
                try fileSystem.refuseLinks(status, path: path, what: "ledger")
                try advance(current, status: status, maximumFileSize: maximumFileSize)
                return
            }
            fileSystem.close(current)
            handle = nil
            valid = false
        }
        guard let opened = try fileSystem.open(path, create: false) else {
            reset()
            format = .none
            valid = true
            return
        }
        do {
            // A new file: its folder is checked again, as when the lock was opened.
            try fileSystem.prepareFolder(of: path)
            let status = try fileSystem.status(opened, path: path)
            try fileSystem.refuseLinks(status, path: path, what: "ledger")
            handle = opened
            valid = false
            try advance(opened, status: status, maximumFileSize: maximumFileSize)
        } catch {
            if handle == opened { handle = nil }
            fileSystem.close(opened)
            throw error
        }
    }

    private func advance(_ descriptor: Int32, status: FileStatus, maximumFileSize: Int) throws(ChargeKitError) {
        guard status.size <= maximumFileSize else { throw .corruptStorage("\(path) is larger than \(maximumFileSize) bytes") }
        if !valid || status.size < offset { reset() }
        // Nothing new only when the size is the one read and no torn record was seen
        // (another writer may have cut it off and appended as many bytes).
        if status.size > offset && !(status.size == fileSize && fileSize == offset) {
            do throws(ChargeKitError) {
                try apply(try fileSystem.read(descriptor, at: offset, count: status.size - offset, path: path), from: offset)
            } catch {
                valid = false
                throw error
            }
        }
        fileSize = status.size
        valid = true
    }

    private func reset() {
        entries = LedgerEntries()
        payloads = [:]
        lastRecord = [:]
        liveBytes = 0
        offset = 0
        fileSize = 0
        found = []
        mustRewrite = false
        format = .none
    }

    // MARK: Reading

    /// Applies the bytes read at `start`: every intact record; a last record without its
    /// line feed is a torn append, never acknowledged; anything else that is not an
    /// intact record is damage.
    private func apply(_ data: Data, from start: Int) throws(ChargeKitError) {
        var position = data.startIndex
        if start == 0 {
            position = try readStart(data)
            if format == .document { return }
        }
        let damageBefore = found.count
        while position < data.endIndex {
            guard let end = data[position...].firstIndex(of: 0x0A) else {
                if isTorn(data[position...]) {
                    offset = start + (position - data.startIndex)
                } else {
                    report(start + (position - data.startIndex), data.endIndex - position)
                    position = data.endIndex
                }
                break
            }
            if let record = record(data[position..<end]) {
                apply(record, at: start + (position - data.startIndex))
                position = end + 1
                continue
            }
            // Damage: up to the next intact record, or to the end.
            var next = end + 1
            while next < data.endIndex {
                guard let lineEnd = data[next...].firstIndex(of: 0x0A) else { next = data.endIndex; break }
                if record(data[next..<lineEnd]) != nil { break }
                next = lineEnd + 1
            }
            report(start + (position - data.startIndex), next - position)
            position = next
        }
        if position == data.endIndex { offset = start + data.count }
        if found.count > damageBefore { failClosed() }
    }

    /// Masks the card numbers of the callbacks a version 1 document kept (the next write
    /// rewrites it with them masked).
    private func maskCardNumbers() {
        for charge in entries.sorted {
            guard let masked = charge.maskingCardNumbers(), let payload = try? Self.encode(Record(put: masked)) else { continue }
            entries.put(masked)
            liveBytes += Self.framedSize(payload) - (payloads.updateValue(payload, forKey: masked.nonce.value).map(Self.framedSize) ?? 0)
        }
    }

    /// Reads the header (or the version 1 document); returns where records begin.
    private func readStart(_ data: Data) throws(ChargeKitError) -> Data.Index {
        if data.isEmpty { return data.startIndex }
        if let end = data.firstIndex(of: 0x0A), let header = try? JSONDecoder.storage.decode(Header.self, from: Data(data[..<end])),
           header.chargekit == "ledger-journal" {
            switch header.version {
            case 2:
                format = .journal
                mustRewrite = true
            case Self.version:
                guard let text = header.generation, let generation = UInt64(text, radix: 16) else {
                    report(0, end + 1 - data.startIndex)
                    format = detectFormat(data)
                    return end + 1
                }
                format = .framed(generation: generation)
            default:
                throw .corruptStorage("\(path): a ledger journal of version \(header.version), newer than this ChargeKit reads (\(Self.version))")
            }
            offset = end + 1 - data.startIndex
            return end + 1
        }
        if let document = try? JSONDecoder.storage.decode(LegacyDocument.self, from: data) {
            guard document.version == 1 else { throw .corruptStorage("\(path): unsupported version \(document.version)") }
            try readLegacy(document, size: data.count)
            return data.endIndex
        }
        // The header is damaged: the records tell the format; the bytes before the first
        // intact one are reported by the caller's loop. A file with neither a header nor
        // one intact record is another file, unless it starts with zeros (a lost block).
        format = detectFormat(data)
        if format == .framed(generation: 0), data.first != 0 {
            throw .corruptStorage("\(path) is not a ChargeKit ledger file (no ledger header, no intact ledger record)")
        }
        return data.startIndex
    }

    /// The format of a file whose header is damaged: the generation of its last intact
    /// framed record, else the version 2 journal when a line reads as one of its records.
    private func detectFormat(_ data: Data) -> Format {
        var last: UInt64?
        var journal = false
        var position = data.startIndex
        while let end = data[position...].firstIndex(of: 0x0A) {
            let line = data[position..<end]
            if let generation = Self.framedGeneration(line) { last = generation }
            else if !journal, last == nil, (try? JSONDecoder.storage.decode(Record.self, from: Data(line))) != nil { journal = true }
            position = end + 1
        }
        mustRewrite = true
        if let last { return .framed(generation: last) }
        return journal ? .journal : .framed(generation: 0)
    }

    /// The record a line holds when it is intact: of this file's generation with its
    /// checksum right (framed), or one that decodes (version 2).
    private func record(_ line: Data) -> (record: Record, payload: Data)? {
        let payload: Data
        switch format {
        case .framed(let generation):
            guard Self.framedGeneration(line) == generation else { return nil }
            payload = Data(line.dropFirst(Self.frameOverhead - 1))
        case .journal:
            payload = Data(line)
        case .none, .document:
            return nil
        }
        guard let record = try? JSONDecoder.storage.decode(Record.self, from: payload), record.put != nil || record.drop != nil else { return nil }
        return (record, payload)
    }

    private func apply(_ read: (record: Record, payload: Data), at position: Int) {
        if let drop = read.record.drop {
            for nonce in drop {
                entries.remove(nonce)
                liveBytes -= payloads.removeValue(forKey: nonce).map(Self.framedSize) ?? 0
                lastRecord[nonce] = nil
            }
        }
        if var charge = read.record.put {
            var payload = read.payload
            // A version 2 journal's callbacks were kept before card numbers were masked:
            // each is masked as it is read (the next write rewrites the file with it).
            if format == .journal, let masked = charge.maskingCardNumbers(), let encoded = try? Self.encode(Record(put: masked)) {
                (charge, payload) = (masked, encoded)
            }
            let nonce = charge.nonce.value
            entries.put(charge)
            liveBytes += Self.framedSize(payload) - (payloads.updateValue(payload, forKey: nonce).map(Self.framedSize) ?? 0)
            lastRecord[nonce] = position
        }
    }

    /// A tail without a line feed is a torn append when it is the start of a record of
    /// this file (no zeros, this generation's frame); otherwise it is damage.
    private func isTorn(_ tail: Data) -> Bool {
        guard !tail.contains(0) else { return false }
        switch format {
        case .framed(let generation):
            let prefix = Data((Self.hex(generation, digits: 16) + " ").utf8)
            return tail.count >= prefix.count ? tail.starts(with: prefix) : prefix.starts(with: tail)
        case .journal:
            return tail.first == UInt8(ascii: "{")
        case .none, .document:
            return false
        }
    }

    private func report(_ at: Int, _ count: Int) {
        guard count > 0 else { return }
        found.append(LedgerDamage(path: path, offset: at, byteCount: count))
        mustRewrite = true
    }

    /// Fail closed: every outstanding entry whose latest intact record lies before the
    /// last damage may have been settled in the lost bytes; its state is unknown.
    private func failClosed() {
        guard let last = found.last else { return }
        for (nonce, position) in lastRecord where position < last.offset {
            guard var charge = entries.byNonce[nonce], charge.consumedAt == nil, charge.damage == nil else { continue }
            charge.damage = "the ledger's file (\(last.path)) is damaged at byte \(last.offset) (\(last.byteCount) bytes), after "
                + "this entry's last intact record: a callback may have settled it there; check the payment app's history and resolve it"
            entries.put(charge)
            if let payload = try? Self.encode(Record(put: charge)) {
                liveBytes += Self.framedSize(payload) - (payloads.updateValue(payload, forKey: nonce).map(Self.framedSize) ?? 0)
            }
        }
    }

    /// Reads a version 1 document; a nonce listed twice keeps its settled record.
    private func readLegacy(_ document: LegacyDocument, size: Int) throws(ChargeKitError) {
        var chosen: [String: PendingCharge] = [:]
        for charge in document.contents {
            let nonce = charge.nonce.value
            if let kept = chosen[nonce], kept.consumedAt != nil || charge.consumedAt == nil { continue }
            chosen[nonce] = charge
        }
        entries = LedgerEntries(Array(chosen.values))
        for charge in entries.sorted {
            let payload = try Self.encode(Record(put: charge))
            payloads[charge.nonce.value] = payload
            liveBytes += Self.framedSize(payload)
        }
        format = .document
        offset = size
        mustRewrite = true
        maskCardNumbers()
    }

    // MARK: Writing

    /// `generation` (16 hex digits), the checksum (8), the record, a line feed.
    static let frameOverhead = 16 + 1 + 8 + 1 + 1

    static func framedSize(_ payload: Data) -> Int { payload.count + frameOverhead }

    static func frame(_ payload: Data, generation: UInt64) -> Data {
        let prefix = hex(generation, digits: 16)
        let checksum = CRC32C.checksum(payload, continuing: CRC32C.checksum(prefix.utf8))
        var framed = Data((prefix + " " + hex(UInt64(checksum), digits: 8) + " ").utf8)
        framed.reserveCapacity(framedSize(payload))
        framed += payload
        framed.append(0x0A)
        return framed
    }

    /// The generation of a framed line whose checksum is right, or `nil`.
    static func framedGeneration(_ line: Data) -> UInt64? {
        guard line.count >= frameOverhead - 1 else { return nil }
        let start = line.startIndex
        guard line[start + 16] == 0x20, line[start + 25] == 0x20,
              let prefix = String(bytes: line[start..<start + 16], encoding: .ascii), let generation = UInt64(prefix, radix: 16),
              let sum = String(bytes: line[start + 17..<start + 25], encoding: .ascii), let checksum = UInt32(sum, radix: 16),
              CRC32C.checksum(line[(start + 26)...], continuing: CRC32C.checksum(prefix.utf8)) == checksum else { return nil }
        return generation
    }

    static func hex(_ value: UInt64, digits: Int) -> String {
        let text = String(value, radix: 16)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }

    static func header(generation: UInt64) -> Data {
        Data(#"{"chargekit":"ledger-journal","generation":"\#(hex(generation, digits: 16))","version":\#(version)}"#.utf8) + Data([0x0A])
    }

    private static func encode(_ record: Record) throws(ChargeKitError) -> Data {
        do {
            return try JSONEncoder.storage.encode(record)
        } catch {
            throw .storage("cannot encode a ledger record: \(error)")
        }
    }

    /// Writes every entry's latest record to a new file of a new generation and renames
    /// it over the journal; a damaged file is kept beside it first.
    private func rewrite(maximumFileSize: Int) throws(ChargeKitError) {
        var generation = UInt64.random(in: 1...UInt64.max)
        if case .framed(let old) = format, old == generation { generation &+= 1 }
        var data = Self.header(generation: generation)
        var positions: [String: Int] = [:]
        for charge in entries.sorted {
            guard let payload = payloads[charge.nonce.value] else { continue }
            positions[charge.nonce.value] = data.count
            data += Self.frame(payload, generation: generation)
        }
        guard data.count <= maximumFileSize else {
            throw .storageFull("the ledger would be \(data.count) bytes, more than its bound of \(maximumFileSize)")
        }
        if !found.isEmpty, let handle { try keepDamagedCopy(handle) }
        sweepTemporaryFiles()
        let folder = (path as NSString).deletingLastPathComponent
        let name = (path as NSString).lastPathComponent
        let temporary = (folder as NSString).appendingPathComponent(".\(name).\(fileSystem.processID).\(UInt32.random(in: 0...UInt32.max)).tmp")
        let created = try fileSystem.createNew(temporary)
        do throws(ChargeKitError) {
            try fileSystem.write(data, to: created, at: 0, path: temporary)
            if faults.contains(.renameBeforeSync) {
                try fileSystem.rename(temporary, to: path)
                try fileSystem.sync(created, path: temporary)
            } else {
                try fileSystem.sync(created, path: temporary)
                try fileSystem.rename(temporary, to: path)
            }
        } catch {
            fileSystem.close(created)
            fileSystem.remove(temporary)
            throw error
        }
        fileSystem.syncFolder(of: path)
        if let handle { fileSystem.close(handle) }
        handle = created
        format = .framed(generation: generation)
        lastRecord = positions
        offset = data.count
        fileSize = offset
        found = []
        mustRewrite = false
    }

    /// Copies the damaged file to `<file>.damaged-<generation>` before it is replaced.
    private func keepDamagedCopy(_ handle: Int32) throws(ChargeKitError) {
        let bytes = try fileSystem.read(handle, at: 0, count: fileSize, path: path)
        var label = "v2"
        if case .framed(let generation) = format { label = Self.hex(generation, digits: 16) }
        var copy = path + ".damaged-" + label
        if fileSystem.names(inFolderOf: path).contains((copy as NSString).lastPathComponent) {
            copy += "-" + Self.hex(UInt64(UInt32.random(in: 0...UInt32.max)), digits: 8)
        }
        let created = try fileSystem.createNew(copy)
        defer { fileSystem.close(created) }
        try fileSystem.write(bytes, to: created, at: 0, path: copy)
        try fileSystem.sync(created, path: copy)
        fileSystem.syncFolder(of: copy)
    }

    /// Removes the temporary files of compactions killed before their rename. Called only
    /// under the exclusive lock, which a live writer holds for as long as its temporary
    /// file exists: any other one left is a dead writer's.
    private func sweepTemporaryFiles() {
        let prefix = "." + (path as NSString).lastPathComponent + "."
        let folder = (path as NSString).deletingLastPathComponent
        for name in fileSystem.names(inFolderOf: path) where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            fileSystem.remove((folder as NSString).appendingPathComponent(name))
        }
    }
}

/// Damage found in a ledger's file: bytes between intact records that are not one.
public struct LedgerDamage: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The damaged file.
    public let path: String
    /// Where the damaged bytes start.
    public let offset: Int
    /// How many bytes are damaged.
    public let byteCount: Int

    /// The file, and where and how many bytes are damaged.
    public var description: String { "\(path): \(byteCount) damaged bytes at byte \(offset)" }
}
