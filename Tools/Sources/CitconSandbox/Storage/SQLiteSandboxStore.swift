@_spi(Tools) import CitconUPI
import Foundation

/// ``SandboxStore`` on one SQLite file, through SQLiteNIO. WAL journal with
/// `synchronous=FULL`: a commit that returned is on disk and survives a crash or
/// `kill -9`. Writes go through one connection, one transaction at a time, in the order
/// they arrived; reads go through a second connection, which WAL lets run beside a
/// write and which sees every write that was acknowledged. Statements run on NIO's
/// thread pool, so no Swift concurrency thread waits on disk I/O.
///
/// **Group commit.** Writes that arrive while the disk is busy are committed together:
/// each runs in its own savepoint inside one transaction, so one failing write rolls
/// back only itself, and every caller is answered only after the shared `COMMIT` (and
/// its fsync) returned. Durability is unchanged; the cost of an fsync is shared.
public final class SQLiteSandboxStore: SandboxStore, Sendable {
    /// The database file.
    public let path: String
    /// Whether concurrent writes share one commit (see above).
    public let groupCommit: Bool
    /// The most writes one commit carries.
    public static let maximumBatch = 256
    private let writer: SQLiteDatabase
    private let reader: SQLiteDatabase
    private let queue = CommitQueue<WriteJob>()

    /// A write waiting for the next commit: a new charge (the commonest write, which
    /// neighbours in a batch insert together), or any other write, run in a savepoint.
    private struct WriteJob: Sendable {
        enum Work: Sendable {
            case charge(ChargeRecord, document: Data)
            case body(@Sendable (SQLiteDatabase) async throws -> Void)
        }
        let work: Work
        let finish: @Sendable ((any Error)?) -> Void

        /// The new charge this write inserts, if it is one.
        var newCharge: (ChargeRecord, Data)? {
            if case .charge(let charge, let document) = work { (charge, document) } else { nil }
        }
    }

    /// Carries a write's result from the drain to its caller.
    private final class ResultBox<T: Sendable>: @unchecked Sendable {
        var value: T?
    }

    private static let closedError = SQLiteStoreError(description: "the sandbox database is closed")

