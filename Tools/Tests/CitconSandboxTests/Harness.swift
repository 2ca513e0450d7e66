#if PostgreSQL
import ChargeKitPostgres
import CitconSandboxPostgres
#endif
@testable import CitconSandbox
import CitconSandboxTesting
@_spi(Tools) import CitconUPI
import Foundation
import Hummingbird
import HTTPTypes
import HummingbirdTesting
import Logging
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP answer, raw and as JSON.
struct HTTPAnswer: @unchecked Sendable {
    var status: Int
    var body: Data
    var location: String?
    var headers: [String: String] = [:]
    var json: [String: Any]? { (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] }
    var data: [String: Any]? { json?["data"] as? [String: Any] }
    var code: String? { data?["code"] as? String }
    var message: String { data?["message"] as? String ?? "" }
    var text: String { String(decoding: body, as: UTF8.self) }
}

/// Raw HTTP against a sandbox at `base`, or to its router without a port (`client`).
struct HTTP: Sendable {
    var base: String
    /// HummingbirdTesting's router-mode client, when the sandbox serves no port.
    var client: (any TestClientProtocol)?
    static let session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)

    init(base: String) { self.base = base }

    init(client: any TestClientProtocol) {
        base = ""
        self.client = client
    }

    func call(_ method: String, _ path: String, token: String? = nil, body: String? = nil,
              contentType: String = "application/json") async throws -> HTTPAnswer {
        try await call(method, path, token: token, data: body.map { Data($0.utf8) }, contentType: contentType)
    }

    func call(_ method: String, _ path: String, token: String? = nil, data: Data?,
              contentType: String = "application/json", headers: [String: String] = [:]) async throws -> HTTPAnswer {
        if let client {
            var fields = HTTPFields()
            for (name, value) in headers { if let name = HTTPField.Name(name) { fields[name] = value } }
            if let token { fields[.authorization] = "Bearer " + token }
            if data != nil { fields[.contentType] = contentType }
            let method = try #require(HTTPRequest.Method(method))
            let answer = try await client.executeRequest(uri: path, method: method, headers: fields, body: data.map { ByteBuffer(bytes: $0) })
            var shown: [String: String] = [:]
            for field in answer.headers { shown[field.name.rawName] = field.value }
            return HTTPAnswer(status: Int(answer.status.code), body: Data(answer.body.readableBytesView),
                              location: answer.headers[.location], headers: shown)
        }
        let url = try #require(URL(string: base + path))
        var request = URLRequest(url: url, timeoutInterval: 20)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let token { request.setValue("Bearer " + token, forHTTPHeaderField: "Authorization") }
        if let data {
            request.setValue(contentType, forHTTPHeaderField: "Content-Type")
            request.httpBody = data
        }
        let (body, response) = try await Self.session.data(for: request)
        let http = try #require(response as? HTTPURLResponse)
        var fields: [String: String] = [:]
        for (name, value) in http.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name] = value }
        }
        return HTTPAnswer(status: http.statusCode, body: body, location: http.value(forHTTPHeaderField: "Location"), headers: fields)
    }
}

/// A sandbox on an ephemeral loopback port with its own temporary database.
/// The sandbox a ``Harness`` drives: its server and what it told its user, and the
/// running process part when it serves a port.
struct HarnessSandbox: Sendable {
    let server: SandboxServer
    let info: SandboxInfo
    /// `nil` in router mode (no port).
    let running: RunningSandbox?

    func stop() async { await running?.stop() }

    /// The API root.
    var baseURL: URL { URL(string: info.baseURL) ?? URL(fileURLWithPath: "/") }
}

/// A sandbox with its own temporary database, on an ephemeral loopback port
/// (``start(directory:backend:database:_:)``), or without a port in HummingbirdTesting's
/// router mode (``router(_:_:)``), where requests go straight to its router.
struct Harness: Sendable {
    let sandbox: HarnessSandbox
    let directory: URL
    let http: HTTP
    var configuration: SandboxConfiguration

