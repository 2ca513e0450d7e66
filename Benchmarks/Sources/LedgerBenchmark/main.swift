import ChargeKit
import ChargeKitPostgres
import ChargeKitSimulators
import CSQLite3
import Foundation

// One issue + verify round trip of the file ledger (what every hand-off costs), beside
// the same ChargeLedger on a SQLite store in the same run (the entry as JSON in a row:
// inserted; read back by its nonce; read and updated in one transaction; WAL,
// synchronous=FULL). Each is measured with 50, 500 and 5 000 settled entries retained.
//
// With CHARGEKIT_POSTGRES_URL set (scripts/postgres.sh start prints one), the
// PostgreSQL store is timed too, on a table of its own.
//
//   swift run -c release --package-path Benchmarks LedgerBenchmark [round-trips-per-batch] [batches]

let arguments = CommandLine.arguments.dropFirst().compactMap { Int($0) }
let perBatch = arguments.first ?? 200
let batches = arguments.dropFirst().first ?? 7

/// What every round trip charges: the first registered app's sample app (the registry's
/// order), 10.99 in its sample currency with one extra field where the app returns extras.
struct Sample: Sendable {
    let app: PaymentApp
    let order: ChargeOrder

    init() throws {
        guard let simulator = SimulatedApps.registered.first else { throw ChargeKitError.storage("no registered app") }
        app = simulator.sampleApp(callbackURL: "my-app://done")
        order = ChargeOrder(amount: Money(minorUnits: 1099, currency: simulator.sampleCurrency), description: "Tea", reference: "321")
    }
}

/// One round trip on a ledger: issue, then verify the app's approval.
func roundTrip(_ ledger: ChargeLedger, _ sample: Sample) async throws {
    let handoff = try await ledger.issue { nonce throws(ChargeKitError) in try sample.app.handoff(for: sample.order, nonce: nonce) }
    var apps = SimulatedApps()
    _ = try await ledger.verify(url: try apps.respond(to: handoff.request.url, outcome: .approved))
}

/// The same ledger on SQLite: a ``LedgerStore`` as one would write it (WAL,
/// synchronous=FULL; each step one transaction: an insert, a select, a select and an
/// update), so that both stores do the same work through the same ``ChargeLedger``.
final class SQLiteLedgerStore: LedgerStore, @unchecked Sendable {
    private let lock = NSLock()
    private var db: OpaquePointer?
    private var insertRow: OpaquePointer?, selectRow: OpaquePointer?, updateRow: OpaquePointer?
    private let encoder = JSONEncoder(), decoder = JSONDecoder()

    init(path: String) throws {
        guard sqlite3_open(path, &db) == SQLITE_OK else { throw ChargeKitError.storage("open") }
        for statement in ["PRAGMA journal_mode=WAL", "PRAGMA synchronous=FULL",
                          "CREATE TABLE IF NOT EXISTS ledger (nonce TEXT PRIMARY KEY, entry BLOB NOT NULL)"] {
            guard sqlite3_exec(db, statement, nil, nil, nil) == SQLITE_OK else { throw ChargeKitError.storage(statement) }
        }
        sqlite3_prepare_v2(db, "INSERT INTO ledger(nonce, entry) VALUES (?, ?)", -1, &insertRow, nil)
        sqlite3_prepare_v2(db, "SELECT entry FROM ledger WHERE nonce = ?", -1, &selectRow, nil)
        sqlite3_prepare_v2(db, "UPDATE ledger SET entry = ? WHERE nonce = ?", -1, &updateRow, nil)
        encoder.dateEncodingStrategy = .iso8601
        decoder.dateDecodingStrategy = .iso8601
    }

    func insert(_ charge: PendingCharge, now: Date, retention: TimeInterval) throws(ChargeKitError) {
        try locked { () throws(ChargeKitError) in
            sqlite3_bind_text(insertRow, 1, charge.nonce.value, -1, Self.transient)
            try bind(try encode(charge), insertRow, 2)
            guard sqlite3_step(insertRow) == SQLITE_DONE else { sqlite3_reset(insertRow); throw .duplicateField("nonce") }
            sqlite3_reset(insertRow)
        }
    }

    func charge(for nonce: Nonce) throws(ChargeKitError) -> PendingCharge? {
        try locked { () throws(ChargeKitError) in try select(nonce.value) }
    }

    func consume(_ nonce: Nonce, at date: Date, accepting accepted: AcceptedCallback?) throws(ChargeKitError) -> PendingCharge {
        try locked { () throws(ChargeKitError) -> PendingCharge in
            sqlite3_exec(db, "BEGIN IMMEDIATE", nil, nil, nil)
            do throws(ChargeKitError) {
                guard let entry = try select(nonce.value) else { throw .unknownNonce }
                guard entry.consumedAt == nil else { throw .replayedNonce }
                guard date < entry.expiresAt else { throw .expiredNonce }
                let consumed = entry.consumed(at: date, accepting: accepted)
                try bind(try encode(consumed), updateRow, 1)
                sqlite3_bind_text(updateRow, 2, nonce.value, -1, Self.transient)
                guard sqlite3_step(updateRow) == SQLITE_DONE else { throw .storage("update") }
                sqlite3_reset(updateRow)
                sqlite3_exec(db, "COMMIT", nil, nil, nil)
                return consumed
            } catch {
                sqlite3_reset(updateRow)
                sqlite3_exec(db, "ROLLBACK", nil, nil, nil)
                throw error
            }
        }
    }

