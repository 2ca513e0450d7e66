@_spi(Tools) @testable import ChargeKit
import ChargeKitCommands
import ChargeKitSimulators
import Foundation
import Testing

/// Each test here failed before the ledger looked the nonce up first, recorded the
/// operation, matched callback URLs exactly and shared its store safely.
@Suite struct TrustTests {
    /// The app these tests hand off to: the first registered that takes extras.
    let played = appsKeepingExtras[0]

    func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("trust-\(UUID().uuidString)/ledger.json")
    }

    @Test func aFullLedgerRefusesNewChargesWhileOutstandingOnesKeepVerifying() async throws {
        let file = temporaryFile()
        let store = FileLedgerStore(fileURL: file, maximumFileSize: 16 * 1024)
        let ledger = ChargeLedger(store: store)
        let order = played.order(extras: [QueryItem("note", String(repeating: "x", count: 900))])
        var urls: [String] = []
        var refusal: ChargeKitError?
        for _ in 0..<100 {
            do throws(ChargeKitError) {
                urls.append(try await ledger.issue { nonce throws(ChargeKitError) in try played.app.handoff(for: order, nonce: nonce) }.request.url)
            } catch {
                refusal = error
                break
            }
        }
        guard case .storageFull = try #require(refusal) else { Issue.record("expected storageFull, got \(String(describing: refusal))"); return }
        #expect(urls.count > 3)
        let before = try Data(contentsOf: file)
        await #expect(throws: ChargeKitError.self) { _ = try await ledger.issue { nonce throws(ChargeKitError) in try played.app.handoff(for: order, nonce: nonce) } }
        #expect(try Data(contentsOf: file) == before, "a refused charge changed the file")
        // Every outstanding charge still verifies, and answered ones make room again.
        for url in urls { _ = try await ledger.verify(url: try answer(url, .approved)) }
        _ = try await ledger.issue { nonce throws(ChargeKitError) in try played.app.handoff(for: order, nonce: nonce) }
        #expect(try Data(contentsOf: file).count <= 16 * 1024)
    }

    @Test func aLedgerFileOfTheLastDocumentFormatMigratesToTheJournalOnFirstUse() async throws {
        let file = temporaryFile()
        // Written as the version before the journal wrote it: one JSON document.
        let document = AtomicJSONFile<[PendingCharge]>(fileURL: file, kind: "ledger")
        let old = ChargeLedger(store: InMemoryLedgerStore())
        let order = played.order()
        var urls: [String] = []
        for _ in 0..<3 { urls.append(try await old.issue { nonce throws(ChargeKitError) in try played.app.handoff(for: order, nonce: nonce) }.request.url) }
        try document.save(try await old.unanswered())
        #expect(try Data(contentsOf: file).starts(with: Data(#"{"contents":["#.utf8)))

        let ledger = ChargeLedger(store: FileLedgerStore(fileURL: file))
        #expect(try await ledger.unanswered().count == 3, "the earlier file's entries are not read")
        _ = try await ledger.verify(url: try answer(urls[0], .approved))
        let migrated = try Data(contentsOf: file)
        #expect(migrated.starts(with: Data(#"{"chargekit":"ledger-journal","generation":""#.utf8))
                && String(decoding: migrated.prefix(80), as: UTF8.self).contains(#""version":3}"#), "not rewritten as a journal")
        // Another instance, as another process would, reads the journal: one consumed, two still to answer.
        let reopened = FileLedgerStore(fileURL: file)
        #expect(try await reopened.charges().count == 3)
        for url in urls.dropFirst() { _ = try await ChargeLedger(store: reopened).verify(url: try answer(url, .failed)) }
        await #expect(throws: ChargeKitError.replayedNonce) { try await ledger.verify(url: try answer(urls[0], .approved)) }
    }

    @Test func aJournalCutMidRecordLoadsWithoutItAndTheNextStepCutsItOff() async throws {
        let file = temporaryFile()
        let ledger = ChargeLedger(store: FileLedgerStore(fileURL: file))
        let order = played.order()
        let first = try await ledger.issue { nonce throws(ChargeKitError) in try played.app.handoff(for: order, nonce: nonce) }.request.url
        let whole = try Data(contentsOf: file)
        // A writer killed half-way through its record (never acknowledged): the first half
        // of a record as this version frames it.
        let lastRecord = try #require(whole.dropLast().split(separator: 0x0A).last)
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(lastRecord.prefix(lastRecord.count / 2)))
        try handle.close()
        let other = FileLedgerStore(fileURL: file)
        #expect(try await other.charges().count == 1)
        #expect(try await other.damage().isEmpty, "a torn append is not damage")
        _ = try await ChargeLedger(store: other).verify(url: try answer(first, .approved))
        let after = try Data(contentsOf: file)
        #expect(after.starts(with: whole) && after.count > whole.count && after.last == 0x0A
                && after.split(separator: 0x0A).count == 3, "the half record was not cut off")
        #expect(try await FileLedgerStore(fileURL: file).charges().first?.consumedAt != nil)
    }
}