    /// `CHARGEKIT_POSTGRES_URL`, in a build with the tools' PostgreSQL trait: the
    /// PostgreSQL tests run when both are there (CI's trait build), and are skipped
    /// with ``postgresSkipped`` otherwise.
    static var postgresURL: String? {
        #if PostgreSQL
        return ProcessInfo.processInfo.environment["CHARGEKIT_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
        #else
        return nil
        #endif
    }

    /// Why a PostgreSQL test did not run.
    static let postgresSkipped: Comment = "needs the PostgreSQL trait (swift test --package-path Tools --traits PostgreSQL) and CHARGEKIT_POSTGRES_URL (scripts/postgres.sh start)"

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("chargekit-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// The tests' configuration: a database in `directory` (or `database`), quick retries and ticks.
    static func configuration(directory: URL, backend: CrashBackend, database: String?,
                              _ tweak: (inout SandboxConfiguration) -> Void) -> SandboxConfiguration {
        var configuration = SandboxConfiguration()
        configuration.port = 0
        configuration.databasePath = database ?? (backend == .sqlite
            ? directory.appendingPathComponent("sandbox.sqlite").path : backend.database(in: directory))
        configuration.ipnRetrySchedule = [.milliseconds(50), .milliseconds(100), .milliseconds(200)]
        configuration.workerInterval = .milliseconds(20)
        tweak(&configuration)
        return configuration
    }

    /// Runs `body` against a sandbox served without a port: each request goes to its
    /// router (HummingbirdTesting's router mode) and its services (the IPN worker, the
    /// expiry) run meanwhile. For route tests that need no socket.
    static func router<T: Sendable>(store: (any SandboxStore)? = nil, _ tweak: (inout SandboxConfiguration) -> Void = { _ in },
                                    _ body: @escaping @Sendable (Harness) async throws -> T) async throws -> T {
        let directory = try temporaryDirectory()
        let configuration = configuration(directory: directory, backend: .sqlite, database: nil, tweak)
        let server = try await SandboxServer(configuration: configuration, store: store)
        defer {
            server.close()
            try? FileManager.default.removeItem(at: directory)
        }
        let app = server.makeApplication { _ in }
        return try await app.test(.router) { client in
            let sandbox = HarnessSandbox(server: server, info: server.info(baseURL: "", boundAddress: ""), running: nil)
            return try await body(Harness(sandbox: sandbox, directory: directory, http: HTTP(client: client), configuration: configuration))
        }
    }

    static func start(directory: URL? = nil, backend: CrashBackend = .sqlite, database: String? = nil,
                      _ tweak: (inout SandboxConfiguration) -> Void = { _ in }) async throws -> Harness {
        let directory = try directory ?? temporaryDirectory()
        let configuration = configuration(directory: directory, backend: backend, database: database, tweak)
        var store: (any SandboxStore)?
        #if PostgreSQL
        if PostgresSupport.isURL(configuration.databasePath) {
            store = try PostgresSandboxStore(url: configuration.databasePath,
                                             tablePrefix: PostgresSupport.tablePrefix(in: configuration.databasePath, fallback: "upi_"),
                                             connectTimeout: .seconds(60))
        }
        #endif
        let running = try await RunningSandbox.start(configuration, store: store)
        return Harness(sandbox: HarnessSandbox(server: running.server, info: running.info, running: running), directory: directory,
                       http: HTTP(base: running.info.baseURL), configuration: configuration)
    }

    /// The `--db` the sandbox runs on (a file path or a PostgreSQL URL), for a restart.
    var database: String { configuration.databasePath }

    func stop(removing: Bool = true) async {
        await sandbox.stop()
        sandbox.server.close()
        if removing { try? FileManager.default.removeItem(at: directory) }
    }

    var merchantKey: String { sandbox.info.merchantKey }

    func token(_ type: String) async throws -> String {
        let answer = try await http.call("POST", "/v1/access-tokens", token: merchantKey, body: #"{"token_type":"\#(type)"}"#)
        #expect(answer.status == 200, "\(answer.text)")
        return try #require(answer.data?["access_token"] as? String)
    }

    static func chargeBody(reference: String, amount: Int = 125, currency: String = "USD", method: String? = "wechatpay",
                           ipn: String = "", autoCapture: Bool = false) -> String {
        let payment = method.map { #","payment":{"method":"\#($0)"}"# } ?? ""
        return """
        {"transaction":{"reference":"\(reference)","amount":\(amount),"currency":"\(currency)","country":"US","auto_capture":\(autoCapture),"note":"n"}\(payment),"urls":{"ipn":"\(ipn)","success":"https://shop.example/success","fail":"https://shop.example/fail","cancel":"https://shop.example/cancel"}}
        """
    }

    /// Creates a charge; returns its id and charge token.
    func createCharge(_ server: String, reference: String = "ref-\(UUID().uuidString)", amount: Int = 125,
                      method: String? = "wechatpay", ipn: String = "", autoCapture: Bool = false) async throws -> (id: String, token: String) {
        let answer = try await http.call("POST", "/v1/charges", token: server,
                                         body: Self.chargeBody(reference: reference, amount: amount, method: method,
                                                               ipn: ipn, autoCapture: autoCapture))
        #expect(answer.status == 200, "\(answer.text)")
        return (try #require(answer.data?["id"] as? String), try #require(answer.data?["charge_token"] as? String))
    }

    func confirm(_ client: String, chargeToken: String, method: String = "wechatpay", returnURL: String? = nil) async throws -> HTTPAnswer {
        let back = returnURL.map { #","return_url":"\#($0)""# } ?? ""
        return try await http.call("POST", "/v1/charges/\(chargeToken)", token: client,
                                   body: #"{"payment":{"method":"\#(method)"}\#(back)}"#)
    }

    /// The wallet page of charge `id`, with its capability, as the charge's answers link it.
    func walletPath(_ id: String) -> String { sandbox.server.api.walletPath(for: id) }

    /// What a browser does: load the wallet page, then post its form (token included).
    func wallet(_ id: String, _ action: String, extra: String = "") async throws -> HTTPAnswer {
        let page = try await http.call("GET", walletPath(id))
        let token = HeadlessWallet.formToken(in: page.text) ?? ""
        return try await http.call("POST", walletPath(id), data: Data("form_token=\(token)&action=\(action)\(extra)".utf8),
                                   contentType: "application/x-www-form-urlencoded")
    }

    func inquire(_ token: String, _ id: String) async throws -> HTTPAnswer {
        try await http.call("GET", "/v1/transactions/\(id)", token: token)
    }
}

/// Polls `condition` until it holds or `timeout` passes.
func eventually(_ timeout: Duration = .seconds(20), _ condition: () async throws -> Bool) async rethrows -> Bool {
    let deadline = ContinuousClock.now + timeout
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return try await condition()
}

/// Runs `body`, then awaits `cleanup`, also when `body` throws: the servers a test
/// started have shut down before the test ends (a `defer { Task { … } }` would let
/// the test end first and the shutdown run, or fail, unobserved).
func withCleanup<T>(_ cleanup: () async -> Void, _ body: () async throws -> T) async throws -> T {
    let value: T
    do {
        value = try await body()
    } catch {
        await cleanup()
        throw error
    }
    await cleanup()
    return value
}

/// Serves the routes `build` adds on a free loopback port (a stand-in server for
/// client tests), runs `body` with its root URL (`http://127.0.0.1:PORT/`), then stops it.
func serveRouter(_ build: @escaping @Sendable (Router<BasicRequestContext>) -> Void,
                 _ body: @Sendable (URL) async throws -> Void) async throws {
    let router = Router()
    build(router)
    var logger = Logger(label: "stand-in")
    logger.logLevel = .critical
    let runner = try await ServiceRunner<Int>.start(logger: logger) { ready in
        Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                    onServerRunning: { ready($0.localAddress?.port ?? 0) }, logger: logger)
    }
    try await withCleanup({ await runner.stop() }) {
        try await body(try #require(URL(string: "http://127.0.0.1:\(runner.value)/")))
    }
}
