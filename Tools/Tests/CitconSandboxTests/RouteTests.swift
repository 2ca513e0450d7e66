@testable import CitconSandbox
import Foundation
import Testing

@Suite("Routes")
struct RouteTests {
    @Test("an unknown route is 404 and a wrong method 405, both in the UPI envelope")
    func unknownRoutesAnswerInTheEnvelope() async throws {
        try await Harness.router { harness in
            let missing = try await harness.http.call("GET", "/v1/nothing-here")
            #expect(missing.status == 404 && missing.code == "4004" && missing.json?["status"] as? String == "fail")
            #expect(missing.message.contains("/v1/nothing-here"))
            let wrong = try await harness.http.call("DELETE", "/v1/charges")
            #expect(wrong.status == 405 && wrong.code == "4050", "\(wrong.text)")
            #expect(wrong.headers.first { $0.key.lowercased() == "allow" }?.value == "POST")
            let get = try await harness.http.call("GET", "/v1/refunds")
            #expect(get.status == 405 && get.message.contains("POST"))
        }
    }

    @Test("every registered route answers, and a path matches only its own pattern")
    func everyRegisteredRouteAnswers() async throws {
        try await Harness.router { harness in
            let served = harness.sandbox.server.servedRoutes()
            // Which routes: OpenAPITests compares them with the document's paths (no count to keep by hand).
            #expect(!served.isEmpty && Set(served).count == served.count)
            #expect(SandboxRoutes.matches("/v1/charges/:token", "/v1/charges/ab12") && !SandboxRoutes.matches("/v1/charges/:token", "/v1/charges/"))
            #expect(!SandboxRoutes.matches("/v1/charges", "/v1/charges/a/b") && !SandboxRoutes.matches("/v1/health", "/V1/health"))
            for route in served {
                let path = route.path.replacingOccurrences(of: ":token", with: "x").replacingOccurrences(of: ":id", with: "1")
                // With a bearer token (an unknown one): a 401 asking for Basic authentication
                // would never complete in URLSession on Linux (swift-corelibs-foundation#5456).
                let answer = try await harness.http.call(route.method, path, token: "unknown",
                                                         data: route.method == "POST" ? Data("{}".utf8) : nil)
                #expect(!answer.message.hasPrefix("path: no route"), "\(route.method) \(route.path) is listed but not served")
                #expect(answer.status != 405 && answer.status < 500, "\(route.method) \(route.path): \(answer.status)")
            }
        }
    }
}
