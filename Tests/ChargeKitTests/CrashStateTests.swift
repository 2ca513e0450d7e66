@_spi(Tools) @testable import ChargeKit
import Foundation
import Testing

/// The file ledger against what a power cut or a bad block leaves on disk, as SQLite's
/// crash tests and the ALICE study test storage.
///
/// A workload (issues, verifies, resolves, prunes and several compactions) is played
/// by two journals as two processes have them, over a ``ModelDisk`` that records every
/// call. The checker then rebuilds file states and reopens the ledger in each:
///
/// - **Crash states**, at every point of the workload: what was synced, plus any subset
///   of the writes not yet synced, plus a prefix of the folder changes not yet synced
///   (a journaling file system commits them in order), plus the last unsynced write
///   torn at every 512-byte boundary. Rules: the ledger opens; every entry has the state
///   the last acknowledged step left it in, or the one the step under way was writing;
///   no other entry appears; no damage is reported.
/// - **Damage states**, after every third step: one synced 4 KiB block of the journal replaced
///   by zeros or by its file's content after the step before. Rules: the ledger opens; the
///   damage is reported; no settled entry reads as outstanding (fail closed); every
///   entry whose latest record lies after the damaged block is read as it was.
///
/// `CHARGEKIT_CRASH_SEEDS` plays more workloads (each about 3 500 states).
@Suite("Crash and damage states of the file ledger")
struct CrashStateTests {
    @Test("Every crash and damage state of two processes' workload opens with no acknowledged step lost")
    func crashAndDamageStates() async throws {
        let seeds = Int(ProcessInfo.processInfo.environment["CHARGEKIT_CRASH_SEEDS"] ?? "") ?? 8
        var total = CrashReport()
        for seed in 0..<seeds {
            let report = try await CrashChecker.run(seed: UInt64(seed) + 1, steps: 600)
            total.add(report)
        }
        print("crash-state checker: \(total.crashStates) crash states and \(total.damageStates) damage states checked, "
              + "\(total.compactions) compactions, \(total.violations.count) violations")
        #expect(total.violations.isEmpty, "\(total.violations.prefix(5))")
        #expect(total.crashStates >= 10_000 && total.damageStates >= 5_000, "too few states: \(total.crashStates), \(total.damageStates)")
        #expect(total.compactions >= 2 * seeds, "the workload compacted only \(total.compactions) times")
    }

    @Test("The checker finds a compaction that renames its file over the journal before syncing it")
    func renameBeforeSyncIsFound() async throws {
        let report = try await CrashChecker.run(seed: 7, steps: 80, faults: [.renameBeforeSync], damage: false)
        #expect(!report.violations.isEmpty, "a planted bug went unnoticed: the checker proves nothing")
        #expect(report.violations.contains { $0.contains("crash state") })
    }

    @Test("The checker finds a reader that keeps reading a journal a compaction replaced")
    func ignoringReplacementIsFound() async throws {
        let report = try await CrashChecker.run(seed: 7, steps: 80, faults: [.ignoreReplacement], damage: false)
        #expect(!report.violations.isEmpty, "a planted bug went unnoticed: the checker proves nothing")
        print("planted ignoreReplacement: \(report.violations.count) violations, first: \(report.violations.first ?? "-")")
    }

    @Test("The model reuses inode numbers as ext4 does: two compactions in a row give the journal its first number back")
    func theModelReusesInodeNumbers() throws {
        let disk = ModelDisk()
        let process = disk.process(1)
        let first = try #require(try process.open("/l/j", create: true))
        process.close(first)
        let number = disk.number(at: "/l/j")
        for index in 0..<2 {
            let created = try process.createNew("/l/t\(index)")
            try process.rename("/l/t\(index)", to: "/l/j")
            process.close(created)
        }
        #expect(disk.number(at: "/l/j") == number)
    }
}

struct CrashReport {
    var crashStates = 0
    var damageStates = 0
    var compactions = 0
    var violations: [String] = []

    mutating func add(_ other: CrashReport) {
        crashStates += other.crashStates
        damageStates += other.damageStates
        compactions += other.compactions
        violations += other.violations
    }
}