    /// Schema migrations, versioned in code: migration `n` (its statements, in order)
    /// takes the schema from version `n` to `n + 1` (`PRAGMA user_version`).
    static let migrations: [[String]] = [
        [
            "CREATE TABLE settings(key TEXT PRIMARY KEY, value TEXT NOT NULL)",
            """
            CREATE TABLE tokens(token TEXT PRIMARY KEY, type TEXT NOT NULL, permissions TEXT NOT NULL,
                                expires_at INTEGER NOT NULL)
            """,
            """
            CREATE TABLE charges(id TEXT PRIMARY KEY, charge_token TEXT NOT NULL UNIQUE, status TEXT NOT NULL,
                                 expires_at INTEGER NOT NULL, doc BLOB NOT NULL)
            """,
            "CREATE INDEX charges_open ON charges(status, expires_at)",
            "CREATE TABLE refs(reference TEXT PRIMARY KEY, transaction_id TEXT NOT NULL)",
            """
            CREATE TABLE outbox(id INTEGER PRIMARY KEY AUTOINCREMENT, transaction_id TEXT NOT NULL,
                                status TEXT NOT NULL, url TEXT NOT NULL, payload BLOB NOT NULL,
                                attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at INTEGER NOT NULL,
                                state TEXT NOT NULL, last_error TEXT, created_at INTEGER NOT NULL)
            """,
            "CREATE INDEX outbox_due ON outbox(state, next_attempt_at)",
        ],
        // v2: IPNs of one transaction go out in order; this finds each one's oldest pending.
        ["CREATE INDEX outbox_transaction ON outbox(transaction_id, state, id)"],
        // v3: claims with a lease, so that only one deliverer holds an IPN at a time.
        ["ALTER TABLE outbox ADD COLUMN lease_until INTEGER NOT NULL DEFAULT 0"],
        // v4: every delivery attempt and its answer, for the dashboard.
        [
            """
            CREATE TABLE ipn_attempts(outbox_id INTEGER NOT NULL, attempt INTEGER NOT NULL, at INTEGER NOT NULL,
                                      answer TEXT NOT NULL, delivered INTEGER NOT NULL, PRIMARY KEY(outbox_id, attempt))
            """,
        ],
        // v5: new charges in one statement. A row inserted into this view claims its
        // reference and inserts the charge; a reference used before (or twice in one
        // statement) aborts the whole statement, so nothing of it is kept.
        [
            """
            CREATE VIEW new_charges(id, charge_token, status, expires_at, doc, reference) AS
                SELECT id, charge_token, status, expires_at, doc, NULL FROM charges WHERE 0
            """,
            newChargesTrigger,
        ],
        // v6: references kept in one B-tree, ordered by the reference itself (WITHOUT
        // ROWID), instead of a table and its unique index: each new charge writes one
        // page fewer to the WAL. The trigger that names the table is made again around it.
        [
            "DROP TRIGGER new_charges_insert",
            "CREATE TABLE refs_v6(reference TEXT PRIMARY KEY, transaction_id TEXT NOT NULL) WITHOUT ROWID",
            "INSERT INTO refs_v6(reference, transaction_id) SELECT reference, transaction_id FROM refs",
            "DROP TABLE refs",
            "ALTER TABLE refs_v6 RENAME TO refs",
            newChargesTrigger,
        ],
        // v7: each IPN's receiver origin, so that claims are bounded and taken in turns
        // per origin (see OutboxEntry.maximumInFlightPerOrigin). IPNs written before it
        // keep their URL as their origin: bounded per URL, as they were.
        [
            "ALTER TABLE outbox ADD COLUMN origin TEXT NOT NULL DEFAULT ''",
            "UPDATE outbox SET origin = url",
            "CREATE INDEX outbox_origin ON outbox(state, origin, id)",
            "CREATE INDEX outbox_origin_leases ON outbox(state, origin, lease_until)",
        ],
        // v8: failed authentications with the merchant key, counted for the merchant
        // across instances (the throttle counted per address, in each instance).
        ["CREATE TABLE auth_failures(at INTEGER NOT NULL)", "CREATE INDEX auth_failures_at ON auth_failures(at)"],
    ]

    /// Claims a new charge's reference and inserts it, for each row inserted into the
    /// view `new_charges` (migrations 5 and 6).
    private static let newChargesTrigger = """
        CREATE TRIGGER new_charges_insert INSTEAD OF INSERT ON new_charges BEGIN
            INSERT INTO refs(reference, transaction_id) VALUES (NEW.reference, NEW.id);
            INSERT INTO charges(id, charge_token, status, expires_at, doc)
                VALUES (NEW.id, NEW.charge_token, NEW.status, NEW.expires_at, NEW.doc);
        END
        """

    /// Opens (creating if needed) the database at `path`. Call ``migrate()`` next.
    ///
    /// The file and its `-wal` and `-shm` companions are readable by their owner only
    /// (0600): they hold the merchant key, the IPN secret and every token. A new file is
    /// created so (SQLite gives its companions the database's own mode); an older one's
    /// modes are narrowed on open.
    public init(path: String, groupCommit: Bool = true) async throws {
        self.path = path
        self.groupCommit = groupCommit
        Self.restrictPermissions(path)
        let writer = try await SQLiteDatabase.open(path: path)
        do {
            // synchronous=FULL is set by SQLiteDatabase.open, on both connections.
            try await writer.execute("PRAGMA journal_mode=WAL; PRAGMA foreign_keys=ON")
            reader = try await SQLiteDatabase.open(path: path)
            Self.restrictPermissions(path)
        } catch {
            await writer.close()
            throw error
        }
        self.writer = writer
    }

