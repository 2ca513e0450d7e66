import CitconSandbox
@_spi(Tools) import CitconUPI
import Foundation
import ProcessSupport
import Testing

/// `ChargeKit-Scenario`: every outcome of a payment on request, without a browser.
@Suite("Sandbox scenarios")
struct SandboxScenarioTests {
    /// Creates a charge with `scenario` (the header), confirms it and pays it as the wallet does; its status then.
    static func paid(_ harness: Harness, scenario: String, method: String = "alipay") async throws -> (id: String, status: String?) {
        let server = try await harness.token("server")
        let created = try await harness.http.call("POST", "/v1/charges", token: server,
                                                  data: Data(Harness.chargeBody(reference: "s-\(UUID().uuidString)", method: method).utf8),
                                                  headers: ["ChargeKit-Scenario": scenario])
        #expect(created.status == 200, "\(created.text)")
        let id = try #require(created.data?["id"] as? String), token = try #require(created.data?["charge_token"] as? String)
        let confirmed = try await harness.confirm(try await harness.token("client"), chargeToken: token, method: method)
        #expect(confirmed.status == 200, "\(confirmed.text)")
        _ = try await harness.wallet(id, "pay")
        return (id, try await harness.inquire(server, id).data?["status"] as? String)
    }

    @Test("declined, expires, canceled and stays-pending are what paying gives, each with its IPN; succeeds pays")
    func outcomesOfPaying() async throws {
        try await Harness.router { harness in
            for (scenario, expected) in [("declined", "failed"), ("expires", "expired"), ("canceled", "canceled"),
                                         ("stays-pending", "pending"), ("succeeds", "succeeded"), ("DECLINED", "failed")] {
                let (id, status) = try await Self.paid(harness, scenario: scenario)
                #expect(status == expected, "\(scenario): \(String(describing: status))")
                let events = try await harness.sandbox.server.store.notifications(transactionID: id).map(\.status.rawValue)
                #expect(events.last == expected, "\(scenario): IPNs \(events)")
            }
        }
    }

    @Test("capture-fails and refund-declined fail their operation; an unknown scenario is refused, naming the header")
    func outcomesOfOperations() async throws {
        try await Harness.router { harness in
            let server = try await harness.token("server")
            let (authorized, status) = try await Self.paid(harness, scenario: "capture-fails", method: "card")
            #expect(status == "authorized")
            let capture = try await harness.http.call("POST", "/v1/captures", token: server,
                                                      body: #"{"transaction_id":"\#(authorized)","reference":"cap-\#(authorized)"}"#)
            #expect(capture.status == 502 && capture.message.contains("capture-fails"), "\(capture.text)")
            // The header on the operation itself: this one capture succeeds.
            let override = try await harness.http.call("POST", "/v1/captures", token: server,
                                                       data: Data(#"{"transaction_id":"\#(authorized)","reference":"cap2-\#(authorized)"}"#.utf8),
                                                       headers: ["ChargeKit-Scenario": "succeeds"])
            #expect(override.status == 200, "\(override.text)")

            let (paid, _) = try await Self.paid(harness, scenario: "refund-declined")
            let refund = try await harness.http.call("POST", "/v1/refunds", token: server,
                                                     body: #"{"transaction_id":"\#(paid)","reference":"rf-\#(paid)"}"#)
            #expect(refund.status == 406 && refund.code == "4202" && refund.message.contains("refund-declined"), "\(refund.text)")

            let unknown = try await harness.http.call("POST", "/v1/charges", token: server,
                                                      data: Data(Harness.chargeBody(reference: "u-\(UUID().uuidString)").utf8),
                                                      headers: ["ChargeKit-Scenario": "fraud"])
            #expect(unknown.status == 400 && unknown.message.contains("ChargeKit-Scenario: must be one of succeeds, declined"), "\(unknown.text)")
        }
    }

    @Test("from the CLI: upi charge --scenario declined, then upi pay, ends failed; chargekit scenarios lists the sandbox's")
    func command() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            let api = harness.sandbox.info.baseURL + "/v1"
            let key = harness.merchantKey
            let created = try await chargekit(["upi", "charge", "--base-url", api, "--key", key, "--reference", "cli-s-1", "--amount", "1.00",
                                               "--currency", "USD", "--country", "US", "--method", "alipay", "--scenario", "declined", "--json"])
            #expect(created.status == 0, "\(created.stderr)")
            let id = try #require((try JSONSerialization.jsonObject(with: Data(created.stdout.utf8)) as? [String: Any])?["id"] as? String)
            let paid = try await chargekit(["upi", "pay", id, "--base-url", api, "--key", key, "--json"])
            #expect(paid.status == 0 && paid.stdout.contains("\"status\":\"failed\""), "\(paid.stdout) \(paid.stderr)")
            let bad = try await chargekit(["upi", "charge", "--base-url", api, "--key", key, "--scenario", "fraud"])
            #expect(bad.status == 64 && bad.stderr.contains("--scenario must be one of"), "\(bad.stderr)")
            let listed = try await chargekit(["scenarios", "--provider", "sandbox", "--json"])
            let rows = try #require(try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]])
            #expect(rows.count == 7 && rows.allSatisfy { $0["provider"] as? String == "sandbox" }
                    && rows.contains { $0["name"] as? String == "declined" && $0["outcome"] as? String == "failed" }, "\(listed.stdout)")
        }
    }
}
