@testable import CitconSandbox
import CitconSandboxTesting
import Foundation
import Testing

/// A database file written by an earlier sandbox keeps working after an upgrade.
@Suite("SQLite store: migrations")
struct SQLiteMigrationTests {
    @Test("a version 4 file (before the one-statement insert and the one-tree references) migrates, keeps its charges and references, and takes new ones")
    func version4FileUpgrades() async throws {
        let path = try Harness.temporaryDirectory().appendingPathComponent("v4.sqlite").path
        // The file as a sandbox of schema 4 left it, with one charge in it.
        let old = try await SQLiteDatabase.open(path: path)
        for migration in SQLiteSandboxStore.migrations.prefix(4) {
            for statement in migration { try await old.query(statement) }
        }
        try await old.execute("PRAGMA user_version = 4")
        let kept = SandboxStoreConformance.charge("4001", reference: "before-upgrade")
        try await old.query("INSERT INTO refs(reference, transaction_id) VALUES(?, ?)", [.text(kept.reference), .text(kept.id)])
        try await old.query("INSERT INTO charges(id, charge_token, status, expires_at, doc) VALUES(?, ?, ?, ?, ?)",
                            [.text(kept.id), .text(kept.chargeToken), .text(kept.status.rawValue), .int(kept.expiresAt),
                             .bytes(try JSONEncoder().encode(kept))])
        await old.close()

        let store = try await SQLiteSandboxStore(path: path)
        defer { store.close() }
        #expect(try await store.migrate() == SQLiteSandboxStore.migrations.count)
        #expect(SQLiteSandboxStore.migrations.count == 8)
        // Schema 6 keeps references in one B-tree keyed by the reference.
        let check = try await SQLiteDatabase.open(path: path)
        let schema = try await check.query("SELECT sql FROM sqlite_master WHERE name = 'refs'").first?.first?.string ?? ""
        await check.close()
        #expect(schema.contains("WITHOUT ROWID"), "\(schema)")
        #expect(try await store.charge(id: "4001") == kept)
        // The old charge's reference is still taken, through the new insert.
        await #expect(throws: APIError.duplicateReference("before-upgrade")) {
            try await store.insertCharge(SandboxStoreConformance.charge("4002", reference: "before-upgrade"))
        }
        try await store.insertCharge(SandboxStoreConformance.charge("4003", reference: "after-upgrade"))
        #expect(try await store.charge(chargeToken: "ct-4003") == SandboxStoreConformance.charge("4003", reference: "after-upgrade"))
        #expect(try await store.chargeCount() == 2)
        // Migrating again changes nothing.
        #expect(try await store.migrate() == SQLiteSandboxStore.migrations.count)
    }

    @Test("a batch of new charges with one taken reference keeps the others and refuses only that one")
    func oneTakenReferenceInABatch() async throws {
        let store = try await SQLiteSandboxStore(path: try Harness.temporaryDirectory().appendingPathComponent("b.sqlite").path)
        defer { store.close() }
        _ = try await store.migrate()
        try await store.insertCharge(SandboxStoreConformance.charge("6000", reference: "taken"))
        // Many at once, so that they share commits; every eighth reuses the taken reference.
        let outcomes = try await withThrowingTaskGroup(of: (Int, Bool).self) { group in
            for index in 1...64 {
                group.addTask {
                    do {
                        try await store.insertCharge(SandboxStoreConformance.charge("6\(index)", reference: index % 8 == 0 ? "taken" : "free-\(index)"))
                        return (index, true)
                    } catch let error as APIError where error == .duplicateReference("taken") {
                        return (index, false)
                    }
                }
            }
            return try await group.reduce(into: [Int: Bool]()) { $0[$1.0] = $1.1 }
        }
        for index in 1...64 {
            #expect(outcomes[index] == (index % 8 != 0), "charge \(index)")
            #expect((try await store.charge(id: "6\(index)") != nil) == (index % 8 != 0), "charge \(index) stored")
        }
        #expect(try await store.chargeCount() == 1 + 56)
    }
}
