@testable import CitconSandbox
import CitconSandboxTesting
import Foundation
import Testing

/// The IPN worker's poll (`dueNotifications`, every 100 ms) on the SQLite store: when
/// nothing is due it makes no write, so that it neither waits in the commit queue nor
/// sends a batch of new charges down the general path; when something is due it
/// claims it, once.
@Suite("SQLite store: the IPN poll writes only when something is due")
struct IdlePollTests {
    @Test("nothing due: no commit; due: one commit that claims it; claimed: no commit again")
    func pollWritesOnlyWhenDue() async throws {
        let path = try Harness.temporaryDirectory().appendingPathComponent("poll.sqlite").path
        let store = try await SQLiteSandboxStore(path: path)
        defer { store.close() }
        _ = try await store.migrate()
        // An empty outbox, and one with IPNs not yet due or already claimed, alike.
        let empty = store.commitCount
        for now in [Int64(0), 100, 10_000] {
            #expect(try await store.dueNotifications(now: now, limit: 10, leaseUntil: now + 50).isEmpty)
        }
        #expect(store.commitCount == empty, "a poll with nothing due made a write")

        try await store.insertCharge(SandboxStoreConformance.charge("7001", reference: "r-7001", ipn: "http://127.0.0.1:9/ipn"))
        _ = try await store.updateCharge(id: "7001", reference: nil, now: 500) { $0.status = .pending }
        let before = store.commitCount
        #expect(try await store.dueNotifications(now: 499, limit: 10, leaseUntil: 600).isEmpty, "an IPN was due before its time")
        #expect(store.commitCount == before, "a poll before the IPN was due made a write")

        let claimed = try await store.dueNotifications(now: 500, limit: 10, leaseUntil: 600)
        #expect(claimed.map(\.transactionID) == ["7001"])
        #expect(store.commitCount == before + 1, "the claim was not one commit")

        // Within the lease nothing is due, and the poll writes nothing; after it, the IPN
        // is claimed again.
        #expect(try await store.dueNotifications(now: 550, limit: 10, leaseUntil: 650).isEmpty, "an IPN was claimed twice within its lease")
        #expect(store.commitCount == before + 1, "a poll within the lease made a write")
        #expect(try await store.dueNotifications(now: 600, limit: 10, leaseUntil: 700).map(\.id) == claimed.map(\.id))
        #expect(store.commitCount == before + 2)
    }
}
