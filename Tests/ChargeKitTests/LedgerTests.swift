@_spi(Tools) @testable import ChargeKit
import ChargeKitSimulators
import Foundation
import Testing

@Suite struct LedgerTests {
    /// Issues a hand-off of `order` to `played`: its charge and request URL.
    func issue(_ ledger: ChargeLedger, _ order: ChargeOrder, to played: PlayedApp = example) async throws -> (PendingCharge, String) {
        let (charge, handoff) = try await ledger.issue { nonce throws(ChargeKitError) in try played.app.handoff(for: order, nonce: nonce) }
        return (charge, handoff.url)
    }

    @Test func approvedCallbackIsAcceptedOnceThenReplayIsRefused() async throws {
        let ledger = ChargeLedger()
        let (charge, url) = try await issue(ledger, example.order(5000))
        #expect(charge.request.amount == Money(minorUnits: 5000, currency: example.currency))
        let callback = try answer(url)
        let result = try await ledger.verify(url: callback)
        #expect(result.outcome == .approved)
        #expect(result.charge.nonce == charge.nonce)
        #expect(result.flags.isEmpty)
        await #expect(throws: ChargeKitError.replayedNonce) { try await ledger.verify(url: callback) }
        #expect(try await ledger.outstanding().isEmpty)
    }

    @Test func expiredChargesAreRefused() async throws {
        let clock = TestClock()
        let ledger = ChargeLedger(timeToLive: 60, now: { clock.now })
        let (_, url) = try await issue(ledger, example.order())
        let callback = try answer(url)
        clock.advance(61)
        await #expect(throws: ChargeKitError.expiredNonce) { try await ledger.verify(url: callback) }
        #expect(try await ledger.outstanding().isEmpty)
    }

    @Test func twoChargesOutstandingAnsweredOutOfOrder() async throws {
        let ledger = ChargeLedger()
        let (first, firstURL) = try await issue(ledger, example.order(1000))
        let (second, secondURL) = try await issue(ledger, example.order(2000))
        #expect(try await ledger.outstanding().count == 2)
        let secondResult = try await ledger.verify(url: answer(secondURL, .failed))
        #expect(secondResult.charge.nonce == second.nonce)
        #expect(secondResult.outcome == .failed)
        #expect(try await ledger.outstanding().map(\.nonce) == [first.nonce])
        let firstResult = try await ledger.verify(url: answer(firstURL))
        #expect(firstResult.charge.nonce == first.nonce && firstResult.outcome == .approved)
        #expect(firstResult.charge.request.amount == Money(minorUnits: 1000, currency: example.currency))
    }

    @Test func fileLedgerSurvivesARestart() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-\(UUID().uuidString)/ledger.json")
        defer { try? FileManager.default.removeItem(at: path.deletingLastPathComponent()) }
        let url: String
        do {
            let ledger = ChargeLedger(store: FileLedgerStore(fileURL: path))
            (_, url) = try await issue(ledger, example.order(5000))
            _ = try await issue(ledger, example.order(700))
        }
        let callback = try answer(url)
        let restarted = ChargeLedger(store: FileLedgerStore(fileURL: path))
        #expect(try await restarted.outstanding().count == 2)
        let result = try await restarted.verify(url: callback)
        #expect(result.outcome == .approved)
        #expect(result.charge.request.amount == Money(minorUnits: 5000, currency: example.currency))
        let again = ChargeLedger(store: FileLedgerStore(fileURL: path))
        await #expect(throws: ChargeKitError.replayedNonce) { try await again.verify(url: callback) }
        #expect(try await again.outstanding().count == 1)
    }

    @Test func corruptLedgerFileIsAStorageError() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-\(UUID().uuidString)/ledger.json")
        defer { try? FileManager.default.removeItem(at: path.deletingLastPathComponent()) }
        try FileManager.default.createDirectory(at: path.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("{not json".utf8).write(to: path)
        let ledger = ChargeLedger(store: FileLedgerStore(fileURL: path))
        await #expect(throws: ChargeKitError.self) { try await ledger.outstanding() }
    }

    @Test func concurrentIssuesAllRecorded() async throws {
        let ledger = ChargeLedger()
        let order = example.order()
        let nonces = try await withThrowingTaskGroup(of: Nonce.self) { group in
            for _ in 0..<50 {
                group.addTask { try await ledger.issue { nonce throws(ChargeKitError) in try example.app.handoff(for: order, nonce: nonce) }.charge.nonce }
            }
            return try await group.reduce(into: Set<Nonce>()) { $0.insert($1) }
        }
        #expect(nonces.count == 50)
        #expect(try await ledger.outstanding().count == 50)
    }
}

/// The stored form of a pending charge: the request whole, and an entry written before
/// (its request's fields beside the nonce) still read and verified.
@Suite struct PendingChargeStorageTests {
    @Test func anEntryInTheEarlierFlatFormReadsAndVerifies() async throws {
        let ledger = ChargeLedger()
        let played = try #require(appsKeepingExtras.first)
        let asked = played.order(extras: [QueryItem("record_id", "123")])
        let (charge, request) = try await ledger.issue { nonce throws(ChargeKitError) in try played.app.handoff(for: asked, nonce: nonce) }
        let encoded = try JSONEncoder().encode(charge)
        var object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        let inner = try #require(object.removeValue(forKey: "request") as? [String: Any])
        #expect(inner["url"] as? String == request.url, "a short request URL is kept")
        for (key, value) in inner where key != "url" { object[key] = value }
        let flat = try JSONDecoder().decode(PendingCharge.self, from: try JSONSerialization.data(withJSONObject: object))
        #expect(flat.nonce == charge.nonce && flat.request.url.isEmpty)
        var expected = charge.request
        expected.url = ""
        #expect(flat.request == expected && flat.createdAt == charge.createdAt && flat.expiresAt == charge.expiresAt)

        let store = InMemoryLedgerStore()
        try await store.insert(flat, now: flat.createdAt, retention: 60)
        let callback = try answer(request.url)
        let result = try await ChargeLedger(store: store).verify(url: callback)
        #expect(result.outcome == .approved && result.charge.request.extras == [QueryItem("record_id", "123")])
    }

    @Test func aLongRequestURLIsNotKept() throws {
        var request = try example.app.handoff(for: example.order(), nonce: Nonce.random())
        request.url += "&pad=" + String(repeating: "x", count: HandoffRequest.maximumKeptURLLength)
        let decoded = try JSONDecoder().decode(HandoffRequest.self, from: JSONEncoder().encode(request))
        #expect(decoded.url.isEmpty && decoded.callbackURLs == request.callbackURLs)
    }
}