    /// Creates `path` with mode 0600 when it does not exist, and sets 0600 on it and on
    /// its `-wal` and `-shm` files where they exist.
    static func restrictPermissions(_ path: String) {
        if !FileManager.default.fileExists(atPath: path) {
            _ = FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        for file in [path, path + "-wal", path + "-shm"] { chmod(file, 0o600) }
    }

    deinit {
        // A store dropped without close() still closes its connections (SQLiteNIO requires it).
        // No drain runs here: a drain holds the store.
        if !queue.isClosed { closeConnections() }
    }

    /// Closes both connections, once no write is left (called exactly once: by
    /// ``close()`` when idle, else by the drain that finishes after it, or by `deinit`).
    private func closeConnections() {
        let writer = writer, reader = reader
        Task {
            await writer.close()
            await reader.close()
        }
    }

    /// Runs a read on the reading connection.
    private func read<T: Sendable>(_ body: (SQLiteDatabase) async throws -> T) async throws -> T {
        guard !queue.isClosed else { throw Self.closedError }
        return try await body(reader)
    }

    /// Runs `body` as one atomic write: alone in a transaction, or with the writes
    /// waiting beside it in one group commit (in its own savepoint).
    @discardableResult
    private func write<T: Sendable>(_ body: @escaping @Sendable (SQLiteDatabase) async throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            let box = ResultBox<T>()
            enqueue(WriteJob(work: .body { db in box.value = try await body(db) }, finish: { error in
                if let error {
                    continuation.resume(throwing: error)
                } else if let value = box.value {
                    continuation.resume(returning: value)
                } else {
                    continuation.resume(throwing: SQLiteStoreError(description: "a write produced no result"))
                }
            }))
        }
    }

    /// Queues `job` and starts a drain unless one runs.
    private func enqueue(_ job: WriteJob) {
        switch queue.enqueue(job) {
        case .closed: job.finish(Self.closedError)
        case .drain: Task { await self.drain() }
        case .queued: break
        }
    }

    /// Commits the waiting writes, a batch at a time, until none is left.
    private func drain() async {
        let batchSize = groupCommit ? Self.maximumBatch : 1
        while true {
            let (jobs, closeStorage) = queue.nextBatch(limit: batchSize)
            if jobs.isEmpty {
                // close() came while this drain ran: the connections are closed now, after the last write.
                if closeStorage { closeConnections() }
                return
            }
            await commit(jobs)
        }
    }

    /// Runs `jobs` and answers each. New charges have one insert path, the view
    /// `new_charges` (``insertCharges(_:into:)``): a batch of new charges alone is one
    /// statement committed by itself; in a transaction, neighbouring new charges are one
    /// statement, and a refused statement is run again a charge at a time to answer each
    /// its own. Every other write runs in its own savepoint, so that a failing write
    /// rolls back only itself.
    private func commit(_ jobs: [WriteJob]) async {
        let db = writer
        // The commonest batch, new charges alone: one statement, committed by itself
        // (one trip to SQLite's thread instead of four: this is the sandbox's one fast
        // path in SQL; a batch in a transaction measured some 25 % fewer creates per
        // second). A reference used before, or an id or charge token another charge has,
        // aborts it whole; the batch then runs in a transaction, which answers each.
        let charges = jobs.compactMap(\.newCharge)
        // Whether that one statement was just refused (then the batch, one run of new
        // charges, goes in a charge at a time without trying it whole again).
        var refusedWhole = false
        if charges.count == jobs.count {
            do {
                try await Self.insertCharges(charges, into: db)
                for job in jobs { job.finish(nil) }
                return
            } catch where error.isSQLiteConstraint {
                // Some reference is taken: the general way below finds which.
                refusedWhole = true
            } catch {
                for job in jobs { job.finish(error) }
                return
            }
        }
        var errors = [Error?](repeating: nil, count: jobs.count)
        do {
            try await db.execute("BEGIN IMMEDIATE")
            var index = jobs.startIndex
            while index < jobs.endIndex {
                if case .body(let body) = jobs[index].work {
                    try await db.execute("SAVEPOINT write")
                    do {
                        try await body(db)
                        try await db.execute("RELEASE write")
                    } catch {
                        errors[index] = error
                        try await db.execute("ROLLBACK TO write")
                        try await db.execute("RELEASE write")
                    }
                    index += 1
                    continue
                }
                var charges: [(offset: Int, charge: ChargeRecord, document: Data)] = []
                while index < jobs.endIndex, case .charge(let charge, let document) = jobs[index].work {
                    charges.append((index, charge, document))
                    index += 1
                }
                var refused = refusedWhole
                if !refused {
                    do {
                        try await Self.insertCharges(charges.map { ($0.charge, $0.document) }, into: db)
                    } catch where error.isSQLiteConstraint {
                        refused = true
                    }
                }
                // A refused statement changed nothing: one at a time, each answered its own.
                if refused {
                    for charge in charges {
                        do {
                            try await Self.insertCharges([(charge.charge, charge.document)], into: db)
                        } catch where error.isSQLiteConstraint {
                            errors[charge.offset] = try await Self.refusal(of: charge.charge, in: db)
                        }
                    }
                }
            }
            try await db.execute("COMMIT")
        } catch {
            try? await db.execute("ROLLBACK")
            for index in errors.indices where errors[index] == nil { errors[index] = error }
        }
        for (job, error) in zip(jobs, errors) { job.finish(error) }
    }