    func charges() throws(ChargeKitError) -> [PendingCharge] { [] }

    private func select(_ nonce: String) throws(ChargeKitError) -> PendingCharge? {
        defer { sqlite3_reset(selectRow) }
        sqlite3_bind_text(selectRow, 1, nonce, -1, Self.transient)
        guard sqlite3_step(selectRow) == SQLITE_ROW, let bytes = sqlite3_column_blob(selectRow, 0) else { return nil }
        do {
            return try decoder.decode(PendingCharge.self, from: Data(bytes: bytes, count: Int(sqlite3_column_bytes(selectRow, 0))))
        } catch { throw .corruptStorage("row") }
    }

    private func encode(_ charge: PendingCharge) throws(ChargeKitError) -> Data {
        do { return try encoder.encode(charge) } catch { throw .storage("encode") }
    }

    private func locked<T>(_ body: () throws(ChargeKitError) -> T) throws(ChargeKitError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    private func bind(_ data: Data, _ statement: OpaquePointer?, _ index: Int32) throws(ChargeKitError) {
        _ = data.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), Self.transient) }
    }

    static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    deinit {
        [insertRow, selectRow, updateRow].forEach { sqlite3_finalize($0) }
        sqlite3_close(db)
    }
}

/// A clock that moves one second each time it is read.
final class Tick: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds = 0.0
    func next() -> Date {
        lock.withLock {
            seconds += 0.5
            return Date(timeIntervalSinceReferenceDate: 800_000_000 + seconds)
        }
    }
}

/// Median and spread (min, max) of the batches' microseconds per round trip.
func summary(_ samples: [Double]) -> (median: Double, low: Double, high: Double) {
    let sorted = samples.sorted()
    return (sorted[sorted.count / 2], sorted.first ?? 0, sorted.last ?? 0)
}

func microseconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) * 1e6 + Double(duration.components.attoseconds) / 1e12
}

let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-benchmark-\(UUID().uuidString)")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
defer { try? FileManager.default.removeItem(at: folder) }
let sample = try Sample()

print("retained  file ledger µs (min–max)    SQLite µs (min–max)      file/SQLite")
var medians: [Int: Double] = [:]
for retained in [50, 500, 5_000] {
    // A clock half a second on per reading (a second per round trip) and a retention of
    // `retained` seconds: the file ledger holds about `retained` settled entries
    // throughout, as one does in its steady state. SQLite's table only grows.
    let clock = Tick()
    let file = ChargeLedger(store: FileLedgerStore(fileURL: folder.appendingPathComponent("ledger-\(retained).json")),
                            retention: TimeInterval(retained), now: { clock.next() })
    let sqlite = ChargeLedger(store: try SQLiteLedgerStore(path: folder.appendingPathComponent("ledger-\(retained).sqlite").path),
                              now: { clock.next() })
    for _ in 0..<retained {
        try await roundTrip(file, sample)
        try await roundTrip(sqlite, sample)
    }
    var fileTimes: [Double] = [], sqliteTimes: [Double] = []
    for _ in 0..<batches {
        // Interleaved, so that both see the same machine.
        for (ledger, times) in [(file, 0), (sqlite, 1)] {
            let started = ContinuousClock.now
            for _ in 0..<perBatch { try await roundTrip(ledger, sample) }
            let each = microseconds(ContinuousClock.now - started) / Double(perBatch)
            if times == 0 { fileTimes.append(each) } else { sqliteTimes.append(each) }
        }
    }
    let f = summary(fileTimes), s = summary(sqliteTimes)
    medians[retained] = f.median
    print(String(format: "%8d  %7.0f (%.0f–%.0f)%@  %7.0f (%.0f–%.0f)%@  %5.2f×", retained, f.median, f.low, f.high,
                 String(repeating: " ", count: 6), s.median, s.low, s.high, String(repeating: " ", count: 6), f.median / s.median))
}
if let small = medians[50], let large = medians[5_000] {
    print(String(format: "file ledger at 5 000 retained / at 50: %.2f×", large / small))
}

if let url = ProcessInfo.processInfo.environment["CHARGEKIT_POSTGRES_URL"], !url.isEmpty {
    let store = try await PostgresLedgerStore.connect(url: url, tablePrefix: "bench_\(UInt32.random(in: 0...UInt32.max))_")
    defer { store.close() }
    let clock = Tick()
    let postgres = ChargeLedger(store: store, retention: 500, now: { clock.next() })
    for _ in 0..<500 { try await roundTrip(postgres, sample) }
    var times: [Double] = []
    for _ in 0..<batches {
        let started = ContinuousClock.now
        for _ in 0..<perBatch { try await roundTrip(postgres, sample) }
        times.append(microseconds(ContinuousClock.now - started) / Double(perBatch))
    }
    let p = summary(times)
    print(String(format: "PostgreSQL store (500 retained, loopback): %.0f µs (%.0f–%.0f)", p.median, p.low, p.high))
}
