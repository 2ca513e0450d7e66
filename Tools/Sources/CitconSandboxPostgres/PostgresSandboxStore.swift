#if PostgreSQL  // the package's PostgreSQL trait (Tools/Package.swift)
@_spi(Tools) import ChargeKit
import ChargeKitPostgres
import CitconSandbox
@_spi(Tools) import CitconUPI
import Foundation
import PostgresNIO

/// The sandbox's storage on PostgreSQL, for a sandbox that a team runs for all its CI
/// jobs and testers, on the database it already operates, with several instances
/// behind a load balancer. It passes the same ``SandboxStore`` behaviour suite as
/// SQLite.
///
/// References are unique by a primary key (the database enforces it across
/// instances); ``updateCharge(id:reference:now:_:)`` locks the charge's row
/// (`SELECT … FOR UPDATE`), claims the reference, saves and writes the IPN in one
/// transaction.
public final class PostgresSandboxStore: SandboxStore, Sendable {
    /// The client; its connection pool runs until ``close()``.
    public var client: PostgresClient { pool.client }
    private let pool: PostgresPool
    private let prefix: String
    private let lockKey: Int64
    private let connectTimeout: Duration
    private let waitingCharges = CommitQueue<NewCharge>()

    /// Connects to `url` and returns the store (call ``migrate()`` next, as for SQLite).
    /// - Parameters:
    ///   - tablePrefix: as for `PostgresLedgerStore`; `upi_` by default.
    ///   - connectTimeout: how long ``migrate()`` waits for the server's first answer
    ///     (the pool retries an unreachable server without end, so a wrong URL fails
    ///     after this long).
    public init(url: String, tablePrefix: String = "upi_", connectTimeout: Duration = .seconds(10)) throws(ChargeKitError) {
        pool = try PostgresPool(url: url, tablePrefix: tablePrefix, field: "db")
        prefix = tablePrefix
        lockKey = PostgresSupport.stableHash(tablePrefix + "sandbox")
        self.connectTimeout = connectTimeout
    }

    deinit { pool.close() }

    private var settings: String { prefix + "settings" }
    private var tokens: String { prefix + "tokens" }
    private var charges: String { prefix + "charges" }
    private var refs: String { prefix + "refs" }
    private var outbox: String { prefix + "outbox" }
    private var failures: String { prefix + "auth_failures" }
    private var attempts: String { prefix + "ipn_attempts" }

    /// Version N is `migrations[N-1]`. Never edit one that has shipped: add the next.
    private var migrations: [[String]] {
        [[
            "CREATE TABLE IF NOT EXISTS \(settings) (key text PRIMARY KEY, value text NOT NULL)",
            "CREATE TABLE IF NOT EXISTS \(tokens) (token text PRIMARY KEY, type text NOT NULL, permissions text NOT NULL, expires_at bigint NOT NULL)",
            """
            CREATE TABLE IF NOT EXISTS \(charges) (id text PRIMARY KEY, charge_token text NOT NULL UNIQUE, status text NOT NULL,
                expires_at bigint NOT NULL, doc text NOT NULL)
            """,
            "CREATE INDEX IF NOT EXISTS \(charges)_open ON \(charges) (status, expires_at)",
            "CREATE TABLE IF NOT EXISTS \(refs) (reference text PRIMARY KEY, transaction_id text NOT NULL)",
            """
            CREATE TABLE IF NOT EXISTS \(outbox) (id bigserial PRIMARY KEY, transaction_id text NOT NULL, status text NOT NULL,
                url text NOT NULL, payload bytea NOT NULL, attempts integer NOT NULL DEFAULT 0, next_attempt_at bigint NOT NULL,
                state text NOT NULL, last_error text, created_at bigint NOT NULL)
            """,
            "CREATE INDEX IF NOT EXISTS \(outbox)_due ON \(outbox) (state, next_attempt_at)",
            "CREATE INDEX IF NOT EXISTS \(outbox)_transaction ON \(outbox) (transaction_id, state, id)",
        ], [
            // v2: claims with a lease (FOR UPDATE SKIP LOCKED), so instances share the outbox.
            "ALTER TABLE \(outbox) ADD COLUMN IF NOT EXISTS lease_until bigint NOT NULL DEFAULT 0",
        ], [
            // v3: every delivery attempt and its answer, and the charges' order of arrival, for the dashboard.
            """
            CREATE TABLE IF NOT EXISTS \(attempts) (outbox_id bigint NOT NULL, attempt integer NOT NULL, at bigint NOT NULL,
                answer text NOT NULL, delivered boolean NOT NULL, PRIMARY KEY (outbox_id, attempt))
            """,
            "ALTER TABLE \(charges) ADD COLUMN IF NOT EXISTS seq bigserial",
            "CREATE INDEX IF NOT EXISTS \(charges)_seq ON \(charges) (seq)",
        ], [
            // v4: each IPN's receiver origin, so that claims are bounded and taken in turns
            // per origin (see OutboxEntry.maximumInFlightPerOrigin). IPNs written before it
            // keep their URL as their origin: bounded per URL, as they were.
            "ALTER TABLE \(outbox) ADD COLUMN IF NOT EXISTS origin text NOT NULL DEFAULT ''",
            "UPDATE \(outbox) SET origin = url",
            "CREATE INDEX IF NOT EXISTS \(outbox)_origin ON \(outbox) (state, origin, id)",
            "CREATE INDEX IF NOT EXISTS \(outbox)_origin_leases ON \(outbox) (state, origin, lease_until)",
        ], [
            // v5: failed authentications with the merchant key, counted for the merchant
            // across instances (the throttle counted per address, in each instance).
            "CREATE TABLE IF NOT EXISTS \(failures) (at bigint NOT NULL)",
            "CREATE INDEX IF NOT EXISTS \(failures)_at ON \(failures) (at)",
        ]]
    }