/// Plays the workload and checks every state it can leave.
enum CrashChecker {
    static let path = "/ledger/ledger.json"
    static let maximumFileSize = 20 * 1024

    static func run(seed: UInt64, steps: Int, faults: Set<LedgerJournal.Fault> = [], damage: Bool = true) async throws -> CrashReport {
        let disk = ModelDisk()
        let journals = [
            LedgerJournal(path: path, fileSystem: disk.process(101), faults: faults),
            LedgerJournal(path: path, fileSystem: disk.process(202), faults: faults),
        ]
        let stores = journals.map { FileLedgerStore(journal: $0, maximumFileSize: maximumFileSize) }
        var random = SplitMix64(state: seed)
        var report = CrashReport()
        var now = Date(timeIntervalSince1970: 1_900_000_000)
        let retention: TimeInterval = 3600
        var nonces: [Nonce] = []
        var accepted: [String: Int] = [:]
        // The entries after each step, as the process that made it holds them.
        var snapshots: [[String: PendingCharge]] = []
        var current: [String: PendingCharge] = [:]
        // An app that keeps extras, so that an entry spans more than a few hundred bytes.
        let played = try #require(appsKeepingExtras.first)
        let order = played.order(1234, extras: [QueryItem("record_id", String(repeating: "r", count: 200))])
        for step in 0..<steps {
            let process = Int(random.next() % 2)
            let store = stores[process]
            disk.mark(.stepStart(step))
            var changed = true
            switch random.next() % 20 {
            case 0..<9:
                var nonceGenerator = random
                let nonce = Nonce.random(using: &nonceGenerator)
                random = nonceGenerator
                let charge = PendingCharge(nonce: nonce, request: try played.app.handoff(for: order, nonce: nonce), createdAt: now, timeToLive: 1800)
                do throws(ChargeKitError) {
                    try await store.insert(charge, now: now, retention: retention)
                    nonces.append(nonce)
                } catch { changed = false }
            case 9..<16 where !nonces.isEmpty:
                // A callback, for any nonce issued so far: replays and late ones included.
                let nonce = nonces[Int(random.next() % UInt64(nonces.count))]
                do throws(ChargeKitError) {
                    _ = try await store.consume(nonce, at: now, accepting: nil)
                    accepted[nonce.value, default: 0] += 1
                    if accepted[nonce.value] == 2 { report.violations.append("seed \(seed) step \(step): \(nonce.value) accepted twice") }
                } catch { changed = false }
            case 16..<18 where !nonces.isEmpty:
                let nonce = nonces[Int(random.next() % UInt64(nonces.count))]
                do throws(ChargeKitError) {
                    _ = try await store.resolve(nonce, as: try Resolution(outcome: .declined, note: "checked", resolvedAt: now))
                } catch { changed = false }
            default:
                now = now.addingTimeInterval(Double(random.next() % 2400))
                changed = false
            }
            if changed { current = journals[process].entriesInMemory }
            snapshots.append(current)
            disk.mark(.stepEnd(step))
        }
        report.compactions = disk.log.filter { if case .rename(_, let to) = $0 { return to == path } else { return false } }.count
        check(disk.log, snapshots: snapshots, seed: seed, damage: damage, into: &report)
        return report
    }

    // MARK: States

    /// What is durable, and what is not yet, at one point of the log.
    struct Replay {
        var contents: [Int: [UInt8]] = [:]
        var directory: [String: Int] = [:]
        var pendingData: [ModelDisk.Op] = []
        var pendingFolder: [ModelDisk.Op] = []

        mutating func play(_ op: ModelDisk.Op) {
            switch op {
            case .create(_, let object):
                if contents[object] == nil { contents[object] = [] }
                pendingFolder.append(op)
            case .rename, .remove:
                pendingFolder.append(op)
            case .write, .truncate:
                pendingData.append(op)
            case .sync(let object):
                for pending in pendingData where Self.object(of: pending) == object { ModelDisk.apply(pending, to: &contents) }
                pendingData.removeAll { Self.object(of: $0) == object }
            case .syncFolder:
                for pending in pendingFolder { Self.apply(pending, to: &directory) }
                pendingFolder = []
            case .stepStart, .stepEnd:
                break
            }
        }

