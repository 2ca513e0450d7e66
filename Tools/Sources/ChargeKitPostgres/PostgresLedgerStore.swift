#if PostgreSQL  // the package's PostgreSQL trait (Tools/Package.swift)
@_spi(Tools) import ChargeKit
import Foundation
import Logging
import PostgresNIO

/// A `LedgerStore` on PostgreSQL, for a checkout whose callbacks land on whichever of
/// several server instances the load balancer picks: every instance shares one table,
/// and each callback is still accepted exactly once.
///
/// Every operation is one SQL statement, atomic in the database, never a read in Swift
/// followed by a write:
/// - ``insert(_:now:retention:)`` prunes settled entries past their retention and
///   inserts, unless the nonce exists or the outstanding charges reach the bound, in
///   one statement (a data-modifying `WITH`);
/// - ``consume(_:at:accepting:)`` is an `UPDATE … WHERE consumed_at IS NULL AND
///   expires_at > $now RETURNING …`: of instances racing for one nonce, the row lock
///   lets exactly one update it (the others re-check the condition and find it used).
///
/// The schema is created and migrated by versioned migrations in code, under an
/// advisory lock so that many processes may start at once. Tables are named with a
/// prefix you choose (`chargekit_` by default), so that one database holds several
/// ledgers.
public final class PostgresLedgerStore: LedgerStore, Sendable {
    /// The client; its connection pool runs until ``close()``.
    public var client: PostgresClient { pool.client }
    private let pool: PostgresPool
    private let table: String
    private let versionsTable: String
    private let lockKey: Int64
    /// The most outstanding charges the table holds before new ones are refused.
    public let maximumOutstanding: Int

    /// The schema version this code migrates to.
    public static let schemaVersion = migrations.count

    /// Connects to `url` (`postgres://user[:password]@host[:port]/database`), migrates
    /// the schema and returns the store.
    /// - Parameters:
    ///   - url: the database, as above.
    ///   - tablePrefix: 1 to 30 lower-case letters, digits or `_`, starting with a letter or `_`.
    ///   - maximumOutstanding: the most outstanding charges before new ones are refused.
    ///   - connectTimeout: how long to wait for the first answer of the server.
    /// - Throws: `ChargeKitError.invalidURL(_:rule:)` or `ChargeKitError.invalidField(_:rule:)`
    ///   for a bad URL or prefix, `ChargeKitError.storage(_:)` when the database cannot be reached.
    public static func connect(url: String, tablePrefix: String = "chargekit_", maximumOutstanding: Int = 100_000,
                               connectTimeout: Duration = .seconds(10)) async throws(ChargeKitError) -> PostgresLedgerStore {
        let store = try PostgresLedgerStore(url: url, tablePrefix: tablePrefix, maximumOutstanding: maximumOutstanding)
        do throws(ChargeKitError) {
            _ = try await PostgresSupport.withDeadline(connectTimeout) {
                try await PostgresSupport.probe(store.pool.probe)
                _ = try await store.migrateOrThrow()
            }
            return store
        } catch {
            store.close()
            throw error
        }
    }

    private init(url: String, tablePrefix: String, maximumOutstanding: Int) throws(ChargeKitError) {
        pool = try PostgresPool(url: url, tablePrefix: tablePrefix, field: "ledger")
        table = tablePrefix + "ledger"
        versionsTable = tablePrefix + "ledger_versions"
        lockKey = PostgresSupport.stableHash(tablePrefix + "ledger")
        self.maximumOutstanding = max(1, maximumOutstanding)
    }

    /// Stops the connection pool.
    public func close() { pool.close() }

    deinit { pool.close() }

    // MARK: Migrations

    /// Each migration's statements; version N is the N-th entry. Never edit one that
    /// has shipped: add the next.
    static let migrations: [@Sendable (_ table: String) -> [String]] = [
        { table in
            [
                """
                CREATE TABLE IF NOT EXISTS \(table) (
                    nonce text PRIMARY KEY,
                    created_at double precision NOT NULL,
                    expires_at double precision NOT NULL,
                    consumed_at double precision,
                    callback text,
                    doc text NOT NULL)
                """,
                "CREATE INDEX IF NOT EXISTS \(table)_settled ON \(table) ((coalesce(consumed_at, expires_at)))",
                "CREATE INDEX IF NOT EXISTS \(table)_outstanding ON \(table) (expires_at) WHERE consumed_at IS NULL",
            ]
        },
    ]

    /// Creates or migrates the schema; returns the version. Safe to run from many
    /// processes at once.
    @discardableResult
    public func migrate() async throws(ChargeKitError) -> Int {
        do { return try await migrateOrThrow() } catch { throw PostgresSupport.storageError("migrate", error) }
    }

    func migrateOrThrow() async throws -> Int {
        try await PostgresSupport.migrate(client, versionsTable: versionsTable, lockKey: lockKey,
                                          migrations: Self.migrations.map { $0(table) })
    }

    // MARK: LedgerStore

