@testable import CitconSandbox
import CitconSandboxTesting
import Foundation
import SQLiteNIO
import Testing

/// The WAL written a commit at a time (``WALWriteCombining``): what a commit wrote is in
/// the file when the commit returns, whatever its size, for any reader.
@Suite("SQLite store: the WAL written a commit at a time")
struct WALWriteCombiningTests {
    /// Reads through a connection of its own that does not use the VFS (as another
    /// process, or another SQLite, would).
    private static func plainRead(_ path: String, _ sql: String) async throws -> [[SQLiteData]] {
        let connection = try await SQLiteConnection.open(storage: .file(path: path))
        defer { Task { try? await connection.close() } }
        return try await connection.query(sql, []).map { $0.columns.map(\.data) }
    }

    @Test("the VFS is registered, and the URI names it with the path percent-encoded")
    func registeredAndNamed() {
        #expect(WALWriteCombining.registered)
        #expect(WALWriteCombining.uri(path: "/tmp/a b?c#d%e/x.sqlite") == "file:/tmp/a%20b%3Fc%23d%25e/x.sqlite?vfs=chargekit-wal")
    }

    @Test("transactions whose frames pass 64 and 128 KiB commit whole: another connection reads every byte")
    func largeTransactions() async throws {
        let path = try Harness.temporaryDirectory().appendingPathComponent("large.sqlite").path
        let db = try await SQLiteDatabase.open(path: path)
        var generator = SystemRandomNumberGenerator()
        var expected: [Int64: Data] = [:]
        var next: Int64 = 0
        // Closed on every path (a connection dropped open stops a debug build).
        do {
            // The VFS needs every commit synced: the connection comes with synchronous=FULL (2).
            #expect(try await db.query("PRAGMA synchronous").first?.first?.int == 2)
            try await db.execute("PRAGMA journal_mode=WAL; CREATE TABLE t(n INTEGER, b BLOB)")
            // 1, 15, 16, 31, 32, 33 and 80 pages of frames in one commit: below, at and past
            // the 64 KiB writes and the unix VFS's 128 KiB mask.
            for rows in [1, 15, 16, 31, 32, 33, 80] {
                try await db.execute("BEGIN IMMEDIATE")
                for _ in 0..<rows {
                    let blob = Data((0..<4000).map { _ in UInt8.random(in: 0...255, using: &generator) })
                    try await db.query("INSERT INTO t(n, b) VALUES(?, ?)", [.int(next), .bytes(blob)])
                    expected[next] = blob
                    next += 1
                }
                try await db.execute("COMMIT")
                let rowsRead = try await Self.plainRead(path, "SELECT n, b FROM t")
                #expect(rowsRead.count == expected.count)
                for row in rowsRead {
                    #expect(row[1].data == expected[row[0].int ?? -1], "row \(String(describing: row[0].int)) after a commit of \(rows) rows")
                }
            }
        } catch {
            await db.close()
            throw error
        }
        await db.close()
        // Checkpointed into the database file and read again from it alone.
        let reopened = try await SQLiteDatabase.open(path: path)
        try await reopened.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        let count = try await reopened.query("SELECT count(*), sum(length(b)) FROM t").first
        #expect(count?[0].int == Int64(expected.count))
        #expect(count?[1].int == Int64(expected.count * 4000))
        await reopened.close()
    }

    @Test("a store in a folder whose name needs percent-encoding opens the file at that very path")
    func awkwardPath() async throws {
        let folder = try Harness.temporaryDirectory().appendingPathComponent("a b?c#d%e é")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("sandbox.sqlite").path
        let store = try await SQLiteSandboxStore(path: path)
        _ = try await store.migrate()
        try await store.insertCharge(SandboxStoreConformance.charge("9001", reference: "awkward"))
        store.close()
        #expect(FileManager.default.fileExists(atPath: path))
        let rows = try await Self.plainRead(path, "SELECT id FROM charges")
        #expect(rows.map { $0.first?.string } == ["9001"])
    }
}
