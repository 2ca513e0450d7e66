@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI
import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// The local Citcon UPI sandbox: Hummingbird 2 on an SQLite file.
public struct SandboxServer: Sendable {
    /// How it runs.
    public let configuration: SandboxConfiguration
    /// Its storage.
    public let store: any SandboxStore
    /// The API rules (for tests and tools that skip HTTP).
    public let api: SandboxAPI
    private let baseURL: BaseURL
    private let merchantKey: String
    private let ipnSecret: String
    private let formSecret: String
    private let schemaVersion: Int
    /// The API requests this instance answered, for `GET /v1/logs` and the dashboard.
    let requestJournal = RequestJournal()
    /// This instance's failed merchant-key attempts per client address (``FailureThrottle``).
    let addressFailures = AddressFailures()
    /// The merchant key and IPN secret as this instance last read them.
    let secrets: SandboxSecrets
    /// The listener streams open on this instance.
    let listenerFeed: ListenerFeed

    private final class BaseURL: @unchecked Sendable {
        private let lock = NSLock()
        private var value = ""
        func get() -> String { lock.withLock { value } }
        func set(_ new: String) { lock.withLock { value = new } }
    }

    /// The store given, else the SQLite file the configuration names.
    private static func open(_ given: (any SandboxStore)?, _ configuration: SandboxConfiguration) async throws -> any SandboxStore {
        if let given { return given }
        return try await SQLiteSandboxStore(path: configuration.databasePath, groupCommit: configuration.groupCommit)
    }

    /// Opens (creating or migrating) the database and settles the merchant key: the
    /// one configured, else the stored one, else a new one that is stored.
    public init(configuration: SandboxConfiguration, store: (any SandboxStore)? = nil) async throws {
        self.configuration = configuration
        for (field, value) in [("merchantKey", configuration.merchantKey), ("ipnSecret", configuration.ipnSecret)] {
            if let value, value.count < SandboxConfiguration.minimumSecretLength {
                throw ChargeKitError.invalidField(field, rule: "must be at least \(SandboxConfiguration.minimumSecretLength) characters")
            }
        }
        let store = try await Self.open(store, configuration)
        schemaVersion = try await store.migrate()
        // A new merchant key revokes every token issued under the old one.
        merchantKey = try await Self.settle("merchant_key", configured: configuration.merchantKey, prefix: "sk_sandbox_", in: store) {
            try await store.rotateMerchantKey(to: $0)
        }
        ipnSecret = try await Self.settle("ipn_secret", configured: configuration.ipnSecret, prefix: "ipn_sandbox_", in: store) {
            try await store.setSetting("ipn_secret", to: $0)
        }
        formSecret = try await Self.settle("wallet_form_secret", configured: nil, prefix: "wf_", in: store) { _ in }
        self.store = store
        let baseURL = BaseURL()
        self.baseURL = baseURL
        let clock = SandboxClock()
        await clock.refresh(from: store)
        api = SandboxAPI(store: store, configuration: configuration, baseURL: { baseURL.get() },
                         walletKeys: FormTokens(secret: formSecret), clock: clock)
        let secrets = SandboxSecrets(merchantKey: merchantKey, ipnSecret: ipnSecret)
        self.secrets = secrets
        listenerFeed = ListenerFeed(store: store, secrets: secrets, clock: clock, interval: configuration.workerInterval,
                                    maximumConnections: SandboxConfiguration.connectionCap(requested: configuration.maximumConnections))
    }

    /// A secret setting: the one configured (stored with `store`), else the stored one,
    /// else a new random one that is stored (so a restart keeps it).
    private static func settle(_ key: String, configured: String?, prefix: String, in store: any SandboxStore,
                               store save: (String) async throws -> Void) async throws -> String {
        if let configured {
            try await save(configured)
            return configured
        }
        if let stored = try await store.setting(key) { return stored }
        let made = prefix + randomHex(bytes: 24)
        try await store.setSetting(key, to: made)
        return made
    }

    /// Serves until cancelled or, with `handlingSignals`, until SIGINT/SIGTERM (a
    /// graceful shutdown: in-flight requests finish, the IPN worker stops between attempts).
    /// `onStarted` runs once the port is bound (with the real port when it was 0).
    public func run(handlingSignals: Bool = false,
                    onStarted: @escaping @Sendable (SandboxInfo) async -> Void = { _ in }) async throws {
        let app = makeApplication(onStarted: onStarted)
        if handlingSignals {
            try await app.runService()
        } else {
            try await app.run()
        }
    }

    /// Closes the storage (after ``run(handlingSignals:onStarted:)`` returned).
    public func close() { store.close() }

