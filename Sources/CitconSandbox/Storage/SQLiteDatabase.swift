import Foundation
import VaporCSQLite

/// A value bound to or read from an SQLite statement.
enum SQLValue: Sendable, Equatable {
    case integer(Int64)
    case text(String)
    case blob(Data)
    case null

    var int: Int64? { if case .integer(let value) = self { value } else { nil } }
    var string: String? { if case .text(let value) = self { value } else { nil } }
    var data: Data? {
        switch self {
        case .blob(let value): value
        case .text(let value): Data(value.utf8)
        default: nil
        }
    }
}

/// An SQLite failure, with SQLite's own message.
struct SQLiteError: Error, CustomStringConvertible {
    var code: Int32
    var message: String
    var isConstraint: Bool { code & 0xFF == SQLITE_CONSTRAINT }
    var description: String { "sqlite \(code): \(message)" }
}

/// One SQLite connection through the C API (the SQLite that sqlite-nio vendors). Not
/// thread-safe: ``SQLiteSandboxStore`` uses it from one serial queue only. Statements
/// are prepared once and cached.
final class SQLiteDatabase {
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(path: String) throws {
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let status = sqlite_nio_sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite_nio_sqlite3_errmsg($0)) } ?? "cannot open"
            sqlite_nio_sqlite3_close_v2(handle)
            throw SQLiteError(code: status, message: "\(path): \(message)")
        }
        sqlite_nio_sqlite3_busy_timeout(handle, 5000)
    }

    deinit {
        for statement in statements.values { sqlite_nio_sqlite3_finalize(statement) }
        sqlite_nio_sqlite3_close_v2(handle)
    }

    private func error(_ status: Int32) -> SQLiteError {
        SQLiteError(code: status, message: handle.map { String(cString: sqlite_nio_sqlite3_errmsg($0)) } ?? "closed")
    }

    /// Runs SQL without results (several statements allowed).
    func execute(_ sql: String) throws {
        let status = sqlite_nio_sqlite3_exec(handle, sql, nil, nil, nil)
        guard status == SQLITE_OK else { throw error(status) }
    }

    /// Runs one statement and returns its rows.
    @discardableResult
    func query(_ sql: String, _ values: [SQLValue] = []) throws -> [[SQLValue]] {
        let statement = try prepared(sql)
        defer {
            sqlite_nio_sqlite3_reset(statement)
            sqlite_nio_sqlite3_clear_bindings(statement)
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32 = switch value {
            case .integer(let int): sqlite_nio_sqlite3_bind_int64(statement, index, int)
            case .text(let text): sqlite_nio_sqlite3_bind_text(statement, index, text, -1, Self.transient)
            case .blob(let data):
                data.withUnsafeBytes { sqlite_nio_sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), Self.transient) }
            case .null: sqlite_nio_sqlite3_bind_null(statement, index)
            }
            guard status == SQLITE_OK else { throw error(status) }
        }
        var rows: [[SQLValue]] = []
        while true {
            let status = sqlite_nio_sqlite3_step(statement)
            if status == SQLITE_DONE { break }
            guard status == SQLITE_ROW else { throw error(status) }
            let count = sqlite_nio_sqlite3_column_count(statement)
            var row: [SQLValue] = []
            row.reserveCapacity(Int(count))
            for column in 0..<count {
                switch sqlite_nio_sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: row.append(.integer(sqlite_nio_sqlite3_column_int64(statement, column)))
                case SQLITE_NULL: row.append(.null)
                case SQLITE_BLOB:
                    let bytes = sqlite_nio_sqlite3_column_blob(statement, column)
                    let length = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
                    row.append(.blob(bytes.map { Data(bytes: $0, count: length) } ?? Data()))
                default:
                    let text = sqlite_nio_sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
                    row.append(.text(text))
                }
            }
            rows.append(row)
        }
        return rows
    }

    /// Rows changed by the last statement.
    var changes: Int { Int(sqlite_nio_sqlite3_changes(handle)) }

    private func prepared(_ sql: String) throws -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let status = sqlite_nio_sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw error(status) }
        statements[sql] = statement
        return statement
    }

    /// Runs `body` in an immediate transaction: committed when it returns, rolled back
    /// when it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let value = try body()
            try execute("COMMIT")
            return value
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}