    /// Inserts new charges in one statement through the view `new_charges` (migration
    /// 5), which claims each reference and inserts each charge: the one way a new
    /// charge is stored. Outside a transaction the statement is its own commit; inside
    /// one, a refused statement changes nothing and the transaction goes on.
    /// - Throws: a constraint error when a reference was used before or is used twice,
    ///   or an id or charge token is taken.
    private static func insertCharges(_ charges: [(ChargeRecord, Data)], into db: SQLiteDatabase) async throws {
        try await db.query(
            "INSERT INTO new_charges(id, charge_token, status, expires_at, doc, reference) VALUES "
                + Array(repeating: "(?, ?, ?, ?, ?, ?)", count: charges.count).joined(separator: ", "),
            charges.flatMap { charge, document in
                [SQLValue.text(charge.id), .text(charge.chargeToken), .text(charge.status.rawValue),
                 .int(charge.expiresAt), .bytes(document), .text(charge.reference)]
            })
    }

    /// Why one new charge was refused: its reference is taken (``APIError/duplicateReference(_:)``),
    /// or else its id or charge token (``ChargeIdentifiersTaken``).
    private static func refusal(of charge: ChargeRecord, in db: SQLiteDatabase) async throws -> any Error {
        let taken = try await db.query("SELECT 1 FROM refs WHERE reference = ?", [.text(charge.reference)])
        return taken.isEmpty ? ChargeIdentifiersTaken(id: charge.id) : APIError.duplicateReference(charge.reference)
    }

    private static let decoder = JSONDecoder()

    private static func decodeCharge(_ row: [SQLValue]) throws -> ChargeRecord? {
        guard let data = row.first?.data else { return nil }
        return try decoder.decode(ChargeRecord.self, from: data)
    }

    /// Runs the migrations the file lacks, all in one transaction.
    public func migrate() async throws -> Int {
        try await write { db in
            let current = Int(try await db.query("PRAGMA user_version").first?.first?.int ?? 0)
            guard current <= Self.migrations.count else {
                throw SQLiteStoreError(description: "database schema \(current) is newer than this sandbox (\(Self.migrations.count))")
            }
            for version in current..<Self.migrations.count {
                for statement in Self.migrations[version] { try await db.query(statement) }
                try await db.execute("PRAGMA user_version = \(version + 1)")
            }
            return Self.migrations.count
        }
    }

    /// The one read of a setting, by its key.
    private static let readingSetting = "SELECT value FROM settings WHERE key = ?"
    /// The one write of a setting: the key set to the value, whether it was set or not.
    private static let storingSetting = "INSERT INTO settings(key, value) VALUES(?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value"

    public func setting(_ key: String) async throws -> String? {
        try await read { db in try await db.query(Self.readingSetting, [.text(key)]).first?.first?.string }
    }

