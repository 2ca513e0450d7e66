import CitconSandbox
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
