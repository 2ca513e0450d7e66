#if PostgreSQL  // the package's PostgreSQL trait (Tools/Package.swift)
@_spi(Tools) import ChargeKit
import ChargeKitPostgres
import ChargeKitTesting
import Foundation
import Testing

/// The PostgreSQL URL of a throw-away server (`scripts/postgres.sh start`); the tests
/// that need one are skipped, with this reason, when it is not set. CI always sets it.
let postgresURL = ProcessInfo.processInfo.environment["CHARGEKIT_POSTGRES_URL"]
let postgresSkipReason: Comment = "CHARGEKIT_POSTGRES_URL is not set (run scripts/postgres.sh start and export it)"

/// A table prefix no other test uses.
func freshPrefix() -> String { "t" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12) + "_" }

@Suite("PostgreSQL ledger store", .enabled(if: postgresURL != nil, postgresSkipReason))
struct PostgresLedgerStoreTests {
    @Test("the LedgerStore conformance suite", arguments: LedgerStoreConformance.checks)
    func conforms(check: LedgerStoreConformance.Check) async throws {
        let url = try #require(postgresURL)
        let prefix = freshPrefix()
        // A generous first-contact deadline: a dozen stores migrating at once on a loaded
        // machine once took more than the default 10 s (the deadline has its own test).
        try await check.run { try await PostgresLedgerStore.connect(url: url, tablePrefix: prefix, connectTimeout: .seconds(60)) }
    }

    @Test("migrations are versioned and safe to run from many instances at once")
    func concurrentMigrations() async throws {
        let url = try #require(postgresURL)
        let prefix = freshPrefix()
        let versions = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    let store = try await PostgresLedgerStore.connect(url: url, tablePrefix: prefix, connectTimeout: .seconds(60))
                    defer { store.close() }
                    return try await store.migrate()
                }
            }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(versions == Array(repeating: PostgresLedgerStore.schemaVersion, count: 6))
    }

    @Test("a bad URL or table prefix is refused naming what is wrong")
    func badConfiguration() async throws {
        await #expect(throws: ChargeKitError.self) { _ = try await PostgresLedgerStore.connect(url: "mysql://x/y") }
        await #expect(throws: ChargeKitError.invalidField("tablePrefix", rule: "must be 1 to 30 of a-z, 0-9 and _, starting with a letter or _")) {
            _ = try await PostgresLedgerStore.connect(url: "postgres://u@127.0.0.1:1/db", tablePrefix: "x; DROP TABLE y")
        }
        await #expect(throws: ChargeKitError.self) {
            _ = try await PostgresLedgerStore.connect(url: "postgres://u@127.0.0.1:1/db", connectTimeout: .seconds(2))  // nothing listens
        }
    }
}
#endif
