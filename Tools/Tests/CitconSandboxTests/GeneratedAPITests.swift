@testable import CitconSandbox
import Foundation
import Testing

/// The operations served through the server generated from `sandbox.yaml`, behind
/// ``OpenAPIEdge``: they answer byte for byte as the hand-written routes did, whatever
/// `Accept` says, and are recorded among the served routes.
@Suite("The generated API")
struct GeneratedAPITests {
    @Test("GET /v1/health through the generated server: the same bytes, JSON whatever Accept says, recorded as served")
    func health() async throws {
        try await Harness.router { harness in
            let expected = #"{"app":"citcon_upi","data":{"status":"ok"},"status":"success","version":"v0.1.1"}"#
            for accept in [nil, "text/html", "application/xml;q=1, */*;q=0", "nonsense"] {
                let answer = try await harness.http.call("GET", "/v1/health", data: nil, headers: accept.map { ["Accept": $0] } ?? [:])
                #expect(answer.status == 200 && answer.text == expected, "Accept \(accept ?? "none"): \(answer.status) \(answer.text)")
                #expect(answer.headers.first { $0.key.lowercased() == "content-type" }?.value == "application/json; charset=utf-8")
            }
            let wrong = try await harness.http.call("POST", "/v1/health", data: Data("{}".utf8))
            #expect(wrong.status == 405 && wrong.code == "4050" && wrong.headers.first { $0.key.lowercased() == "allow" }?.value == "GET")
            #expect(harness.sandbox.server.servedRoutes().contains { $0.method == "GET" && $0.path == "/v1/health" })
        }
    }
}
