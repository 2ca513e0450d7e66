@testable import CitconSandbox
import Foundation
import SandboxScenarios
import Testing

/// `GET /sandbox/scenarios`: what the `ChargeKit-Scenario` header plays, read by a CI job
/// before it picks one; anyone may read it.
@Suite("GET /sandbox/scenarios")
struct ScenarioListTests {
    @Test("every scenario the header takes, with the status it ends in, and the header's name; no credentials needed")
    func listsEveryScenario() async throws {
        try await Harness.router { harness in
            let answer = try await harness.http.call("GET", "/sandbox/scenarios", data: nil)
            #expect(answer.status == 200 && answer.json?["status"] as? String == "success", "\(answer.text)")
            #expect(answer.data?["header"] as? String == "ChargeKit-Scenario")
            let listed = try #require(answer.data?["scenarios"] as? [[String: Any]])
            #expect(listed.map { $0["name"] as? String } == SandboxScenario.allCases.map(\.rawValue))
            #expect(listed.map { $0["outcome"] as? String } == SandboxScenario.allCases.map(\.outcome))
            #expect(listed.allSatisfy { !(($0["description"] as? String) ?? "").isEmpty })
            // Each name listed is one the header takes: a charge made with it is accepted.
            let token = try await harness.token("server")
            for name in listed.compactMap({ $0["name"] as? String }) {
                let created = try await harness.http.call("POST", "/v1/charges", token: token, data: Data(Harness.chargeBody(reference: "list-\(name)").utf8),
                                                          headers: ["ChargeKit-Scenario": name])
                #expect(created.status == 200, "\(name): \(created.text)")
            }
            let wrong = try await harness.http.call("POST", "/sandbox/scenarios", data: Data("{}".utf8))
            #expect(wrong.status == 405 && wrong.headers.first { $0.key.lowercased() == "allow" }?.value == "GET")
        }
    }
}