    public func insert(_ charge: PendingCharge, now: Date, retention: TimeInterval) async throws(ChargeKitError) {
        let doc = try encode(charge)
        let (nonce, created, expires) = (charge.nonce.value, charge.createdAt.timeIntervalSince1970, charge.expiresAt.timeIntervalSince1970)
        let (moment, horizon, bound) = (now.timeIntervalSince1970, now.timeIntervalSince1970 - retention, maximumOutstanding)
        let table = table
        let inserted: Bool = try await storage("insert") {
            let rows = try await self.client.query("""
                WITH pruned AS (
                    DELETE FROM \(unescaped: table)
                    WHERE (consumed_at IS NOT NULL OR expires_at <= \(moment)) AND coalesce(consumed_at, expires_at) < \(horizon))
                INSERT INTO \(unescaped: table) (nonce, created_at, expires_at, consumed_at, callback, doc)
                SELECT \(nonce), \(created), \(expires), NULL, NULL, \(doc)
                WHERE (SELECT count(*) FROM \(unescaped: table) WHERE consumed_at IS NULL AND expires_at > \(moment)) < \(bound)
                ON CONFLICT (nonce) DO NOTHING
                RETURNING nonce
                """, logger: PostgresSupport.silent)
            var any = false
            for try await _ in rows.decode(String.self) { any = true }
            return any
        }
        guard !inserted else { return }
        if try await self.charge(for: charge.nonce) != nil { throw .duplicateField("nonce") }
        throw .storageFull("\(bound) charges are outstanding, the most this ledger holds")
    }

    public func charge(for nonce: Nonce) async throws(ChargeKitError) -> PendingCharge? {
        let table = table
        let row: (String, Double?, String?)? = try await storage("read") {
            var found: (String, Double?, String?)?
            for try await row in try await self.client.query(
                "SELECT doc, consumed_at, callback FROM \(unescaped: table) WHERE nonce = \(nonce.value)", logger: PostgresSupport.silent
            ).decode((String, Double?, String?).self) { found = row }
            return found
        }
        guard let row else { return nil }
        return try entry(row)
    }

    public func consume(_ nonce: Nonce, at date: Date, accepting accepted: AcceptedCallback?) async throws(ChargeKitError) -> PendingCharge {
        let table = table
        let moment = date.timeIntervalSince1970
        // The accepted callback, as JSON, when its URL is short enough to keep.
        let callback = try accepted.flatMap { accepted throws(ChargeKitError) in
            accepted.isKept ? try encode(accepted) : nil
        }
        let doc: String? = try await storage("consume") {
            var found: String?
            for try await doc in try await self.client.query("""
                UPDATE \(unescaped: table) SET consumed_at = \(moment), callback = \(callback)
                WHERE nonce = \(nonce.value) AND consumed_at IS NULL AND expires_at > \(moment)
                RETURNING doc
                """, logger: PostgresSupport.silent).decode(String.self) { found = doc }
            return found
        }
        if let doc { return try decode(doc).consumed(at: date, accepting: accepted) }
        // Nothing changed; say why.
        guard let charge = try await charge(for: nonce) else { throw .unknownNonce }
        if charge.consumedAt != nil { throw .replayedNonce }
        throw .expiredNonce
    }

    public func charges() async throws(ChargeKitError) -> [PendingCharge] {
        let table = table
        let rows: [(String, Double?, String?)] = try await storage("read") {
            var all: [(String, Double?, String?)] = []
            for try await row in try await self.client.query(
                "SELECT doc, consumed_at, callback FROM \(unescaped: table) ORDER BY created_at, nonce", logger: PostgresSupport.silent
            ).decode((String, Double?, String?).self) { all.append(row) }
            return all
        }
        var charges: [PendingCharge] = []
        for row in rows { charges.append(try entry(row)) }
        return charges
    }

    // MARK: Helpers

    private func entry(_ row: (String, Double?, String?)) throws(ChargeKitError) -> PendingCharge {
        let charge = try decode(row.0)
        guard let consumed = row.1 else { return charge }
        if let settled = row.2.flatMap({ try? JSONDecoder().decode(SettledByHand.self, from: Data($0.utf8)) }) {
            return charge.resolved(as: settled.resolution)
        }
        // A row written before the result was kept holds the URL alone: not kept.
        let accepted = row.2.flatMap { try? JSONDecoder().decode(AcceptedCallback.self, from: Data($0.utf8)) }
        return charge.consumed(at: Date(timeIntervalSince1970: consumed), accepting: accepted)
    }

    /// What the `callback` column holds for a hand-off settled by hand (beside the
    /// accepted callbacks it holds for the others).
    private struct SettledByHand: Codable {
        var resolution: Resolution
    }

    public func resolve(_ nonce: Nonce, as resolution: Resolution) async throws(ChargeKitError) -> PendingCharge {
        let table = table
        let moment = resolution.resolvedAt.timeIntervalSince1970
        let settled = try encode(SettledByHand(resolution: resolution))
        let doc: String? = try await storage("resolve") {
            var found: String?
            for try await doc in try await self.client.query("""
                UPDATE \(unescaped: table) SET consumed_at = \(moment), callback = \(settled)
                WHERE nonce = \(nonce.value) AND consumed_at IS NULL
                RETURNING doc
                """, logger: PostgresSupport.silent).decode(String.self) { found = doc }
            return found
        }
        if let doc { return try decode(doc).resolved(as: resolution) }
        // Nothing changed; say why.
        guard let charge = try await charge(for: nonce) else { throw .unknownNonce }
        try charge.refuseSettling()
        throw .unknownNonce
    }

    private func encode(_ value: some Encodable) throws(ChargeKitError) -> String {
        do {
            return String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        } catch {
            throw .storage("ledger: cannot encode an entry: \(error)")
        }
    }

    private func decode(_ doc: String) throws(ChargeKitError) -> PendingCharge {
        do {
            return try JSONDecoder().decode(PendingCharge.self, from: Data(doc.utf8))
        } catch {
            throw .corruptStorage("ledger: an entry in \(table) cannot be read: \(error)")
        }
    }

    /// Runs a database step; any failure of the database is a storage error.
    private func storage<T: Sendable>(_ what: String, _ body: () async throws -> T) async throws(ChargeKitError) -> T {
        do { return try await body() } catch { throw PostgresSupport.storageError("ledger " + what, error) }
    }
}
#endif
