import ArgumentParser
import ChargeKitCommands
@_spi(Tools) import ChargeKit
#if PostgreSQL
import ChargeKitPostgres
import CitconSandboxPostgres
#endif
import CitconSandbox
import Foundation
import NIOCore
import ToolsHTTP
import ToolsPlatform
import Logging

struct Sandbox: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The local Citcon UPI sandbox server.",
        subcommands: [Serve.self, Health.self]
    )

    /// `chargekit sandbox health`: whether a sandbox answers, for a container's health
    /// check (the image has no curl) and a CI job's wait loop.
    struct Health: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Ask a sandbox whether it is up (GET /v1/health): exit 0 when it answers 200, 69 otherwise.",
            discussion: "Needs no key. The image's health check runs it against its own port."
        )
        @Option(name: .customLong("base-url"), help: "The sandbox's address (default: $CHARGEKIT_SANDBOX_URL, else http://127.0.0.1:8790).")
        var baseURL: String?
        @Option(help: "Seconds to wait for the whole answer.") var timeout = 5.0

        func validate() throws {
            _ = try Serve.seconds(timeout, option: "--timeout")
            guard healthURL != nil else { throw ValidationError("--base-url must be an http(s) URL with a host, got '\(shownBase)'") }
        }

        private var shownBase: String { baseURL ?? Environment.sandboxURL ?? "http://127.0.0.1:8790" }

        /// `<base>/v1/health`, whether the base ends in `/v1` or not.
        var healthURL: URL? { UPI.Connection.root(of: shownBase).flatMap { URL(string: "v1/health", relativeTo: $0)?.absoluteURL } }

        func run() async throws {
            try await Self.withOwnUsage {
                guard let url = healthURL else { throw ValidationError("--base-url is not a URL") }
                let request = ToolsHTTPClient.Request("GET", url, deadline: try Serve.seconds(timeout, option: "--timeout"), limit: 4096)
                do {
                    let answer = try await ToolsHTTPClient.shared.send(request)
                    guard answer.status == 200 else {
                        FileHandle.standardError.write(Data("chargekit sandbox health: HTTP \(answer.status) from \(ToolsHTTPClient.shown(url))\n".utf8))
                        throw ExitCode(69)
                    }
                    print("ok")
                } catch let failure as ToolsHTTPClient.Failure {
                    FileHandle.standardError.write(Data("chargekit sandbox health: \(failure.description.escapedForTerminal)\n".utf8))
                    throw ExitCode(69)
                }
            }
        }
    }

    struct Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Serve the UPI API (/v1/), the wallet page and IPN delivery, on a local SQLite file or a shared PostgreSQL database (--db).",
            discussion: "Prints the base URL and the merchant private key, then serves until SIGINT or SIGTERM. "
                + "The database is created (or migrated) on first start; the merchant key is created on first start "
                + "and kept in it, unless --merchant-key gives one."
        )

        @Option(help: "Port to listen on (0 picks a free one).") var port = 8790
        @Option(help: "Address to bind.") var host = "127.0.0.1"
        @Option(name: .customLong("public-url"),
                help: "Address clients reach the sandbox at, e.g. http://192.168.1.20:8790 (for wallet and QR links; a phone cannot open 0.0.0.0; default: $CHARGEKIT_PUBLIC_URL).")
        var publicURL: String?
        @Option(name: .customLong("log-level"),
                help: "Least level logged to standard error: trace, debug, info (every request and IPN attempt), notice, warning, error, critical.")
        var logLevel = "info"
        @Option(help: "SQLite database file, or postgres://user@host:port/db[?table_prefix=upi_] for a shared sandbox (default: $CHARGEKIT_DB_URL, else sandbox.sqlite).")
        var db = Environment.databaseURL ?? "sandbox.sqlite"
        @Option(name: .customLong("merchant-key"),
                help: "Merchant private key to use, at least \(SandboxConfiguration.minimumSecretLength) characters (default: $CHARGEKIT_MERCHANT_KEY, else the stored or a new one).")
        var merchantKey: String?
        @Option(name: .customLong("merchant-name"), help: "The merchant's name on the wallet page and the dashboard.")
        var merchantName = SandboxConfiguration().merchantName
        @Option(name: .customLong("ipn-secret"),
                help: "Merchant IPN secret that signs every IPN, at least \(SandboxConfiguration.minimumSecretLength) characters (default: $CHARGEKIT_IPN_SECRET, else the stored or a new one).")
        var ipnSecret: String?
        @Option(name: .customLong("charge-ttl"), help: "Seconds an unpaid charge lives before it expires.")
        var chargeTTL = 900.0
        @Option(name: .customLong("token-ttl"), help: "Seconds an access token lives.") var tokenTTL = 86400.0
        @Option(name: .customLong("ipn-retry"), help: "IPN retry delays in seconds, comma-separated (default 1,2,4,8,16,32,64).")
        var ipnRetry: String?
        @Option(name: .customLong("ipn-timeout"), help: "Seconds one IPN attempt may take in all (connect, send, answer).")
        var ipnTimeout = 5.0
        @Option(name: .customLong("request-timeout"),
                help: "Seconds a client may take to send a whole request; idle and half-sent connections are closed after it.")
        var requestTimeout = 30.0
        @Option(name: .customLong("max-connections"), help: "Most connections served at once (1 to 65536; never more than the open-file limit minus 64, which serve raises to its hard limit first); one client address holds a quarter of them at most.")
        var maxConnections = 256
        @Flag(name: .customLong("allow-remote-ipn"), help: "Allow IPN to non-loopback hosts (default: $CHARGEKIT_ALLOW_REMOTE_IPN, true in the image, else off).")
        var allowRemoteIPN = false
        @Flag(name: .customLong("no-group-commit"), help: "Commit each write alone (for comparison; slower).")
        var noGroupCommit = false
        @Flag(help: "Print the start line as one JSON object (base_url, merchant_key, ipn_secret, database, schema_version, dashboard), for scripts.")
        var json = false

        /// The longest time any option may give (ten years): time arithmetic in
        /// milliseconds can never overflow.
        static let longestSeconds = 10.0 * 365 * 24 * 3600

        /// A number of seconds from an option: finite, within bounds, else exit 64.
        static func seconds(_ value: Double, option: String, allowZero: Bool = false) throws -> Duration {
            guard value.isFinite, allowZero ? value >= 0 : value > 0, value <= longestSeconds else {
                throw ValidationError("\(option) must be a number of seconds \(allowZero ? "from 0" : "above 0") to \(Int(longestSeconds)), got \(value)")
            }
            return .milliseconds(Int64((value * 1000).rounded()))
        }

        func validate() throws {
            guard (0...65535).contains(port) else { throw ValidationError("--port must be 0 to 65535, got \(port)") }
            _ = try Self.seconds(chargeTTL, option: "--charge-ttl")
            _ = try Self.seconds(tokenTTL, option: "--token-ttl")
            _ = try Self.seconds(requestTimeout, option: "--request-timeout")
            _ = try Self.seconds(ipnTimeout, option: "--ipn-timeout")
            guard (1...65536).contains(maxConnections) else {
                throw ValidationError("--max-connections must be 1 to 65536, got \(maxConnections)")
            }
            _ = try retrySchedule()
            // A short key falls to guessing (a 2-letter key took 442 tries).
            for (option, variable, value) in [("--merchant-key", "CHARGEKIT_MERCHANT_KEY", merchantKey ?? Environment.merchantKey),
                                              ("--ipn-secret", "CHARGEKIT_IPN_SECRET", ipnSecret ?? Environment.ipnSecret)] {
                if let value, value.count < SandboxConfiguration.minimumSecretLength {
                    throw ValidationError("\(option) (or \(variable)) must be at least \(SandboxConfiguration.minimumSecretLength) characters, got \(value.count)")
                }
            }
        }

        func retrySchedule() throws -> [Duration]? {
            guard let ipnRetry else { return nil }
            let parts = ipnRetry.split(separator: ",", omittingEmptySubsequences: false)
            guard !parts.isEmpty, parts.count <= 64 else { throw ValidationError("--ipn-retry takes 1 to 64 delays") }
            return try parts.map { part in
                guard let value = Double(part.trimmingCharacters(in: .whitespaces)) else {
                    throw ValidationError("--ipn-retry must be seconds separated by commas, such as 1,2,4")
                }
                return try Self.seconds(value, option: "--ipn-retry", allowZero: true)
            }
        }

        /// Raises the soft open-file limit to the hard one, as servers do: more room
        /// for connections below it (see `SandboxConfiguration.connectionCap`).
        static func raiseOpenFileLimit() {
            var limit = rlimit()
            guard getrlimit(Platform.openFileLimit, &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
            limit.rlim_cur = limit.rlim_max
            _ = setrlimit(Platform.openFileLimit, &limit)
        }

        func run() async throws {
            try await Self.withOwnUsage {
                Self.raiseOpenFileLimit()
                var configuration = SandboxConfiguration()
                configuration.port = port
                configuration.host = host
                guard let level = Logger.Level(rawValue: logLevel) else {
                    throw ValidationError("--log-level must be trace, debug, info, notice, warning, error or critical, got '\(logLevel)'")
                }
                LoggingSystem.bootstrap(StreamLogHandler.standardError)
                configuration.logger = Logger(label: "chargekit.sandbox")
                configuration.logger.logLevel = level
                if let publicURL = publicURL ?? Environment.publicURL {
                    guard let url = URL(string: publicURL), ["http", "https"].contains(url.scheme ?? ""), url.host != nil,
                          url.query == nil, url.fragment == nil
                    else { throw ValidationError("--public-url must be an http(s) URL with a host, got '\(publicURL)'") }
                    configuration.publicURL = publicURL
                }
                configuration.databasePath = db
                configuration.merchantKey = merchantKey ?? Environment.merchantKey
                guard !merchantName.isEmpty, merchantName.count <= 100 else {
                    throw ValidationError("--merchant-name must be 1 to 100 characters")
                }
                configuration.merchantName = merchantName
                configuration.ipnSecret = ipnSecret ?? Environment.ipnSecret
                configuration.chargeLifetime = try Self.seconds(chargeTTL, option: "--charge-ttl")
                configuration.tokenLifetime = try Self.seconds(tokenTTL, option: "--token-ttl")
                configuration.requestTimeout = try Self.seconds(requestTimeout, option: "--request-timeout")
                configuration.ipnTimeout = try Self.seconds(ipnTimeout, option: "--ipn-timeout")
                configuration.maximumConnections = maxConnections
                do throws(Environment.InvalidVariable) {
                    let fromEnvironment = try Environment.allowRemoteIPN()
                    configuration.allowNonLoopbackIPN = allowRemoteIPN || fromEnvironment == true
                } catch {
                    throw ValidationError(error.description)
                }
                configuration.groupCommit = !noGroupCommit
                if let schedule = try retrySchedule() { configuration.ipnRetrySchedule = schedule }
                var store: (any SandboxStore)?
                if isPostgresURL(db) {
                    #if PostgreSQL
                    do throws(ChargeKitError) {
                        store = try PostgresSandboxStore(url: db, tablePrefix: PostgresSupport.tablePrefix(in: db, fallback: "upi_"))
                    } catch {
                        throw ValidationError("--db: \(error.description)")
                    }
                    // Never print a password that the URL may carry.
                    var shown = URLComponents(string: db)
                    if shown?.password != nil { shown?.password = "***" }
                    configuration.databasePath = shown?.string ?? "postgres"
                    #else
                    FileHandle.standardError.write(Data("chargekit: \(PostgreSQLBuild.needed(for: "--db"))\n".utf8))
                    throw ExitCode(69)
                    #endif
                }
                let server = try await SandboxServer(configuration: configuration, store: store)
                defer { server.close() }
                let json = self.json
                // A secret it was given (a flag, the environment) is shown masked: container
                // logs keep start lines. One it generated or had stored is shown in full, once.
                let given = (key: configuration.merchantKey != nil, secret: configuration.ipnSecret != nil)
                do {
                    try await server.run(handlingSignals: true) { started in
                        var info = started
                        if given.key { info.merchantKey = Environment.masked(info.merchantKey) }
                        if given.secret { info.ipnSecret = Environment.masked(info.ipnSecret) }
                        if json {
                            struct Started: Encodable {
                                let baseURL: String, merchantKey: String, ipnSecret: String, database: String, schemaVersion: Int, dashboard: String
                                let paymentApps: String, bound: String
                                enum CodingKeys: String, CodingKey {
                                    case database, dashboard, bound
                                    case baseURL = "base_url", merchantKey = "merchant_key", ipnSecret = "ipn_secret", schemaVersion = "schema_version"
                                    case paymentApps = "payment_apps"
                                }
                            }
                            let started = Started(baseURL: info.baseURL, merchantKey: info.merchantKey, ipnSecret: info.ipnSecret,
                                                  database: info.databasePath, schemaVersion: info.schemaVersion,
                                                  dashboard: info.dashboardURL, paymentApps: info.paymentAppsURL, bound: info.boundAddress)
                            try? printJSON(started)
                            return
                        }
                        // Unbuffered, so that a script reading the pipe sees it at once.
                        FileHandle.standardOutput.write(Data("""
                            Citcon UPI sandbox listening on \(info.baseURL)
                            bound to: \(info.boundAddress)
                            merchant key: \(info.merchantKey)
                            IPN secret: \(info.ipnSecret)
                            database: \(info.databasePath) (schema v\(info.schemaVersion))
                            dashboard: \(info.dashboardURL) (any user name; the merchant key is the password)
                            payment apps: \(info.paymentAppsURL) (SandboxAppOpener(page:) sends a phone's hand-offs here)

                            """.utf8))
                    }
                } catch let error as IOError where error.errnoCode == EADDRINUSE {
                    FileHandle.standardError.write(Data(("chargekit sandbox serve: port \(port) on \(host) is already in use (another sandbox, "
                        + "or another server): stop it, or choose another port with --port (--port 0 takes a free one and prints it)\n").utf8))
                    throw ExitCode(69)
                }
                // With --json, standard output holds the start line alone.
                (json ? FileHandle.standardError : FileHandle.standardOutput).write(Data("sandbox stopped\n".utf8))
                // The shutdown finishes on its own: IPN deliveries use SwiftNIO, not
                // URLSession, so no Foundation threads are left to hang the exit.
            }
        }
    }
}
