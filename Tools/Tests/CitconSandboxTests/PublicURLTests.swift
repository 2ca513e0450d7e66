import CitconSandbox
import CitconSandboxTesting
import Foundation
import Logging
import Testing

@Suite("--public-url")
struct PublicURLTests {
    @Test("wallet and QR links carry the public address, not the bound one")
    func linksUseThePublicURL() async throws {
        // A port known to be free: one the system just gave a sandbox that has stopped.
        // Another test may take it in between (CI saw EADDRINUSE once): then try another.
        var started: (harness: Harness, port: Int)?
        for attempt in 1...5 where started == nil {
            let probe = try await Harness.start()
            let port = try #require(URL(string: probe.sandbox.info.baseURL)?.port)
            await probe.stop()
            do {
                let harness = try await Harness.start { configuration in
                    configuration.port = port
                    configuration.publicURL = "http://192.0.2.10:\(port)/"
                }
                started = (harness, port)
            } catch where attempt < 5 && "\(error)".contains("Address already in use") {
                continue
            }
        }
        let (harness, port) = try #require(started)
        #expect(harness.sandbox.info.baseURL == "http://192.0.2.10:\(port)")
        let http = HTTP(base: "http://127.0.0.1:\(port)")
        let token = try await http.call("POST", "/v1/access-tokens", token: harness.merchantKey, body: #"{"token_type":"server"}"#)
        let server = try #require(token.data?["access_token"] as? String)
        let created = try await http.call("POST", "/v1/charges", token: server,
                                          body: Harness.chargeBody(reference: "public-\(UUID().uuidString)"))
        #expect(created.status == 200, "\(created.text)")
        #expect(created.text.contains("http:\\/\\/192.0.2.10:\(port)\\/sandbox\\/") || created.text.contains("http://192.0.2.10:\(port)/sandbox/"),
                "\(created.text)")
        #expect(!created.text.contains("127.0.0.1"), "\(created.text)")
        await harness.stop()
    }
}

/// Keeps every log record, as text with its metadata.
final class LogRecords: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}

struct CapturingLogHandler: LogHandler {
    let records: LogRecords
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {
        let fields = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        records.add("\(event.level) \(event.message) \(fields)")
    }
}

@Suite("Sandbox logging")
struct SandboxLoggingTests {
    @Test("every request and every IPN attempt is logged once, with no token, key or secret in the log")
    func requestsAndIPNAttemptsAreLoggedWithoutSecrets() async throws {
        let records = LogRecords()
        let receiver = try await IPNReceiver.start()
        let harness = try await Harness.start { configuration in
            configuration.logger = Logger(label: "test") { _ in CapturingLogHandler(records: records) }
        }
        let server = try await harness.token("server")
        let client = try await harness.token("client")
        let charge = try await harness.createCharge(server, ipn: receiver.url)
        _ = try await harness.confirm(client, chargeToken: charge.token)
        _ = try await harness.wallet(charge.id, "pay")
        for _ in 0..<100 where !records.all.contains(where: { $0.contains("ipn attempt") }) {
            try await Task.sleep(for: .milliseconds(20))
        }
        await harness.stop()
        await receiver.stop()
        let lines = records.all
        let requests = lines.filter { $0.contains("request") && $0.contains("route=") }
        #expect(requests.count >= 5, "\(lines)")
        #expect(requests.contains { $0.contains("route=/v1/charges/{charge_token}") && $0.contains("status=200") }, "\(requests)")
        #expect(lines.contains { $0.contains("ipn attempt") && $0.contains("state=delivered") && $0.contains("transaction=\(charge.id)") },
                "\(lines)")
        for secret in [charge.token, server, client, harness.merchantKey, harness.sandbox.info.ipnSecret] {
            #expect(!lines.contains { $0.contains(secret) }, "a secret is in the log: \(secret)")
        }
    }
}