        static func object(of op: ModelDisk.Op) -> Int? {
            switch op {
            case .write(let object, _, _), .truncate(let object, _): object
            default: nil
            }
        }

        static func apply(_ op: ModelDisk.Op, to directory: inout [String: Int]) {
            switch op {
            case .create(let path, let object): directory[path] = object
            case .rename(let from, let to):
                if let object = directory.removeValue(forKey: from) { directory[to] = object }
            case .remove(let path): directory[path] = nil
            default: break
            }
        }

        /// The files as a crash leaves them: `data` of the pending writes applied (the last
        /// of them cut to `tear` bytes when given), the first `folder` folder changes.
        func state(data: [Int], tear: Int?, folder: Int) -> [String: [UInt8]] {
            var contents = self.contents
            var directory = self.directory
            for (position, index) in data.enumerated() {
                var op = pendingData[index]
                if position == data.count - 1, let tear, case .write(let object, let offset, let bytes) = op {
                    op = .write(object: object, offset: offset, bytes: Array(bytes.prefix(tear)))
                }
                ModelDisk.apply(op, to: &contents)
            }
            for op in pendingFolder.prefix(folder) { Self.apply(op, to: &directory) }
            var files: [String: [UInt8]] = [:]
            for (path, object) in directory { files[path] = contents[object] ?? [] }
            return files
        }
    }

    static func check(_ log: [ModelDisk.Op], snapshots: [[String: PendingCharge]], seed: UInt64, damage: Bool, into report: inout CrashReport) {
        var replay = Replay()
        var acknowledged = -1
        var underWay: Int?
        var previous: (object: Int?, bytes: [UInt8]?) = (nil, nil)
        for (index, op) in log.enumerated() {
            replay.play(op)
            switch op {
            case .stepStart(let step):
                underWay = step
                continue
            case .stepEnd(let step):
                acknowledged = step
                underWay = nil
                if damage && step % 3 == 0 {
                    // The earlier content of a block is its own file's: a file a compaction
                    // made had none (zeros, the other variant).
                    let synced = replay.state(data: [], tear: nil, folder: 0)[path]
                    let object = replay.directory[path]
                    checkDamage(synced, earlier: object == previous.object ? previous.bytes : nil, expected: snapshots[step],
                                label: "seed \(seed) after step \(step)", into: &report)
                    previous = (object, synced)
                }
                continue
            default:
                break
            }
            let before = acknowledged >= 0 ? snapshots[acknowledged] : [:]
            let after = underWay.map { snapshots[$0] } ?? before
            var seen = Set<[UInt8]>()
            for (data, tear) in crashChoices(replay) {
                for folder in 0...replay.pendingFolder.count {
                    let files = replay.state(data: data, tear: tear, folder: folder)
                    guard seen.insert(Array((files[path] ?? []) + [UInt8(folder)])).inserted else { continue }
                    report.crashStates += 1
                    checkCrash(files, before: before, after: after, label: "seed \(seed) crash state at op \(index)", into: &report)
                }
            }
        }
    }

    /// Every subset of the unsynced writes (in order), and for the last write of each,
    /// every 512-byte boundary it could have been torn at.
    static func crashChoices(_ replay: Replay) -> [([Int], Int?)] {
        let count = min(replay.pendingData.count, 6)
        let first = replay.pendingData.count - count
        var choices: [([Int], Int?)] = []
        for mask in 0..<(1 << count) {
            let chosen = (0..<count).filter { mask & (1 << $0) != 0 }.map { first + $0 }
            choices.append((chosen, nil))
            if let last = chosen.last, case .write(_, let offset, let bytes) = replay.pendingData[last] {
                var boundary = (offset / 512 + 1) * 512
                while boundary < offset + bytes.count {
                    choices.append((chosen, boundary - offset))
                    boundary += 512
                }
            }
        }
        return choices
    }