    public func setSetting(_ key: String, to value: String) async throws {
        try await write { db in
            try await db.query(Self.storingSetting, [.text(key), .text(value)])
        }
    }

    public func add(_ delta: Int64, toSetting key: String) async throws -> Int64 {
        // Read and written in one write transaction of the store's one writer; the file
        // lock orders it with another process's.
        try await write { db in
            let stored = try await db.query(Self.readingSetting, [.text(key)]).first?.first?.string
            let sum = try SettingSum.adding(delta, to: stored, key: key)
            try await db.query(Self.storingSetting, [.text(key), .text(String(sum))])
            return sum
        }
    }

    public func recordAuthenticationFailure(at time: Int64, forgettingBefore cutoff: Int64) async throws {
        try await write { db in
            try await db.query("DELETE FROM auth_failures WHERE at < ?", [.int(cutoff)])
            try await db.query("INSERT INTO auth_failures(at) VALUES(?)", [.int(time)])
        }
    }

    public func authenticationFailures(since: Int64) async throws -> (count: Int, oldest: Int64?) {
        try await read { db in
            let row = try await db.query("SELECT count(*), min(at) FROM auth_failures WHERE at >= ?", [.int(since)]).first
            return (Int(row?.first?.int ?? 0), row.flatMap { $0.count > 1 ? $0[1].int : nil })
        }
    }

    public func rotateMerchantKey(to key: String) async throws -> Bool {
        try await write { db in
            let stored = try await db.query(Self.readingSetting, [.text("merchant_key")]).first?.first?.string
            guard stored != key else { return false }
            try await db.query(Self.storingSetting, [.text("merchant_key"), .text(key)])
            if stored != nil { try await db.query("DELETE FROM tokens") }
            return true
        }
    }

    public func insertToken(_ token: AccessTokenRecord) async throws {
        try await write { db in
            try await db.query("INSERT INTO tokens(token, type, permissions, expires_at) VALUES(?, ?, ?, ?)",
                         [.text(token.token), .text(token.type), .text(token.permissions.joined(separator: " ")),
                          .int(token.expiresAt)])
        }
    }

    public func token(_ value: String) async throws -> AccessTokenRecord? {
        try await read { db in
            guard let row = try await db.query("SELECT type, permissions, expires_at FROM tokens WHERE token = ?", [.text(value)]).first,
                  let type = row[0].string, let permissions = row[1].string, let expiresAt = row[2].int
            else { return nil }
            return AccessTokenRecord(token: value, type: type, permissions: permissions.split(separator: " ").map(String.init),
                                     expiresAt: expiresAt)
        }
    }