    public func migrate() async throws -> Int {
        let (client, key, all, versions, probe) = (client, lockKey, migrations, prefix + "sandbox_versions", pool.probe)
        return try await PostgresSupport.withDeadline(connectTimeout) {
            try await PostgresSupport.probe(probe)
            return try await PostgresSupport.migrate(client, versionsTable: versions, lockKey: key, migrations: all)
        }
    }

    /// Runs `body` in a transaction; an error it throws (an ``APIError`` such as 4100)
    /// comes out as itself, after the rollback.
    private func transaction<T: Sendable>(_ body: (PostgresConnection) async throws -> sending T) async throws -> sending T {
        do {
            return try await client.withTransaction(logger: PostgresSupport.silent, body)
        } catch let error as PostgresTransactionError {
            throw error.closureError ?? error.commitError ?? error.beginError ?? error
        }
    }

    // MARK: Settings and tokens

    public func setting(_ key: String) async throws -> String? {
        var value: String?
        for try await row in try await client.query("SELECT value FROM \(unescaped: settings) WHERE key = \(key)",
                                                    logger: PostgresSupport.silent).decode(String.self) { value = row }
        return value
    }

    public func setSetting(_ key: String, to value: String) async throws {
        try await client.query(storing(key, value), logger: PostgresSupport.silent)
    }

    public func add(_ delta: Int64, toSetting key: String) async throws -> Int64 {
        // One statement: the row's lock orders instances adding at once, each adding to
        // the sum the other left. A stored value that is no whole number, or a sum past
        // bigint, fails the cast and changes nothing.
        var stored: String?
        for try await value in try await client.query(storing(key, String(delta), adding: true), logger: PostgresSupport.silent)
            .decode(String.self) { stored = value }
        guard let stored, let sum = Int64(stored) else { throw SettingSum.Refusal(description: "setting \(key): no sum returned") }
        return sum
    }

    /// The one insert of the settings: `key` set to `value` (or, `adding`, to the whole
    /// number it holds plus `value`), whether it was set or not; it returns the value kept.
    private func storing(_ key: String, _ value: String, adding: Bool = false) -> PostgresQuery {
        """
        INSERT INTO \(unescaped: settings) AS kept (key, value) VALUES (\(key), \(value))
        ON CONFLICT (key) DO UPDATE SET value = CASE WHEN \(adding) THEN (kept.value::bigint + excluded.value::bigint)::text
                                                     ELSE excluded.value END
        RETURNING value
        """
    }

    public func recordAuthenticationFailure(at time: Int64, forgettingBefore cutoff: Int64) async throws {
        // One statement, so one transaction.
        try await client.query("""
            WITH forgotten AS (DELETE FROM \(unescaped: failures) WHERE at < \(cutoff))
            INSERT INTO \(unescaped: failures) (at) VALUES (\(time))
            """, logger: PostgresSupport.silent)
    }