    static func reopen(_ files: [String: [UInt8]]) throws(ChargeKitError) -> (entries: [String: PendingCharge], damage: [LedgerDamage]) {
        let journal = LedgerJournal(path: path, fileSystem: ModelDisk(files: files).process(303))
        return try journal.read(maximumFileSize: maximumFileSize) { entries, damage in (entries.byNonce, damage) }
    }

    static func checkCrash(_ files: [String: [UInt8]], before: [String: PendingCharge], after: [String: PendingCharge],
                           label: String, into report: inout CrashReport) {
        let reopened: [String: PendingCharge]
        do throws(ChargeKitError) {
            let read = try reopen(files)
            guard read.damage.isEmpty else {
                report.violations.append("\(label): damage reported \(read.damage)")
                return
            }
            reopened = read.entries
        } catch {
            report.violations.append("\(label): the ledger does not open: \(error)")
            return
        }
        for nonce in Set(before.keys).union(after.keys).union(reopened.keys) {
            let found = reopened[nonce]
            guard found == before[nonce] || found == after[nonce] else {
                let state = { (charge: PendingCharge?) in charge.map { $0.consumedAt == nil ? "outstanding" : "settled" } ?? "absent" }
                report.violations.append("\(label): \(nonce) reads \(state(found)); acknowledged \(state(before[nonce])), being written \(state(after[nonce]))")
                return
            }
        }
    }

    static func checkDamage(_ synced: [UInt8]?, earlier: [UInt8]?, expected: [String: PendingCharge], label: String, into report: inout CrashReport) {
        guard let synced else { return }
        let block = 4096
        for start in stride(from: 0, to: synced.count, by: block) {
            let end = min(synced.count, start + block)
            var variants: [(String, [UInt8])] = [("zeros", [UInt8](repeating: 0, count: end - start))]
            if let earlier {
                var old = start < earlier.count ? Array(earlier[start..<min(earlier.count, end)]) : []
                old += [UInt8](repeating: 0, count: end - start - old.count)
                variants.append(("earlier content", old))
            }
            for (kind, bytes) in variants where bytes != Array(synced[start..<end]) {
                var damaged = synced
                damaged.replaceSubrange(start..<end, with: bytes)
                report.damageStates += 1
                let where_ = "\(label), block at \(start) replaced by \(kind)"
                let read: (entries: [String: PendingCharge], damage: [LedgerDamage])
                do throws(ChargeKitError) { read = try reopen([path: damaged]) } catch {
                    report.violations.append("\(where_): the ledger does not open: \(error)")
                    continue
                }
                if read.damage.isEmpty { report.violations.append("\(where_): no damage reported") }
                for (nonce, charge) in expected {
                    let found = read.entries[nonce]
                    if charge.consumedAt != nil, let found, found.consumedAt == nil, found.damage == nil {
                        report.violations.append("\(where_): settled \(nonce) reads as outstanding")
                    }
                    if let record = recordStart(of: nonce, in: synced), record >= end, found != charge {
                        report.violations.append("\(where_): \(nonce), recorded after the damage, reads \(String(describing: found?.consumedAt))")
                    }
                }
                // A lost record that dropped settled entries brings them back: settled, or
                // marked as of unknown state, never as outstanding.
                for (nonce, found) in read.entries where expected[nonce] == nil && found.consumedAt == nil && found.damage == nil {
                    report.violations.append("\(where_): \(nonce) appears from nowhere, outstanding")
                }
            }
        }
    }

    /// Where the line of the latest record of `nonce` starts in `bytes`.
    static func recordStart(of nonce: String, in bytes: [UInt8]) -> Int? {
        let needle = Array(#""nonce":"\#(nonce)""#.utf8)
        guard bytes.count >= needle.count else { return nil }
        var index = bytes.count - needle.count
        while index >= 0 {
            if bytes[index] == needle[0], Array(bytes[index..<index + needle.count]) == needle {
                var start = index
                while start > 0, bytes[start - 1] != 0x0A { start -= 1 }
                return start
            }
            index -= 1
        }
        return nil
    }
}
