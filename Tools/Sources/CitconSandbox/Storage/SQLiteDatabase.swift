import Foundation
import NIOCore
import SQLiteNIO

/// A value bound to or read from an SQLite statement: SQLiteNIO's own type.
typealias SQLValue = SQLiteData

extension SQLiteData {
    /// The value when it is an integer (no conversion from text or floats).
    var int: Int64? { if case .integer(let value) = self { Int64(value) } else { nil } }

    /// The bytes of a blob or of a text.
    var data: Data? {
        switch self {
        case .blob(let buffer): Data(buffer.readableBytesView)
        case .text(let value): Data(value.utf8)
        default: nil
        }
    }

    /// A blob holding `data`.
    static func bytes(_ data: Data) -> SQLiteData { .blob(ByteBuffer(bytes: data)) }

    /// An integer.
    static func int(_ value: Int64) -> SQLiteData { .integer(SQLiteInt64(value)) }
}

/// A failure of the sandbox's SQLite storage that SQLite itself did not report.
struct SQLiteStoreError: Error, CustomStringConvertible {
    var description: String
}

extension Error {
    /// Whether this is SQLite refusing a write for a constraint (a unique key, say).
    var isSQLiteConstraint: Bool {
        guard let error = self as? SQLiteError else { return false }
        switch error.reason {
        case .constraint, .constraintCheckFailed, .constraintPrimaryKeyFailed, .constraintUniqueFailed,
             .constraintNotNullFailed, .constraintForeignKeyFailed, .constraintUniqueRowIDFailed:
            return true
        default:
            return false
        }
    }
}

/// One SQLite connection through SQLiteNIO's public API (statements run on NIO's
/// thread pool, never on a Swift concurrency thread). A connection runs one statement
/// at a time; ``SQLiteSandboxStore`` decides which connection does what.
struct SQLiteDatabase: Sendable {
    let connection: SQLiteConnection

    /// Opens (creating if needed) the database file at `path`, its WAL written a commit
    /// at a time (``WALWriteCombining``), with `synchronous=FULL`: every commit syncs,
    /// which that VFS needs of each connection that writes through it (and an
    /// acknowledged write survives `kill -9`).
    static func open(path: String) async throws -> SQLiteDatabase {
        let database = SQLiteDatabase(connection: try await SQLiteConnection.open(storage: .file(path: WALWriteCombining.uri(path: path))))
        do {
            try await database.execute("PRAGMA synchronous=FULL")
        } catch {
            await database.close()
            throw error
        }
        return database
    }

    /// Runs SQL without results; several statements separated by `;` are run in turn
    /// (the schema's SQL holds no `;` inside a literal).
    func execute(_ sql: String) async throws {
        for statement in sql.split(separator: ";") {
            let text = statement.trimmingCharacters(in: .whitespacesAndNewlines)
            if !text.isEmpty { _ = try await connection.query(text, []) }
        }
    }

    /// Runs one statement and returns its rows, each as its columns' values in order.
    @discardableResult
    func query(_ sql: String, _ values: [SQLValue] = []) async throws -> [[SQLValue]] {
        try await connection.query(sql, values).map { $0.columns.map(\.data) }
    }

    func close() async {
        try? await connection.close()
    }
}