    public func authenticationFailures(since: Int64) async throws -> (count: Int, oldest: Int64?) {
        for try await row in try await client.query("SELECT count(*), min(at) FROM \(unescaped: failures) WHERE at >= \(since)",
                                                    logger: PostgresSupport.silent).decode((Int64, Int64?).self) {
            return (Int(row.0), row.1)
        }
        return (0, nil)
    }

    public func rotateMerchantKey(to key: String) async throws -> Bool {
        let (settings, tokens) = (settings, tokens)
        return try await transaction { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(self.lockKey))", logger: PostgresSupport.silent)
            var stored: String?
            for try await value in try await connection.query(
                "SELECT value FROM \(unescaped: settings) WHERE key = 'merchant_key'", logger: PostgresSupport.silent
            ).decode(String.self) { stored = value }
            guard stored != key else { return false }
            try await connection.query(self.storing("merchant_key", key), logger: PostgresSupport.silent)
            if stored != nil { try await connection.query("DELETE FROM \(unescaped: tokens)", logger: PostgresSupport.silent) }
            return true
        }
    }

    public func insertToken(_ token: AccessTokenRecord) async throws {
        try await client.query("""
            INSERT INTO \(unescaped: tokens)(token, type, permissions, expires_at)
            VALUES (\(token.token), \(token.type), \(token.permissions.joined(separator: " ")), \(token.expiresAt))
            """, logger: PostgresSupport.silent)
    }

    public func token(_ value: String) async throws -> AccessTokenRecord? {
        var found: AccessTokenRecord?
        for try await (type, permissions, expiresAt) in try await client.query(
            "SELECT type, permissions, expires_at FROM \(unescaped: tokens) WHERE token = \(value)", logger: PostgresSupport.silent
        ).decode((String, String, Int64).self) {
            found = AccessTokenRecord(token: value, type: type, permissions: permissions.split(separator: " ").map(String.init),
                                      expiresAt: expiresAt)
        }
        return found
    }

    // MARK: Charges

    private static func encode(_ charge: ChargeRecord) throws -> String {
        String(decoding: try charge.document, as: UTF8.self)
    }

    private static func decode(_ doc: String) throws -> ChargeRecord {
        try JSONDecoder().decode(ChargeRecord.self, from: Data(doc.utf8))
    }

    /// The one insert of the references: claims the reference of each row of `input`
    /// (`reference`, `id`, `position`) that no charge or operation holds, in their order,
    /// and returns those claimed (`reference`, `transaction_id`).
    private var claimingReferences: String {
        """
        claimed AS (
            INSERT INTO \(refs)(reference, transaction_id) SELECT reference, id FROM input ORDER BY position
            ON CONFLICT (reference) DO NOTHING RETURNING reference, transaction_id)
        """
    }

    /// Claims an operation's reference for charge `id` (`4100` when it is taken).
    private func claim(_ reference: String, for id: String, on connection: PostgresConnection) async throws {
        var binds = PostgresBindings(capacity: 2)
        binds.append(reference)
        binds.append(id)
        let sql = "WITH input(reference, id, position) AS (VALUES ($1::text, $2::text, 0)), \(claimingReferences) SELECT 1 FROM claimed"
        var claimed = false
        for try await _ in try await connection.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: PostgresSupport.silent) {
            claimed = true
        }
        guard claimed else { throw APIError.duplicateReference(reference) }
    }


    /// New charges are written together: those that arrive while a write is under
    /// way wait for it, then go in one statement, so one round trip and one commit (and
    /// WAL flush) for all of them (``writeWaitingCharges()``). The caller is answered
    /// once that statement committed.
    public func insertCharge(_ charge: ChargeRecord) async throws {
        let doc = try Self.encode(charge)
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let job = NewCharge(charge: charge, doc: doc) { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }
            switch waitingCharges.enqueue(job) {
            case .closed: job.finish(PostgresStoreClosed())
            case .drain: Task { await self.writeWaitingCharges() }
            case .queued: break
            }
        }
    }

    /// A new charge waiting to be written, and how to answer its caller.
    private struct NewCharge: Sendable {
        let charge: ChargeRecord
        let doc: String
        let finish: @Sendable ((any Error)?) -> Void
    }

    /// The most new charges one statement carries.
    static let maximumBatch = 128

    /// Writes the waiting charges, a batch at a time, until none is left.
    private func writeWaitingCharges() async {
        while true {
            let (jobs, closeStorage) = waitingCharges.nextBatch(limit: Self.maximumBatch)
            if jobs.isEmpty {
                // close() came while this writer ran: the client stops now, after the last charge.
                if closeStorage { pool.close() }
                return
            }
            await write(jobs)
        }
    }

    /// Writes `jobs` in one statement and answers each: stored, or its reference taken.
    /// When some id or charge token is taken the statement writes nothing, and each
    /// charge is then written on its own, which tells which it was.
    private func write(_ jobs: [NewCharge]) async {
        guard jobs.count > 1 else { return await writeOneByOne(jobs) }
        do {
            let stored = try await insertTogether(jobs)
            for job in jobs {
                job.finish(stored.contains(job.charge.id) ? nil : APIError.duplicateReference(job.charge.reference))
            }
        } catch where PostgresSupport.isUniqueViolation(error) {
            await writeOneByOne(jobs)
        } catch {
            for job in jobs { job.finish(error) }
        }
    }

    /// Writes each charge in its own statement and answers it with that statement's outcome.
    private func writeOneByOne(_ jobs: [NewCharge]) async {
        for job in jobs {
            do {
                try await insertAlone(job)
                job.finish(nil)
            } catch {
                job.finish(error)
            }
        }
    }

    /// One statement for many new charges: claims their references (a reference used
    /// before, or twice in the batch, is not claimed a second time) and inserts the
    /// charges whose claim succeeded. Returns the ids stored.
    /// - Throws: a unique violation when an id or charge token is taken (nothing written).
    private func insertTogether(_ jobs: [NewCharge]) async throws -> Set<String> {
        var binds = PostgresBindings(capacity: jobs.count * 6)
        var rows: [String] = []
        rows.reserveCapacity(jobs.count)
        for (index, job) in jobs.enumerated() {
            let first = binds.count + 1
            binds.append(job.charge.reference)
            binds.append(job.charge.id)
            binds.append(job.charge.chargeToken)
            binds.append(job.charge.status.rawValue)
            binds.append(job.charge.expiresAt)
            binds.append(job.doc)
            rows.append("($\(first)::text, $\(first + 1)::text, $\(first + 2)::text, $\(first + 3)::text, $\(first + 4)::bigint, "
                        + "$\(first + 5)::text, \(index))")
        }
        let sql = """
            WITH input(reference, id, charge_token, status, expires_at, doc, position) AS (VALUES \(rows.joined(separator: ", "))),
            \(claimingReferences)
            INSERT INTO \(charges)(id, charge_token, status, expires_at, doc)
            SELECT input.id, input.charge_token, input.status, input.expires_at, input.doc
            FROM input JOIN claimed ON claimed.reference = input.reference AND claimed.transaction_id = input.id
            ORDER BY input.position
            RETURNING id
            """
        var stored = Set<String>()
        for try await id in try await client.query(PostgresQuery(unsafeSQL: sql, binds: binds), logger: PostgresSupport.silent)
            .decode(String.self) { stored.insert(id) }
        return stored
    }

    /// A charge alone, in the statement of a batch: one round trip and its own commit.
    /// Not stored means its reference was taken (nothing written); a unique violation
    /// means its id or charge token is another charge's (nothing written either).
    private func insertAlone(_ job: NewCharge) async throws {
        let stored: Set<String>
        do {
            stored = try await insertTogether([job])
        } catch where PostgresSupport.isUniqueViolation(error) {
            throw ChargeIdentifiersTaken(id: job.charge.id)
        }
        guard stored.contains(job.charge.id) else { throw APIError.duplicateReference(job.charge.reference) }
    }

    private func charge(where column: String, is value: String) async throws -> ChargeRecord? {
        var found: ChargeRecord?
        for try await doc in try await client.query(
            "SELECT doc FROM \(unescaped: charges) WHERE \(unescaped: column) = \(value)", logger: PostgresSupport.silent
        ).decode(String.self) { found = try Self.decode(doc) }
        return found
    }

    public func charge(id: String) async throws -> ChargeRecord? { try await charge(where: "id", is: id) }

    public func charge(chargeToken: String) async throws -> ChargeRecord? { try await charge(where: "charge_token", is: chargeToken) }

    public func updateCharge<T: Sendable>(id: String, reference: String?, now: Int64,
                                          _ body: @escaping @Sendable (inout ChargeRecord) throws -> T) async throws -> (ChargeRecord, T) {
        let charges = charges
        return try await transaction { connection in
            var found: String?
            for try await doc in try await connection.query(
                "SELECT doc FROM \(unescaped: charges) WHERE id = \(id) FOR UPDATE", logger: PostgresSupport.silent
            ).decode(String.self) { found = doc }
            guard let doc = found else { throw APIError(.notFound, "transaction_id: no transaction '\(id)'") }
            var charge = try Self.decode(doc)
            if let reference {
                guard reference != charge.reference else {
                    throw APIError(.duplicateReference, "reference: must differ from the charge's own reference")
                }
                try await self.claim(reference, for: id, on: connection)
            }
            let (value, notification) = try charge.apply(now: now, body)
            try await connection.query("""
                UPDATE \(unescaped: charges) SET status = \(charge.status.rawValue), expires_at = \(charge.expiresAt),
                    doc = \(Self.encode(charge)) WHERE id = \(id)
                """, logger: PostgresSupport.silent)
            if let notification {
                try await connection.query(
                    try self.adding(transactionID: id, status: notification.status.rawValue, url: charge.urls.ipn, payload: notification.payload,
                                dueAt: now + notification.hold, state: OutboxState.initial(url: charge.urls.ipn), now: now),
                    logger: PostgresSupport.silent)
            }
            return (charge, value)
        }
    }

    public func overdueCharges(now: Int64, limit: Int) async throws -> [String] {
        var ids: [String] = []
        for try await id in try await client.query("""
            SELECT id FROM \(unescaped: charges) WHERE status IN ('initiated', 'pending') AND expires_at <= \(now)
            ORDER BY id LIMIT \(limit)
            """, logger: PostgresSupport.silent).decode(String.self) { ids.append(id) }
        return ids
    }

    // MARK: Outbox

    private func entries(_ query: PostgresQuery) async throws -> [OutboxEntry] {
        var entries: [OutboxEntry] = []
        for try await row in try await client.query(query, logger: PostgresSupport.silent)
            .decode((Int64, String, String, String, Data, Int, Int64, String, String?).self)
        {
            // A row whose state this version does not know is left out, never a trap.
            guard let state = OutboxState(rawValue: row.7) else { continue }
            entries.append(OutboxEntry(id: row.0, transactionID: row.1, status: NotificationStatus(rawValue: row.2), url: row.3, payload: row.4,
                                       attempts: row.5, nextAttemptAt: row.6, state: state, lastError: row.8))
        }
        return entries
    }

    private static let columns = "id, transaction_id, status, url, payload, attempts, next_attempt_at, state, last_error"

    /// The one insert of the outbox: a new IPN.
    private func adding(transactionID: String, status: String, url: String, payload: Data, dueAt: Int64, state: OutboxState,
                        now: Int64) throws -> PostgresQuery {
        try """
        INSERT INTO \(unescaped: outbox)(transaction_id, status, url, origin, payload, next_attempt_at, state, created_at)
        VALUES (\(transactionID), \(status), \(url), \(OutboxEntry.origin(of: url)), \(payload), \(dueAt), \(state.rawValue), \(now))
        """
    }

    /// The one insert of the attempt log: the row of `attempt(id, number, at, answer,
    /// delivered)`, a relation the statement defines; the statement adds what a clash does.
    private var loggingAttempt: String {
        "INSERT INTO \(attempts) (outbox_id, attempt, at, answer, delivered) SELECT id, number, at, answer, delivered FROM attempt"
    }

    public func dueNotifications(now: Int64, limit: Int, leaseUntil: Int64) async throws -> [OutboxEntry] {
        // Only the oldest pending IPN of each transaction, so a merchant sees them in
        // order; rows another instance is claiming right now are skipped, not waited for,
        // and a claim holds until its lease ends (then another instance takes it over).
        // And per receiver origin, no more than OutboxEntry.maximumInFlightPerOrigin in
        // flight (by any instance), taken in turns across origins. The origins are found
        // by skipping through the index (one probe each, not one per IPN), and each origin
        // with a free slot is read only as far as its first few due IPNs: a hanging
        // receiver's backlog costs a claim nothing and holds no other origin back.
        // (FOR UPDATE cannot sit beside a window function: the candidates are locked
        // first, then ranked.)
        let perOrigin = OutboxEntry.maximumInFlightPerOrigin
        return try await entries("""
            WITH RECURSIVE origins(origin) AS (
                SELECT min(origin) FROM \(unescaped: outbox) WHERE state = 'pending'
                UNION ALL
                SELECT (SELECT min(n.origin) FROM \(unescaped: outbox) AS n WHERE n.state = 'pending' AND n.origin > origins.origin)
                FROM origins WHERE origin IS NOT NULL),
            busy AS (
                SELECT origin, (SELECT count(*) FROM \(unescaped: outbox) AS f
                                WHERE f.state = 'pending' AND f.origin = origins.origin AND f.lease_until > \(now)) AS held
                FROM origins WHERE origin IS NOT NULL),
            candidates AS (
                SELECT c.id, b.origin, b.held FROM busy AS b CROSS JOIN LATERAL (
                    SELECT o.id FROM \(unescaped: outbox) AS o
                    WHERE o.state = 'pending' AND o.origin = b.origin AND o.next_attempt_at <= \(now) AND o.lease_until <= \(now)
                      AND o.id = (SELECT min(p.id) FROM \(unescaped: outbox) AS p
                                  WHERE p.transaction_id = o.transaction_id AND p.state = 'pending')
                    ORDER BY o.id LIMIT \(perOrigin)
                    FOR UPDATE SKIP LOCKED) AS c
                WHERE b.held < \(perOrigin)),
            ranked AS (
                SELECT id, held + ROW_NUMBER() OVER (PARTITION BY origin ORDER BY id) AS place FROM candidates)
            UPDATE \(unescaped: outbox) SET lease_until = \(leaseUntil)
            WHERE id IN (SELECT id FROM ranked WHERE place <= \(perOrigin) ORDER BY place, id LIMIT \(limit))
            RETURNING \(unescaped: Self.columns)
            """).sorted { $0.id < $1.id }
    }

    public func recordAttempt(_ attempt: IPNAttempt, state: OutboxState, nextAttemptAt: Int64) async throws {
        // One statement, so one transaction: the outbox row and its attempt log change together.
        let error = attempt.lastError
        try await client.query("""
            WITH changed AS (
                UPDATE \(unescaped: outbox) SET state = \(state.rawValue), attempts = \(attempt.number), next_attempt_at = \(nextAttemptAt),
                    last_error = \(error), lease_until = 0 WHERE id = \(attempt.notificationID) RETURNING id),
            attempt(id, number, at, answer, delivered) AS (
                SELECT id, \(attempt.number), \(attempt.time), \(attempt.answer), \(attempt.delivered) FROM changed)
            \(unescaped: loggingAttempt)
            ON CONFLICT (outbox_id, attempt) DO UPDATE SET at = excluded.at, answer = excluded.answer, delivered = excluded.delivered
            """, logger: PostgresSupport.silent)
    }

    public func notificationLog(transactionIDs: [String]) async throws -> (notifications: [OutboxEntry], attempts: [IPNAttempt]) {
        guard !transactionIDs.isEmpty else { return ([], []) }
        let shown = try await entries("""
            SELECT \(unescaped: Self.columns) FROM \(unescaped: outbox) WHERE transaction_id = ANY(\(transactionIDs)) ORDER BY id
            """)
        return (shown, try await attempts(of: shown))
    }

    /// The attempts at `entries`, in the order they were made.
    private func attempts(of entries: [OutboxEntry]) async throws -> [IPNAttempt] {
        guard !entries.isEmpty else { return [] }
        let query: PostgresQuery = """
            SELECT outbox_id, attempt, at, answer, delivered FROM \(unescaped: attempts)
            WHERE outbox_id = ANY(\(entries.map(\.id))) ORDER BY at, outbox_id, abs(attempt)
            """
        var found: [IPNAttempt] = []
        for try await row in try await client.query(query, logger: PostgresSupport.silent).decode((Int64, Int, Int64, String, Bool).self) {
            found.append(IPNAttempt(notificationID: row.0, number: row.1, time: row.2, answer: row.3, delivered: row.4))
        }
        return found
    }

    public func latestNotifications(transactionID: String?, limit: Int) async throws -> (notifications: [OutboxEntry], attempts: [IPNAttempt]) {
        let limit = max(0, limit)
        // Every transaction's is the same query with the transaction matching itself.
        let shown = try await entries("""
            SELECT \(unescaped: Self.columns) FROM (
                SELECT \(unescaped: Self.columns) FROM \(unescaped: outbox)
                WHERE transaction_id = coalesce(\(transactionID)::text, transaction_id) ORDER BY id DESC LIMIT \(limit)) AS latest
            ORDER BY id
            """)
        return (shown, try await attempts(of: shown))
    }

    public func resendNotification(id: Int64, now: Int64) async throws -> Bool {
        var found = false
        for try await _ in try await client.query("""
            UPDATE \(unescaped: outbox) SET state = 'pending', next_attempt_at = \(now) WHERE id = \(id) AND url <> '' RETURNING id
            """, logger: PostgresSupport.silent).decode(Int64.self) { found = true }
        if found { return true }
        // One kept for the listeners only is written again, as a new IPN they all get.
        guard let kept = try await entries("SELECT \(unescaped: Self.columns) FROM \(unescaped: outbox) WHERE id = \(id) AND url = ''").first else {
            return false
        }
        try await client.query(try adding(transactionID: kept.transactionID, status: kept.status.rawValue, url: kept.url, payload: kept.payload,
                                      dueAt: now, state: kept.state, now: now), logger: PostgresSupport.silent)
        return true
    }

    public func recentCharges(limit: Int) async throws -> [ChargeRecord] {
        var found: [ChargeRecord] = []
        for try await doc in try await client.query("""
            SELECT doc FROM \(unescaped: charges) ORDER BY seq DESC LIMIT \(max(0, limit))
            """, logger: PostgresSupport.silent).decode(String.self) { found.append(try Self.decode(doc)) }
        return found
    }

    public func notifications(transactionID: String?) async throws -> [OutboxEntry] {
        if let transactionID {
            return try await entries(
                "SELECT \(unescaped: Self.columns) FROM \(unescaped: outbox) WHERE transaction_id = \(transactionID) ORDER BY id")
        }
        return try await entries("SELECT \(unescaped: Self.columns) FROM \(unescaped: outbox) ORDER BY id")
    }

    public func notifications(after id: Int64, limit: Int) async throws -> [OutboxEntry] {
        try await entries("SELECT \(unescaped: Self.columns) FROM \(unescaped: outbox) WHERE id > \(id) ORDER BY id LIMIT \(limit)")
    }

    public func recordForward(notificationID: Int64, time: Int64, answer: String, delivered: Bool) async throws -> Bool {
        var found = false
        // Forwards of one IPN made at once are numbered apart by the key: a clash retries.
        for _ in 0..<5 where !found {
            do {
                for try await _ in try await client.query("""
                    WITH attempt(id, number, at, answer, delivered) AS (
                        SELECT id, (SELECT coalesce(min(attempt), 0) - 1 FROM \(unescaped: attempts) WHERE outbox_id = \(notificationID) AND attempt < 0),
                               \(time), \(answer), \(delivered)
                        FROM \(unescaped: outbox) WHERE id = \(notificationID))
                    \(unescaped: loggingAttempt) RETURNING outbox_id
                    """, logger: PostgresSupport.silent).decode(Int64.self) { found = true }
                return found
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
                continue
            }
        }
        return found
    }

    public func latestNotificationID() async throws -> Int64 {
        var latest: Int64 = 0
        for try await value in try await client.query("SELECT coalesce(max(id), 0)::bigint FROM \(unescaped: outbox)", logger: PostgresSupport.silent)
            .decode(Int64.self) { latest = value }
        return latest
    }

    public func chargeCount() async throws -> Int {
        var count = 0
        for try await value in try await client.query("SELECT count(*) FROM \(unescaped: charges)", logger: PostgresSupport.silent)
            .decode(Int.self) { count = value }
        return count
    }

    /// Stops taking new charges, writes those already queued, then stops the client.
    public func close() {
        if waitingCharges.close() { pool.close() }
    }
}

/// A new charge given to a ``PostgresSandboxStore`` after ``PostgresSandboxStore/close()``.
struct PostgresStoreClosed: Error, CustomStringConvertible {
    var description: String { "the sandbox's PostgreSQL store is closed" }
}
#endif
