import CitconSandboxTesting
import Foundation
import Testing
@testable import CitconSandbox
import ToolsPlatform

/// The sandbox's log at its most verbose holds no key, token, charge token, capability
/// or IPN URL query.
@Suite("log secrets")
struct LogSecretsTests {
    @Test("an IPN URL is logged without its user part, query and fragment")
    func redactedURL() {
        #expect(IPNWorker.redacted("http://u:p@127.0.0.1:9/ipn?token=abc#x") == "http://127.0.0.1:9/ipn?…")
        #expect(IPNWorker.redacted("http://127.0.0.1:9/ipn") == "http://127.0.0.1:9/ipn")
    }

    @Test("a whole flow at --log-level trace: nothing secret reaches standard error")
    func traceLog() async throws {
        let folder = try Harness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let receiver = try await IPNReceiver.start()
        let key = "sk_log_secret_0123456789"
        let server = try ServerProcess(arguments: ["sandbox", "serve", "--port", "0", "--db", folder.path + "/s.sqlite",
                                                   "--merchant-key", key, "--log-level", "trace"])
        defer { server.signal(SIGKILL) }
        let (base, _) = try await server.started()
        let http = HTTP(base: base)
        let issued = try await http.call("POST", "/v1/access-tokens", token: key, body: #"{"token_type":"server"}"#)
        let token = try #require(issued.data?["access_token"] as? String)
        let ipn = receiver.url + "?merchant_token=ipn-query-secret"
        let created = try await http.call("POST", "/v1/charges", token: token,
                                          body: Harness.chargeBody(reference: "log-\(UUID().uuidString)", ipn: ipn))
        let id = try #require(created.data?["id"] as? String)
        let chargeToken = try #require(created.data?["charge_token"] as? String)
        _ = try await http.call("POST", "/v1/cancels", token: token, body: #"{"id":"\#(id)","reference":"c-\#(UUID().uuidString)"}"#)
        _ = try await http.call("GET", "/v1/transactions/\(id)", token: "wrong-token-guess")
        #expect(await receiver.wait { !$0.isEmpty }, "the IPN went out")
        #expect(await eventually(.seconds(10)) { server.child.stderr.contains("ipn attempt") })
        await receiver.stop()
        let log = server.child.stderr
        #expect(log.contains("route=/v1/charges"), "the log is on")
        for secret in [key, token, chargeToken, "ipn-query-secret", "wrong-token-guess"] {
            #expect(!log.contains(secret), "\(secret) is in the log")
        }
    }
}
