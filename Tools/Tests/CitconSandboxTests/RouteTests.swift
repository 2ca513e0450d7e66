@testable import CitconSandbox
import Foundation
import Testing

@Suite("Routes")
struct RouteTests {
    @Test("an unknown route is 404 and a wrong method 405, both in the UPI envelope")
    func unknownRoutesAnswerInTheEnvelope() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
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

    @Test("a request's route pattern is the first listed route it matches, with or without parameters")
    func patterns() {
        let paths = SandboxRoutes.routes.flatMap { route in
            [route.path, route.path.replacingOccurrences(of: ":token", with: "ab12").replacingOccurrences(of: ":id", with: "1795")]
        } + ["/", "", "/v1", "/v1/charges/", "/v1/charges/a/b", "/v1/transactions/", "//v1/health", "/V1/health", "/v1/health/"]
        for method in ["GET", "POST", "PUT", "DELETE"] {
            for path in paths {
                let plain = SandboxRoutes.routes.first { $0.method == method && SandboxRoutes.matches($0.path, path) }?.path
                #expect(SandboxRoutes.pattern(method, path) == plain, "\(method) \(path)")
            }
        }
        #expect(SandboxRoutes.pattern("POST", "/v1/charges") == "/v1/charges")
        #expect(SandboxRoutes.pattern("POST", "/v1/charges/ab12") == "/v1/charges/:token")
        #expect(SandboxRoutes.pattern("GET", "/v1/charges") == nil)
    }

    @Test("every route in the list is served (no drift between the list and the router)")
    func everyListedRouteIsServed() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            for route in SandboxRoutes.routes {
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
