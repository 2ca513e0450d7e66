@_spi(Tools) import ChargeKit
import ChargeKitSimulators
import Foundation

/// The behaviour every ``LedgerStore`` must show, written once so that anyone writing
/// a store (a keychain, a database) can run it, as fluent-kit ships `FluentBenchmark`.
///
/// Each check is given `open`, which returns a handle on one fresh storage: calling it
/// twice must give two handles on the *same* data (two instances on one file, two
/// connections to one database), so that the checks can race instances against each
/// other. Checks drive the store through ``ChargeLedger``, the way an app does, and
/// throw ``LedgerStoreConformanceFailure`` naming what went wrong.
///
/// ```swift
/// @Test(arguments: LedgerStoreConformance.checks)
/// func myStoreConforms(check: LedgerStoreConformance.Check) async throws {
///     let url = temporaryFile()
///     try await check.run { MyStore(url: url) }
/// }
/// ```
public enum LedgerStoreConformance {
    /// One behaviour, run against the storage `open` gives handles on.
    public typealias Check = ConformanceCheck<@Sendable () async throws -> any LedgerStore>

    /// Every check.
    public static let checks: [Check] = [
        Check(name: "issued charges are kept and found by nonce", body: issuedChargesAreKept),
        Check(name: "a callback is accepted once, then refused as a replay", body: acceptedOnce),
        Check(name: "ledgers racing on one storage accept a callback exactly once", body: racingLedgers),
        Check(name: "a second handle sees and settles what the first issued", body: secondHandle),
        Check(name: "an unknown nonce is refused and changes nothing", body: unknownNonce),
        Check(name: "a charge past its time to live is refused as expired", body: expired),
        Check(name: "settled entries are dropped after the retention", body: retention),
        Check(name: "a nonce is stored at most once", body: duplicateNonce),
        Check(name: "many outstanding charges each verify once, in any order", body: manyOutstanding),
        Check(name: "a hand-off settled by hand keeps its note, and a later callback is refused naming it", body: settledByHand),
        Check(name: "ledgers racing to settle by hand and to accept the callback settle it exactly once", body: racingSettlements),
    ]

    // MARK: Helpers

    /// A charge of `amount` cents to the first registered payment app, and its simulator's
    /// approved callback (the checks are about storage, not about any one app).
    static func issue(_ ledger: ChargeLedger, _ amount: Int64 = 1000) async throws -> (PendingCharge, String) {
        guard let app = SimulatedApps.registered.first else { throw LedgerStoreConformanceFailure("no payment app is registered") }
        let order = ChargeOrder(amount: Money(minorUnits: amount, currency: .usd), extras: [QueryItem("order", String(amount))])
        let sent = app.sampleApp(callbackURL: "conformance-app://done")
        let (charge, handoff) = try await ledger.issue { nonce throws(ChargeKitError) in try sent.handoff(for: order, nonce: nonce) }
        var apps = SimulatedApps()
        return (charge, try apps.respond(to: handoff.url, outcome: .approved))
    }

