#if PostgreSQL  // the package's PostgreSQL trait (Tools/Package.swift)
@_spi(Tools) import ChargeKit
import Foundation
import Logging
import PostgresNIO

/// A connection pool to one database, running from its creation until ``close()``, and
/// the settings of the one direct connection a store's first contact makes
/// (``PostgresSupport/probe(_:)``): what every PostgreSQL store holds.
package struct PostgresPool: Sendable {
    /// The client whose pool runs.
    package let client: PostgresClient
    /// One direct connection's settings for the same database.
    package let probe: PostgresConnection.Configuration
    private let runner: Task<Void, Never>

    /// Reads `url` as `field`, checks `tablePrefix` and starts the pool.
    package init(url: String, tablePrefix: String, field: String) throws(ChargeKitError) {
        let configuration = try PostgresSupport.configuration(url, field: field)
        probe = try PostgresSupport.probeConfiguration(url, field: field)
        try PostgresSupport.validatePrefix(tablePrefix)
        let client = PostgresClient(configuration: configuration, backgroundLogger: PostgresSupport.silent)
        self.client = client
        runner = Task { await client.run() }
    }

    /// Stops the pool.
    package func close() { runner.cancel() }
}

/// What every PostgreSQL store of this package shares: reading a `postgres://` URL,
/// table prefixes, versioned migrations under an advisory lock, a deadline on the
/// first contact, and turning database errors into ``ChargeKitError``.
package enum PostgresSupport {
    /// A logger that stays quiet (failures reach the caller as errors).
    package static let silent: Logger = {
        var logger = Logger(label: "chargekit.postgres")
        logger.logLevel = .critical
        return logger
    }()

    /// The client configuration for `postgres://user[:password]@host[:port]/database`
    /// (`?sslmode=require` for TLS).
    package static func configuration(_ url: String, field: String) throws(ChargeKitError) -> PostgresClient.Configuration {
        guard let components = URLComponents(string: url), ["postgres", "postgresql"].contains(components.scheme?.lowercased()),
              let host = components.host, !host.isEmpty
        else { throw .invalidURL(field, rule: "must be postgres://user[:password]@host[:port]/database") }
        let database = String(components.path.drop { $0 == "/" })
        guard !database.isEmpty else { throw .invalidURL(field, rule: "names no database (postgres://user@host:port/database)") }
        var configuration = PostgresClient.Configuration(
            host: host, port: components.port ?? 5432, username: components.user ?? "postgres",
            password: components.password, database: database, tls: .disable)
        let sslmode = components.queryItems?.first { $0.name == "sslmode" }?.value
        if sslmode == "require" || sslmode == "verify-full" { configuration.tls = .require(.makeClientConfiguration()) }
        configuration.options.minimumConnections = 0
        configuration.options.maximumConnections = 8
        return configuration
    }

    /// One connection's configuration for the same URL, for ``probe(_:)``.
    package static func probeConfiguration(_ url: String, field: String) throws(ChargeKitError) -> PostgresConnection.Configuration {
        let pool = try configuration(url, field: field)
        let sslmode = URLComponents(string: url)?.queryItems?.first { $0.name == "sslmode" }?.value
        var tls = PostgresConnection.Configuration.TLS.disable
        if sslmode == "require" || sslmode == "verify-full" {
            do {
                tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            } catch {
                throw .invalidURL(field, rule: "TLS (sslmode=\(sslmode ?? "")) cannot be set up: \(error)")
            }
        }
        return PostgresConnection.Configuration(host: pool.host ?? "", port: pool.port ?? 5432, username: pool.username,
                                                password: pool.password, database: pool.database, tls: tls)
    }

    /// Opens and closes one connection. The pool retries a refused connection or a
    /// server's refusal ("database … does not exist", a wrong password) without end and
    /// without saying why; one direct attempt fails at once with the server's own error,
    /// which ``storageError(_:_:)`` passes on.
    package static func probe(_ configuration: PostgresConnection.Configuration) async throws {
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: silent)
        try await connection.close()
    }

    /// Whether a `--ledger`/`--db` value names PostgreSQL (`postgres://` or `postgresql://`).
    package static func isURL(_ spec: String) -> Bool {
        let lower = spec.lowercased()
        return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
    }

    /// The `table_prefix` query item of a URL, or `fallback`.
    package static func tablePrefix(in url: String, fallback: String) -> String {
        URLComponents(string: url)?.queryItems?.first { $0.name == "table_prefix" }?.value ?? fallback
    }

    /// A table prefix: 1 to 30 of `a-z`, `0-9` and `_`, starting with a letter or `_`
    /// (it is written into SQL, so nothing else may pass).
    package static func validatePrefix(_ prefix: String) throws(ChargeKitError) {
        guard let first = prefix.utf8.first, prefix.utf8.count <= 30,
              first == UInt8(ascii: "_") || (0x61...0x7A).contains(first),
              prefix.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == UInt8(ascii: "_") })
        else { throw .invalidField("tablePrefix", rule: "must be 1 to 30 of a-z, 0-9 and _, starting with a letter or _") }
    }

    /// FNV-1a of `text`, stable across processes and releases (advisory lock keys).
    package static func stableHash(_ text: String) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }

    /// Applies the migrations not yet applied (version N is `migrations[N-1]`, its
    /// statements in order) in one transaction under an advisory lock, so that many
    /// processes may start at once. Returns the version.
    package static func migrate(_ client: PostgresClient, versionsTable: String, lockKey: Int64,
                                migrations: [[String]]) async throws -> Int {
        try await client.withTransaction(logger: silent) { connection in
            try await connection.query("SELECT pg_advisory_xact_lock(\(lockKey))", logger: silent)
            try await connection.query("CREATE TABLE IF NOT EXISTS \(unescaped: versionsTable) (version integer PRIMARY KEY)",
                                       logger: silent)
            var current = 0
            for try await version in try await connection.query(
                "SELECT coalesce(max(version), 0) FROM \(unescaped: versionsTable)", logger: silent
            ).decode(Int.self) { current = version }
            guard current <= migrations.count else {
                throw ChargeKitError.storage("\(versionsTable): schema \(current) is newer than this code (\(migrations.count))")
            }
            for (index, statements) in migrations.enumerated() where index + 1 > current {
                for statement in statements { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: silent) }
                try await connection.query("INSERT INTO \(unescaped: versionsTable)(version) VALUES (\(index + 1))", logger: silent)
            }
            return migrations.count
        }
    }

    /// Runs `body` with a deadline: the pool retries an unreachable server without end,
    /// so a first contact is given `timeout`, and a wrong URL fails in seconds.
    package static func withDeadline<T: Sendable>(_ timeout: Duration, _ body: @escaping @Sendable () async throws -> T)
        async throws(ChargeKitError) -> T
    {
        let outcome: Result<T, ChargeKitError> = await withTaskGroup(of: Result<T, ChargeKitError>?.self) { group in
            group.addTask {
                do { return .success(try await body()) } catch { return .failure(storageError("connect", error)) }
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return Task.isCancelled ? nil : .failure(.storage("PostgreSQL: no answer from the server within \(timeout)"))
            }
            var first: Result<T, ChargeKitError>?
            for await result in group where first == nil && result != nil {
                first = result
                group.cancelAll()
            }
            return first ?? .failure(.cancelled)
        }
        return try outcome.get()
    }

    /// A database failure as a ``ChargeKitError``, saying which step failed.
    package static func storageError(_ step: String, _ error: any Error) -> ChargeKitError {
        if let error = error as? ChargeKitError { return error }
        if let error = error as? PSQLError {
            if let message = error.serverInfo?[.message] { return .storage("PostgreSQL \(step): \(message)") }
            // No server message: the connection itself failed (refused, unreachable).
            let underlying = error.underlying.map { "\($0)" } ?? String(describing: error.code)
            return .storage("PostgreSQL \(step): \(underlying)")
        }
        return .storage("PostgreSQL \(step): \(error)")
    }

    /// Whether `error` is a unique-constraint violation (SQLSTATE 23505).
    package static func isUniqueViolation(_ error: any Error) -> Bool {
        (error as? PSQLError)?.serverInfo?[.sqlState] == "23505"
    }
}
#endif