    /// The HTTP face of the API.
    var routes: SandboxRoutes {
        SandboxRoutes(api: api, journal: requestJournal, merchantName: configuration.merchantName,
                      discardLimit: configuration.maximumDiscardedBytes, formTokens: FormTokens(secret: formSecret),
                      listeners: ListenerStreams(secrets: secrets, feed: listenerFeed, pollInterval: configuration.workerInterval,
                                                 merchantName: configuration.merchantName),
                      addressFailures: addressFailures, logger: configuration.logger)
    }

    /// The routes the sandbox serves, as its router registers them.
    package func servedRoutes() -> [SandboxRoutes.Served] {
        routes.register(on: Router(context: SandboxRequestContext.self))
    }

    /// What it tells its user, once it serves at `baseURL` (bound to `boundAddress`).
    func info(baseURL: String, boundAddress: String) -> SandboxInfo {
        SandboxInfo(baseURL: baseURL, merchantKey: merchantKey, ipnSecret: ipnSecret, databasePath: configuration.databasePath,
                    schemaVersion: schemaVersion, boundAddress: boundAddress)
    }

    /// The Hummingbird application with the IPN worker as a service.
    func makeApplication(onStarted: @escaping @Sendable (SandboxInfo) async -> Void)
        -> some ApplicationProtocol & Service
    {
        let cap = SandboxConfiguration.connectionCap(requested: configuration.maximumConnections)
        if cap < configuration.maximumConnections {
            configuration.logger.warning("serving at most \(cap) connections at once, not \(configuration.maximumConnections): the open-file limit is \(SandboxConfiguration.currentOpenFileLimit() ?? 0) (raise it with ulimit -n)")
        }
        let clientConnections = ClientConnections(maximumConnections: cap)
        let router = Router(context: SandboxRequestContext.self)
        router.add(middleware: RequestLog(logger: configuration.logger, journal: requestJournal, clock: api.clock))
        routes.register(on: router)
        var logger = Logger(label: "chargekit.sandbox")
        logger.logLevel = .warning
        let requestTimeout = configuration.requestTimeout
        let maximumRequestBody = UPIWire.maximumBodyBytes + configuration.maximumDiscardedBytes
        let worker = IPNWorker(store: store, configuration: configuration, secrets: secrets, clock: api.clock)
        let expiry = ChargeExpiry(api: api, interval: configuration.workerInterval)
        let publicURL = configuration.publicURL.map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 }
        let (host, baseURL) = (configuration.host, self.baseURL)
        let app = Application(
            router: router,
            server: .http1(configuration: .init(
                additionalChannelHandlers: [ClientConnectionCap(connections: clientConnections),
                                            RequestDeadline(timeout: .init(requestTimeout), maximumBodyBytes: maximumRequestBody)],
                idleTimeout: .init(requestTimeout)
            )),
            configuration: .init(address: .hostname(host, port: configuration.port), serverName: "chargekit-upi-sandbox",
                                 availableConnectionsDelegate: MaximumAvailableConnections(cap)),
            services: [worker, expiry],
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                let shownHost = host.contains(":") ? "[\(host)]" : host
                let url = publicURL ?? "http://\(shownHost):\(port)"
                baseURL.set(url)
                await onStarted(self.info(baseURL: url, boundAddress: "\(shownHost):\(port)"))
            },
            logger: logger
        )
        return app
    }
}

/// A sandbox running in this process, for tests, demos and tools.
public final class RunningSandbox: Sendable {
    /// What it tells its user.
    public var info: SandboxInfo { runner.value }
    /// The server.
    public let server: SandboxServer
    private let runner: ServiceRunner<SandboxInfo>

    private init(server: SandboxServer, runner: ServiceRunner<SandboxInfo>) {
        self.server = server
        self.runner = runner
    }

    /// Starts a sandbox and returns once it accepts connections.
    /// - Parameters:
    ///   - configuration: where it listens and how it behaves.
    ///   - store: the storage (SQLite at `configuration.databasePath` when `nil`).
    public static func start(_ configuration: SandboxConfiguration, store: (any SandboxStore)? = nil) async throws -> RunningSandbox {
        let server = try await SandboxServer(configuration: configuration, store: store)
        let runner = try await ServiceRunner<SandboxInfo>.start(logger: Logger(label: "chargekit.sandbox")) { ready in
            server.makeApplication { info in ready(info) }
        }
        return RunningSandbox(server: server, runner: runner)
    }

    /// The API root.
    public var baseURL: URL { URL(string: info.baseURL) ?? URL(fileURLWithPath: "/") }

    /// Shuts the server down gracefully and waits until it has.
    public func stop() async { await runner.stop() }
}