    /// Runs `count` racers at once; how many succeeded (a racer that finds the hand-off
    /// already answered or settled loses; any other error fails the check).
    static func race(_ count: Int, _ racer: @escaping @Sendable (Int) async throws -> Void) async throws -> Int {
        try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<count {
                group.addTask {
                    do {
                        try await racer(index)
                        return true
                    } catch ChargeKitError.replayedNonce, ChargeKitError.settledByHand {
                        return false
                    }
                }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
    }

    // MARK: Checks

    static func issuedChargesAreKept(_ open: @escaping @Sendable () async throws -> any LedgerStore) async throws {
        let store = try await open()
        let ledger = ChargeLedger(store: store)
        var nonces: [Nonce] = []
        for amount in [100, 200, 300] as [Int64] { nonces.append(try await issue(ledger, amount).0.nonce) }
        for nonce in nonces {
            let found = try await store.charge(for: nonce)
            try expect(found?.nonce == nonce && found?.consumedAt == nil, "charge \(nonce.value) not found outstanding")
        }
        try expect(try await store.charges().count == 3, "charges() does not list the three issued")
    }

    static func acceptedOnce(_ open: @escaping @Sendable () async throws -> any LedgerStore) async throws {
        let ledger = ChargeLedger(store: try await open())
        let (_, callback) = try await issue(ledger)
        let result = try await ledger.verify(url: callback)
        try expect(result.isApprovedSale, "the genuine callback was not an approved sale")
        try await expectRefusal(.replayedNonce) { _ = try await ledger.verify(url: callback) }
    }

    static func racingLedgers(_ open: @escaping @Sendable () async throws -> any LedgerStore) async throws {
        let (_, callback) = try await issue(ChargeLedger(store: try await open()))
        let accepted = try await race(12) { _ in _ = try await ChargeLedger(store: try await open()).verify(url: callback) }
        try expect(accepted == 1, "\(accepted) of 12 racing verifications accepted the callback")
    }

    static func secondHandle(_ open: @escaping @Sendable () async throws -> any LedgerStore) async throws {
        let (charge, callback) = try await issue(ChargeLedger(store: try await open()))
        let other = try await open()
        try expect(try await other.charge(for: charge.nonce) != nil, "another handle does not see the charge")
        _ = try await ChargeLedger(store: other).verify(url: callback)
        let settled = try await open().charge(for: charge.nonce)
        try expect(settled?.consumedAt != nil, "a third handle does not see the charge settled")
    }

    static func settledByHand(_ open: @escaping @Sendable () async throws -> any LedgerStore) async throws {
        let clock = ManualClock()
        let ledger = ChargeLedger(store: try await open(), timeToLive: 60, now: { clock.now })
        let (charge, callback) = try await issue(ledger)
        clock.advance(120)   // expired unanswered: it can still be settled
        let (answered, answer) = try await issue(ledger, 2000)
        let note = "paid: in the app's history, transaction 4711"
        let resolved = try await ledger.resolve(charge.nonce, as: .approved, note: note)
        try expect(resolved.resolution?.outcome == .approved && resolved.resolution?.note == note && resolved.consumedAt != nil,
                   "the settlement is not on the entry")
        let seen = try await ChargeLedger(store: try await open()).charge(for: charge.nonce)
        try expect(seen?.resolution == resolved.resolution, "another handle does not see the settlement")
        let later = ChargeLedger(store: try await open(), timeToLive: 60, now: { clock.now })
        try await expectRefusal(.settledByHand(outcome: .approved, note: note)) { _ = try await later.verify(url: callback) }
        try await expectRefusal(.settledByHand(outcome: .approved, note: note)) {
            try await later.resolve(charge.nonce, as: .declined, note: "again")
        }
        try await expectRefusal(.unknownNonce) { try await later.resolve(Nonce.random(), as: .approved, note: "unknown") }
        // One answered by its callback cannot be settled by hand.
        _ = try await later.verify(url: answer)
        try await expectRefusal(.replayedNonce) { try await later.resolve(answered.nonce, as: .approved, note: "twice") }
    }

    static func racingSettlements(_ open: @escaping @Sendable () async throws -> any LedgerStore) async throws {
        let (charge, callback) = try await issue(ChargeLedger(store: try await open()))
        let settled = try await race(8) { index in
            let ledger = ChargeLedger(store: try await open())
            if index.isMultiple(of: 2) {
                _ = try await ledger.verify(url: callback)
            } else {
                try await ledger.resolve(charge.nonce, as: .declined, note: "racer \(index)")
            }
        }
        try expect(settled == 1, "\(settled) of 8 racing callbacks and settlements took the hand-off")
    }

    static func unknownNonce(_ open: @escaping @Sendable () async throws -> any LedgerStore) async throws {
        let store = try await open()
        let ledger = ChargeLedger(store: store)
        _ = try await issue(ledger)
        let before = try await store.charges()
        let forged = "conformance-app://done?order=1000&ifcc_responseType=cancelled&ifcc_request_nonce=\(Nonce.random().value)"
        try await expectRefusal(.unknownNonce) { _ = try await ledger.verify(url: forged) }
        let after = try await store.charges()
        try expect(after == before, "a refused callback changed the store")
    }

    static func expired(_ open: @escaping @Sendable () async throws -> any LedgerStore) async throws {
        let clock = ManualClock()
        let ledger = ChargeLedger(store: try await open(), timeToLive: 60, now: { clock.now })
        let (charge, callback) = try await issue(ledger)
        clock.advance(61)
        try await expectRefusal(.expiredNonce) { _ = try await ledger.verify(url: callback) }
        try expect(try await ledger.charge(for: charge.nonce)?.consumedAt == nil, "an expired charge was marked consumed")
    }

    static func retention(_ open: @escaping @Sendable () async throws -> any LedgerStore) async throws {
        let clock = ManualClock()
        let store = try await open()
        let ledger = ChargeLedger(store: store, timeToLive: 60, retention: 10, now: { clock.now })
        let (first, callback) = try await issue(ledger)
        _ = try await ledger.verify(url: callback)
        clock.advance(5)
        _ = try await issue(ledger, 2000)
        try expect(try await store.charge(for: first.nonce) != nil, "a settled entry was dropped before its retention")
        clock.advance(20)
        _ = try await issue(ledger, 3000)
        try expect(try await store.charge(for: first.nonce) == nil, "a settled entry outlived its retention")
        try expect(try await store.charges().count == 2, "the two later charges are not both kept")
    }

    static func duplicateNonce(_ open: @escaping @Sendable () async throws -> any LedgerStore) async throws {
        let store = try await open()
        let (charge, _) = try await issue(ChargeLedger(store: store))
        try await expectRefusal(.duplicateField("nonce")) {
            try await store.insert(charge, now: charge.createdAt, retention: 3600)
        }
        try expect(try await store.charges().count == 1, "a refused insert changed the store")
    }

    static func manyOutstanding(_ open: @escaping @Sendable () async throws -> any LedgerStore) async throws {
        let ledger = ChargeLedger(store: try await open())
        var callbacks: [String] = []
        for amount in 1...40 { callbacks.append(try await issue(ledger, Int64(amount) * 100).1) }
        try expect(try await ledger.outstanding().count == 40, "not all 40 charges are outstanding")
        for callback in callbacks.shuffled() { _ = try await ledger.verify(url: callback) }
        try expect(try await ledger.outstanding().isEmpty, "charges remain outstanding after their callbacks")
    }
}

/// What a ``LedgerStoreConformance`` check found wrong.
public typealias LedgerStoreConformanceFailure = ConformanceFailure