    public func insertCharge(_ charge: ChargeRecord) async throws {
        let document = try charge.document
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            enqueue(WriteJob(work: .charge(charge, document: document), finish: { error in
                if let error { continuation.resume(throwing: error) } else { continuation.resume() }
            }))
        }
    }

    private static func claim(_ reference: String, for id: String, in db: SQLiteDatabase) async throws {
        do {
            try await db.query("INSERT INTO refs(reference, transaction_id) VALUES(?, ?)", [.text(reference), .text(id)])
        } catch where error.isSQLiteConstraint {
            throw APIError.duplicateReference(reference)
        }
    }

    public func charge(id: String) async throws -> ChargeRecord? {
        try await read { db in
            try await db.query("SELECT doc FROM charges WHERE id = ?", [.text(id)]).first.flatMap(Self.decodeCharge)
        }
    }

    public func charge(chargeToken: String) async throws -> ChargeRecord? {
        try await read { db in
            try await db.query("SELECT doc FROM charges WHERE charge_token = ?", [.text(chargeToken)]).first.flatMap(Self.decodeCharge)
        }
    }

    public func updateCharge<T: Sendable>(id: String, reference: String?, now: Int64,
                                          _ body: @escaping @Sendable (inout ChargeRecord) throws -> T) async throws -> (ChargeRecord, T) {
        try await write { db in
            guard var charge = try await db.query("SELECT doc FROM charges WHERE id = ?", [.text(id)]).first
                .flatMap(Self.decodeCharge)
            else { throw APIError(.notFound, "transaction_id: no transaction '\(id)'") }
            if let reference {
                guard reference != charge.reference else {
                    throw APIError(.duplicateReference, "reference: must differ from the charge's own reference")
                }
                try await Self.claim(reference, for: id, in: db)
            }
            let (value, notification) = try charge.apply(now: now, body)
            try await db.query("UPDATE charges SET status = ?, expires_at = ?, doc = ? WHERE id = ?",
                         [.text(charge.status.rawValue), .int(charge.expiresAt),
                          .bytes(charge.document), .text(id)])
            if let notification {
                try await db.query("""
                    INSERT INTO outbox(transaction_id, status, url, origin, payload, next_attempt_at, state, created_at)
                    VALUES(?, ?, ?, ?, ?, ?, ?, ?)
                    """, [.text(id), .text(notification.status.rawValue), .text(charge.urls.ipn), .text(OutboxEntry.origin(of: charge.urls.ipn)),
                          .bytes(notification.payload), .int(now + notification.hold), .text(OutboxState.initial(url: charge.urls.ipn).rawValue), .int(now)])
            }
            return (charge, value)
        }
    }

    public func overdueCharges(now: Int64, limit: Int) async throws -> [String] {
        try await read { db in
            try await db.query("SELECT id FROM charges WHERE status IN ('initiated', 'pending') AND expires_at <= ? LIMIT ?",
                         [.int(now), .int(Int64(limit))]).compactMap { $0.first?.string }
        }
    }

    private static let outboxColumns = "id, transaction_id, status, url, payload, attempts, next_attempt_at, state, last_error"

    private static func outboxEntry(_ row: [SQLValue]) -> OutboxEntry? {
        guard row.count == 9, let id = row[0].int, let transaction = row[1].string, let status = row[2].string,
              let url = row[3].string, let payload = row[4].data, let attempts = row[5].int, let next = row[6].int,
              let state = row[7].string.flatMap(OutboxState.init(rawValue:))
        else { return nil }
        return OutboxEntry(id: id, transactionID: transaction, status: NotificationStatus(rawValue: status), url: url, payload: payload,
                           attempts: Int(attempts), nextAttemptAt: next, state: state, lastError: row[8].string)
    }

    public func dueNotifications(now: Int64, limit: Int, leaseUntil: Int64) async throws -> [OutboxEntry] {
        // The IPN worker asks every 100 ms, and nearly always nothing is due: a read on
        // the reading connection says so without a write. A write waits in the commit
        // queue, and a batch of new charges with one in it takes the general path
        // (savepoints, several statements) instead of its one statement. What the read
        // finds is claimed by the write below, which checks again: an IPN that falls due
        // just after the read waits for the next call.
        let anyDue = try await read { db in
            try await db.query("SELECT 1 FROM outbox WHERE state = 'pending' AND next_attempt_at <= ? AND lease_until <= ? LIMIT 1",
                               [.int(now), .int(now)])
        }
        guard !anyDue.isEmpty else { return [] }
        return try await write { db in
            // Only the oldest pending IPN of each transaction: a later status change waits
            // until the earlier one is delivered or dead, so a merchant sees them in order.
            // And per receiver origin, no more than OutboxEntry.maximumInFlightPerOrigin in
            // flight, taken in turns across origins. The origins are found by skipping
            // through the index (one probe each, not one per IPN), and each origin with a
            // free slot is read only as far as its first few due IPNs: a hanging
            // receiver's backlog costs a claim nothing and holds no other origin back.
            try await db.query("""
                WITH RECURSIVE origins(origin) AS (
                    SELECT min(origin) FROM outbox WHERE state = 'pending'
                    UNION ALL
                    SELECT (SELECT min(n.origin) FROM outbox AS n WHERE n.state = 'pending' AND n.origin > origins.origin)
                    FROM origins WHERE origin IS NOT NULL),
                busy AS (
                    SELECT origin, (SELECT count(*) FROM outbox AS f
                                    WHERE f.state = 'pending' AND f.origin = origins.origin AND f.lease_until > ?1) AS held
                    FROM origins WHERE origin IS NOT NULL),
                ranked AS (
                    SELECT o.id, b.held + ROW_NUMBER() OVER (PARTITION BY b.origin ORDER BY o.id) AS place
                    FROM busy AS b JOIN outbox AS o ON o.id IN (
                        SELECT c.id FROM outbox AS c
                        WHERE c.state = 'pending' AND c.origin = b.origin AND c.next_attempt_at <= ?1 AND c.lease_until <= ?1
                          AND c.id = (SELECT min(p.id) FROM outbox AS p WHERE p.transaction_id = c.transaction_id AND p.state = 'pending')
                        ORDER BY c.id LIMIT ?2)
                    WHERE b.held < ?2)
                UPDATE outbox SET lease_until = ?3 WHERE id IN (
                    SELECT id FROM ranked WHERE place <= ?2 ORDER BY place, id LIMIT ?4)
                RETURNING \(Self.outboxColumns)
                """, [.int(now), .int(Int64(OutboxEntry.maximumInFlightPerOrigin)), .int(leaseUntil), .int(Int64(limit))])
                .compactMap(Self.outboxEntry).sorted { $0.id < $1.id }
        }
    }

    public func recordAttempt(_ attempt: IPNAttempt, state: OutboxState, nextAttemptAt: Int64) async throws {
        try await write { db in
            try await db.query("UPDATE outbox SET state = ?, attempts = ?, next_attempt_at = ?, last_error = ?, lease_until = 0 WHERE id = ?",
                         [.text(state.rawValue), .int(Int64(attempt.number)), .int(nextAttemptAt),
                          attempt.lastError.map(SQLValue.text) ?? .null, .int(attempt.notificationID)])
            try await db.query("INSERT OR REPLACE INTO ipn_attempts(outbox_id, attempt, at, answer, delivered) VALUES(?, ?, ?, ?, ?)",
                         [.int(attempt.notificationID), .int(Int64(attempt.number)), .int(attempt.time), .text(attempt.answer),
                          .int(attempt.delivered ? 1 : 0)])
        }
    }

    public func notificationLog(transactionIDs: [String]) async throws -> (notifications: [OutboxEntry], attempts: [IPNAttempt]) {
        guard !transactionIDs.isEmpty else { return ([], []) }
        return try await read { db in
            let entries = try await db.query("""
                SELECT \(Self.outboxColumns) FROM outbox WHERE transaction_id IN (SELECT value FROM json_each(?)) ORDER BY id
                """, [try Self.jsonArray(transactionIDs)]).compactMap(Self.outboxEntry)
            return (entries, try await Self.attempts(of: entries, in: db))
        }
    }

    /// The attempts at `entries`, in the order they were made, read in `db` (the
    /// caller's read, so that they are the attempts of what it read).
    private static func attempts(of entries: [OutboxEntry], in db: SQLiteDatabase) async throws -> [IPNAttempt] {
        guard !entries.isEmpty else { return [] }
        return try await db.query("""
            SELECT outbox_id, attempt, at, answer, delivered FROM ipn_attempts
            WHERE outbox_id IN (SELECT value FROM json_each(?)) ORDER BY at, outbox_id, abs(attempt)
            """, [try jsonArray(entries.map(\.id))]).compactMap(Self.attempt)
    }

    /// `values` as one JSON array, bound as one value however many (read by `json_each`).
    private static func jsonArray(_ values: some Encodable) throws -> SQLValue {
        .text(String(decoding: try JSONEncoder().encode(values), as: UTF8.self))
    }

    /// An attempt from its row (`outbox_id, attempt, at, answer, delivered`); `nil`, never a trap, for a damaged one.
    private static func attempt(_ row: [SQLValue]) -> IPNAttempt? {
        guard row.count == 5, let id = row[0].int, let number = row[1].int, let time = row[2].int,
              let answer = row[3].string, let delivered = row[4].int
        else { return nil }
        return IPNAttempt(notificationID: id, number: Int(number), time: time, answer: answer, delivered: delivered != 0)
    }

    public func resendNotification(id: Int64, now: Int64) async throws -> Bool {
        try await write { db in
            if !(try await db.query("UPDATE outbox SET state = 'pending', next_attempt_at = ? WHERE id = ? AND url <> '' RETURNING id",
                                    [.int(now), .int(id)]).isEmpty) { return true }
            // One kept for the listeners only is written again, as a new IPN they all get.
            return !(try await db.query("""
                INSERT INTO outbox(transaction_id, status, url, payload, next_attempt_at, state, created_at)
                SELECT transaction_id, status, url, payload, ?, state, ? FROM outbox WHERE id = ? AND url = '' RETURNING id
                """, [.int(now), .int(now), .int(id)]).isEmpty)
        }
    }

    public func recentCharges(limit: Int) async throws -> [ChargeRecord] {
        try await read { db in
            try await db.query("SELECT doc FROM charges ORDER BY rowid DESC LIMIT ?", [.int(Int64(max(0, limit)))])
                .compactMap(Self.decodeCharge)
        }
    }

    public func notifications(transactionID: String?) async throws -> [OutboxEntry] {
        try await read { db in
            if let transactionID {
                return try await db.query("SELECT \(Self.outboxColumns) FROM outbox WHERE transaction_id = ? ORDER BY id",
                                    [.text(transactionID)]).compactMap(Self.outboxEntry)
            }
            return try await db.query("SELECT \(Self.outboxColumns) FROM outbox ORDER BY id").compactMap(Self.outboxEntry)
        }
    }

    public func latestNotifications(transactionID: String?, limit: Int) async throws -> (notifications: [OutboxEntry], attempts: [IPNAttempt]) {
        try await read { db in
            let filter = transactionID == nil ? "" : "WHERE transaction_id = ?2"
            let values: [SQLValue] = [.int(Int64(max(0, limit)))] + (transactionID.map { [.text($0)] } ?? [])
            let shown = "SELECT id FROM outbox \(filter) ORDER BY id DESC LIMIT ?1"
            let entries = try await db.query("SELECT \(Self.outboxColumns) FROM outbox WHERE id IN (\(shown)) ORDER BY id", values)
                .compactMap(Self.outboxEntry)
            return (entries, try await Self.attempts(of: entries, in: db))
        }
    }

    public func notifications(after id: Int64, limit: Int) async throws -> [OutboxEntry] {
        try await read { db in
            try await db.query("SELECT \(Self.outboxColumns) FROM outbox WHERE id > ? ORDER BY id LIMIT ?",
                               [.int(id), .int(Int64(limit))]).compactMap(Self.outboxEntry)
        }
    }

    public func recordForward(notificationID: Int64, time: Int64, answer: String, delivered: Bool) async throws -> Bool {
        try await write { db in
            !(try await db.query("""
                INSERT INTO ipn_attempts(outbox_id, attempt, at, answer, delivered)
                SELECT id, (SELECT coalesce(min(attempt), 0) - 1 FROM ipn_attempts WHERE outbox_id = ? AND attempt < 0), ?, ?, ?
                FROM outbox WHERE id = ? RETURNING outbox_id
                """, [.int(notificationID), .int(time), .text(answer), .int(delivered ? 1 : 0), .int(notificationID)]).isEmpty)
        }
    }

    public func latestNotificationID() async throws -> Int64 {
        try await read { db in Int64(try await db.query("SELECT coalesce(max(id), 0) FROM outbox").first?.first?.int ?? 0) }
    }

    public func chargeCount() async throws -> Int {
        try await read { db in Int(try await db.query("SELECT count(*) FROM charges").first?.first?.int ?? 0) }
    }

    /// How many commits the writing connection has made through the commit queue (a
    /// group commit counts once), for tests that a call made no write.
    package var commitCount: Int { queue.batchesTaken }

    /// Closes the database: writes queued so far are still committed, later ones and
    /// every later read fail.
    public func close() {
        if queue.close() { closeConnections() }
    }
}
