@_spi(Tools) @testable import ChargeKit
import ChargeKitSimulators
import Foundation
import Testing
import ChargeKitPlatform

/// The file ledger against real files: damage, the formats of earlier versions, hard
/// links, the platform's sync, and steps that wait without holding the app's threads.
@Suite("File ledger on disk")
struct LedgerFileTests {

    func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-file-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        return url
    }

    /// A store with a journal of its own, as another process would have.
    static func newProcessStore(_ file: URL) -> FileLedgerStore {
        FileLedgerStore(journal: LedgerJournal(path: file.path, fileSystem: SystemFileSystem.shared), maximumFileSize: 8 * 1024 * 1024)
    }

    func issue(_ ledger: ChargeLedger, note: String = "") async throws -> String {
        // An app that keeps extras, so that each entry is long enough to span the blocks damaged.
        let played = try #require(appsKeepingExtras.first)
        let order = played.order(extras: [QueryItem("record_id", "r" + note + String(repeating: "x", count: 300))])
        return try await ledger.issue { nonce throws(ChargeKitError) in try played.app.handoff(for: order, nonce: nonce) }.request.url
    }

    @Test("A zeroed block in the middle: the ledger opens, intact entries verify, the damaged ones are refused and listed, and settle by hand")
    func aZeroedBlockInTheMiddle() async throws {
        let file = try folder().appendingPathComponent("ledger.json")
        let ledger = ChargeLedger(store: FileLedgerStore(fileURL: file))
        var urls: [String] = []
        for index in 0..<24 { urls.append(try await issue(ledger, note: "\(index)")) }
        let bytes = try Data(contentsOf: file)
        #expect(bytes.count > 3 * 4096, "the ledger is too small to damage its middle: \(bytes.count) bytes")
        // A power cut or a bad sector: the second 4 KiB block reads as zeros.
        var damaged = bytes
        damaged.replaceSubrange(4096..<8192, with: Data(count: 4096))
        try damaged.write(to: file)

        // Opened as a new process opens it (this process's journal knows the file as it was).
        let store = Self.newProcessStore(file)
        let reopened = ChargeLedger(store: store)
        let damage = try await store.damage()
        #expect(damage.count == 1)
        #expect(damage.first.map { $0.offset <= 4096 && $0.offset + $0.byteCount >= 8192 } == true, "\(damage)")
        let unanswered = try await reopened.unanswered()
        let marked = unanswered.filter { $0.damage != nil }
        #expect(!marked.isEmpty, "no entry was marked as of unknown state")
        // Entries recorded after the damage verify as usual; the last one certainly is.
        let result = try await reopened.verify(url: try answer(try #require(urls.last), .approved))
        #expect(result.outcome == .approved)
        // An entry recorded before the damage is refused, never accepted.
        let first = try #require(marked.first)
        let firstURL = try #require(urls.first { $0.contains(first.nonce.value) })
        await #expect(throws: ChargeKitError.self) { try await reopened.verify(url: try answer(firstURL, .approved)) }
        // The write above kept the damaged file beside the ledger and rewrote it; the
        // marks remain, and a damaged entry is settled by hand like any lost hand-off.
        let names = try FileManager.default.contentsOfDirectory(atPath: file.deletingLastPathComponent().path)
        #expect(names.contains { $0.hasPrefix("ledger.json.damaged-") }, "\(names)")
        #expect(try await store.damage().isEmpty)
        #expect(try await reopened.unanswered().filter { $0.damage != nil }.count == marked.count)
        let settled = try await reopened.resolve(first.nonce, as: .approved, note: "in the app's history")
        #expect(settled.resolution?.outcome == .approved)
        // Entries whose records were lost with the block are unknown: refused as forged.
        let lost = urls.filter { url in !unanswered.contains { url.contains($0.nonce.value) } }
        for url in lost {
            await #expect(throws: ChargeKitError.unknownNonce) { try await reopened.verify(url: try answer(url, .approved)) }
        }
    }

    @Test("A version 2 journal (no checksums) opens and is rewritten as version 3 by its first change")
    func aVersionTwoJournalMigrates() async throws {
        let file = try folder().appendingPathComponent("ledger.json")
        let oldStore = InMemoryLedgerStore()
        let old = ChargeLedger(store: oldStore)
        let first = try await issue(old)
        let second = try await issue(old)
        _ = try await old.verify(url: try answer(second, .declined))
        // As version 2 wrote it: a header, then one JSON record a line.
        var lines = [#"{"chargekit":"ledger-journal","version":2}"#]
        for charge in await oldStore.charges() {
            lines.append(#"{"put":"# + String(decoding: try JSONEncoder.storage.encode(charge), as: UTF8.self) + "}")
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)

        let ledger = ChargeLedger(store: FileLedgerStore(fileURL: file))
        #expect(try await ledger.unanswered().count == 1)
        await #expect(throws: ChargeKitError.replayedNonce) { try await ledger.verify(url: try answer(second, .declined)) }
        _ = try await ledger.verify(url: try answer(first, .approved))
        let migrated = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        #expect(migrated.hasPrefix(#"{"chargekit":"ledger-journal","generation":""#) && migrated.contains(#""version":3}"#))
        #expect(try await ChargeLedger(store: Self.newProcessStore(file)).unanswered().isEmpty)
    }

    @Test("A version 1 document listing a nonce twice (pending, then consumed) migrates as consumed")
    func aVersionOneDocumentKeepsTheSettledRecord() async throws {
        let file = try folder().appendingPathComponent("ledger.json")
        let oldStore = InMemoryLedgerStore()
        let old = ChargeLedger(store: oldStore)
        let url = try await issue(old)
        let pending = try #require(await oldStore.charges().first)
        _ = try await old.verify(url: try answer(url, .approved))
        let consumed = try #require(await oldStore.charges().first)
        struct Document: Encodable { var contents: [PendingCharge]; var version = 1 }
        try JSONEncoder.storage.encode(Document(contents: [pending, consumed])).write(to: file)

        let ledger = ChargeLedger(store: FileLedgerStore(fileURL: file))
        #expect(try await ledger.unanswered().isEmpty)
        await #expect(throws: ChargeKitError.replayedNonce) { try await ledger.verify(url: try answer(url, .approved)) }
    }

    @Test("A ledger with a second name (a hard link) is refused, naming the other name")
    func aHardLinkedLedgerIsRefused() async throws {
        let base = try folder()
        let file = base.appendingPathComponent("ledger.json")
        let ledger = ChargeLedger(store: FileLedgerStore(fileURL: file))
        _ = try await issue(ledger)
        let second = base.appendingPathComponent("copy.json")
        #expect(link(file.path, second.path) == 0)
        do {
            _ = try await FileLedgerStore(fileURL: second).charges()
            Issue.record("a hard-linked ledger was opened")
        } catch {
            #expect(error.description.contains("hard link") && error.description.contains(file.path), "\(error.description)")
        }
        // The process that had it open notices too.
        await #expect(throws: ChargeKitError.self) { _ = try await issue(ledger) }
    }

    @Test("Apple platforms flush the drive's cache (F_FULLFSYNC, then fsync where it is refused); Linux uses fdatasync")
    func theSyncMatchesThePlatform() {
        #expect(DurableSync.plan(onApplePlatform: true) == [.fullFsync, .fsync])
        #expect(DurableSync.plan(onApplePlatform: false) == [.fdatasync])
        #if canImport(Darwin)
        #expect(DurableSync.platformPlan == [.fullFsync, .fsync])
        #else
        #expect(DurableSync.platformPlan == [.fdatasync])
        #endif
    }

    @Test("Steps waiting for another process's lock hold none of the threads that run the app's tasks")
    func lockWaitsLeaveThePoolFree() async throws {
        let file = try folder().appendingPathComponent("ledger.json")
        let store = FileLedgerStore(fileURL: file)
        let ledger = ChargeLedger(store: store)
        _ = try await issue(ledger)
        // Another open file description of the lock, as another process has: its flock
        // excludes this process's.
        let other = open(file.path + ".lock", O_RDWR)
        #expect(other >= 0)
        #expect(flock(other, LOCK_EX) == 0)
        let released = Flag()
        // Released from a thread of its own after a while, so that today's code (steps
        // blocking the pool) finishes rather than hangs, and the order tells.
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 3)
            released.set()
            flock(other, LOCK_UN)
            close(other)
        }
        let steps = ProcessInfo.processInfo.activeProcessorCount + 2
        let blocked = Task {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<steps { group.addTask { _ = try await store.charges() } }
                try await group.waitForAll()
            }
        }
        try await Task.sleep(nanoseconds: 200_000_000)
        // Work that needs a pool thread: as many tasks as there are threads, each a hop.
        let probe = await withTaskGroup(of: Int.self) { group in
            for index in 0..<steps { group.addTask { await Task.yield(); return index } }
            return await group.reduce(0) { $0 + $1 }
        }
        #expect(probe == (0..<steps).reduce(0, +))
        #expect(!released.isSet, "the app's tasks ran only once the lock was released: steps held the pool")
        try await blocked.value
    }

    @Test("A process keeps a ledger's lock and journal open while a store uses them, and closes both once the last store is gone")
    func descriptorsCloseWithTheLastStore() async throws {
        guard FileManager.default.fileExists(atPath: "/proc/self/fd") else { try Test.cancel("could not run: no /proc/self/fd here") }
        let file = try folder().appendingPathComponent("ledger.json")
        // This process's descriptors on the ledger's folder (other tests run beside this one).
        let descriptors = {
            ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).filter { fd in
                (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd))?
                    .hasPrefix(file.deletingLastPathComponent().path) == true
            }.count
        }
        let before = descriptors()
        do {
            let ledger = ChargeLedger(store: FileLedgerStore(fileURL: file))
            _ = try await issue(ledger)
            let again = ChargeLedger(store: FileLedgerStore(fileURL: file))
            #expect(try await again.unanswered().count == 1, "a second store in the process shares the first one's journal")
            #expect(descriptors() == before + 2, "the lock and the journal, once: \(descriptors() - before)")
        }
        #expect(descriptors() == before, "descriptors left open: \(descriptors() - before)")
    }
}

final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
