import CitconSandbox
import CitconSandboxPostgres
import CitconSandboxTesting
import Foundation
import Testing

/// Every sandbox store this repository ships. A new store joins by adding one case.
enum SandboxBackend: String, CaseIterable, CustomStringConvertible, Sendable {
    case inMemory, sqlite, sqliteWithoutGroupCommit

    var description: String { rawValue }

    func makeStore() throws -> any SandboxStore {
        switch self {
        case .inMemory: return InMemorySandboxStore()
        case .sqlite, .sqliteWithoutGroupCommit:
            let directory = try Harness.temporaryDirectory()
            return try SQLiteSandboxStore(path: directory.appendingPathComponent("s.sqlite").path, groupCommit: self == .sqlite)
        }
    }
}

@Suite("SandboxStore conformance")
struct SandboxStoreConformanceTests {
    @Test(arguments: SandboxStoreConformance.checks, SandboxBackend.allCases)
    func conforms(check: SandboxStoreConformance.Check, backend: SandboxBackend) async throws {
        let store = try backend.makeStore()
        defer { store.close() }
        try await check.run(store)
    }
}

@Suite("Sandbox rules without HTTP, on the in-memory store")
struct SandboxRulesInMemoryTests {
    @Test func aChargeIsPaidAndRefundedWithoutHTTP() async throws {
        var configuration = SandboxConfiguration()
        configuration.merchantKey = "sk_memory"
        let server = try await SandboxServer(configuration: configuration, store: InMemorySandboxStore())
        let api = server.api
        let serverToken = try await api.issueToken(authorization: "Bearer sk_memory", body: Data(#"{"token_type":"server"}"#.utf8))
        let clientToken = try await api.issueToken(authorization: "Bearer sk_memory", body: Data(#"{"token_type":"client"}"#.utf8))
        let created = try await api.createCharge(authorization: "Bearer " + serverToken.accessToken,
                                                 body: Data(Harness.chargeBody(reference: "mem-1", amount: 500, method: "alipay").utf8))
        #expect(created.autoCapture == false, "sent as false by the body")
        _ = try await api.confirm(chargeToken: created.chargeToken, authorization: "Bearer " + clientToken.accessToken,
                                  body: Data(#"{"payment":{"method":"alipay"},"return_url":"app://r"}"#.utf8))
        let (paid, redirect) = try await api.walletAction(id: created.id, action: .pay)
        #expect(paid.status == .succeeded && redirect?.hasPrefix("app://r") == true)
        let refund = try await api.refund(authorization: "Bearer " + serverToken.accessToken,
                                          body: Data(#"{"id":"\#(created.id)","reference":"mem-rf","amount":200}"#.utf8))
        #expect(refund.object == "refund" && refund.amountRefunded == 200)
        await #expect(throws: APIError.self) {
            _ = try await api.createCharge(authorization: "Bearer " + serverToken.accessToken,
                                           body: Data(Harness.chargeBody(reference: "mem-1").utf8))
        }
    }
}

/// The same suite on PostgreSQL (`scripts/postgres.sh start`, then export
/// CHARGEKIT_POSTGRES_URL); skipped with that reason when it is not set. CI sets it.
@Suite("SandboxStore conformance on PostgreSQL",
       .enabled(if: ProcessInfo.processInfo.environment["CHARGEKIT_POSTGRES_URL"] != nil,
                "CHARGEKIT_POSTGRES_URL is not set (run scripts/postgres.sh start and export it)"))
struct PostgresSandboxStoreConformanceTests {
    static func freshStore() throws -> PostgresSandboxStore {
        let url = try #require(ProcessInfo.processInfo.environment["CHARGEKIT_POSTGRES_URL"])
        let prefix = "s" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12) + "_"
        return try PostgresSandboxStore(url: url, tablePrefix: prefix)
    }

    @Test(arguments: SandboxStoreConformance.checks)
    func conforms(check: SandboxStoreConformance.Check) async throws {
        let store = try Self.freshStore()
        defer { store.close() }
        try await check.run(store)
    }

    @Test("the sandbox runs on PostgreSQL: a charge paid through the wallet over HTTP, its IPN delivered")
    func sandboxOverHTTP() async throws {
        let receiver = try await IPNReceiver.start()
        let store = try Self.freshStore()
        var configuration = SandboxConfiguration()
        configuration.port = 0
        configuration.workerInterval = .milliseconds(20)
        let sandbox = try await RunningSandbox.start(configuration, store: store)
        try await withCleanup({ await sandbox.stop(); await receiver.stop(); store.close() }) {
            let http = HTTP(base: sandbox.info.baseURL)
            let key = sandbox.info.merchantKey
            let token = try await http.call("POST", "/v1/access-tokens", token: key, body: #"{"token_type":"server"}"#)
            let server = try #require(token.data?["access_token"] as? String)
            let created = try await http.call("POST", "/v1/charges", token: server,
                                              body: Harness.chargeBody(reference: "pg-1", ipn: receiver.url))
            #expect(created.status == 200, "\(created.text)")
            let id = try #require(created.data?["id"] as? String)
            let duplicate = try await http.call("POST", "/v1/charges", token: server, body: Harness.chargeBody(reference: "pg-1"))
            #expect(duplicate.status == 400 && duplicate.code == "4100")
            _ = try await http.call("POST", "/v1/cancels", token: server, body: #"{"id":"\#(id)","reference":"pg-c"}"#)
            #expect(await receiver.wait { $0.contains { $0.fields?["status"] == "cancelled" } })
        }
    }
}
