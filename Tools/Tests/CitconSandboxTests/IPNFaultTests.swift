import CitconSandbox
import CitconSandboxTesting
@_spi(Tools) import CitconUPI
import Foundation
import ProcessSupport
import Testing

/// `ChargeKit-IPN-Fault`: a charge's IPNs arrive twice, late, cut off or out of order,
/// so that a merchant's receiver can be tested for idempotency and ordering.
@Suite("IPN faults on demand")
struct IPNFaultTests {
    /// A charge to `receiver` with `fault`, confirmed and paid: its id.
    static func paidCharge(_ harness: Harness, receiver: IPNReceiver, fault: String) async throws -> String {
        let server = try await harness.token("server")
        let created = try await harness.http.call("POST", "/v1/charges", token: server,
                                                  data: Data(Harness.chargeBody(reference: "f-\(UUID().uuidString)", method: "alipay",
                                                                                ipn: receiver.url).utf8),
                                                  headers: ["ChargeKit-IPN-Fault": fault])
        #expect(created.status == 200, "\(created.text)")
        let id = try #require(created.data?["id"] as? String), token = try #require(created.data?["charge_token"] as? String)
        _ = try await harness.confirm(try await harness.token("client"), chargeToken: token, method: "alipay")
        _ = try await harness.wallet(id, "pay")
        return id
    }

    static func statuses(_ deliveries: [IPNReceiver.Delivery]) -> [String] { deliveries.compactMap { $0.fields?["status"] } }

    @Test("duplicate: every IPN arrives twice, the same body both times")
    func duplicate() async throws {
        let receiver = try await IPNReceiver.start()
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop(); await receiver.stop() }) {
            _ = try await Self.paidCharge(harness, receiver: receiver, fault: "duplicate")
            #expect(await receiver.wait { $0.count >= 4 }, "\(Self.statuses(receiver.deliveries))")
            let bodies = receiver.deliveries.map(\.body)
            #expect(bodies.count == 4 && bodies[0] == bodies[1] && bodies[2] == bodies[3] && bodies[0] != bodies[2])
        }
    }

    @Test("reorder: the succeeded IPN arrives before the pending one it follows")
    func reorder() async throws {
        let receiver = try await IPNReceiver.start()
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop(); await receiver.stop() }) {
            _ = try await Self.paidCharge(harness, receiver: receiver, fault: "reorder")
            #expect(await receiver.wait { $0.count >= 2 })
            let order = Self.statuses(receiver.deliveries)
            #expect(order.count == 2 && order.last == "pending" && order.first != "pending", "the pending IPN came first: \(order)")
        }
    }

    @Test("delay=60s: nothing arrives until the sandbox's clock passes the minute; reset: the first attempt is cut off, the retry whole")
    func delayAndReset() async throws {
        let receiver = try await IPNReceiver.start()
        let harness = try await Harness.start { $0.ipnRetrySchedule = [.milliseconds(300)] }
        try await withCleanup({ await harness.stop(); await receiver.stop() }) {
            let id = try await Self.paidCharge(harness, receiver: receiver, fault: "delay=60s")
            // The outbox holds the IPN a minute away (by the sandbox's clock), unattempted: no waiting to see it does not come.
            let held = try await harness.sandbox.server.store.notifications(transactionID: id)
            #expect(!held.isEmpty && held.allSatisfy { $0.attempts == 0 && $0.nextAttemptAt >= harness.sandbox.server.api.clock.now + 55_000 },
                    "a delayed IPN is due at once: \(held)")
            #expect(receiver.deliveries.isEmpty, "a delayed IPN came at once")
            _ = try await harness.http.call("POST", "/sandbox/clock", token: harness.merchantKey, body: #"{"advance_seconds":61}"#)
            #expect(await receiver.wait { $0.count >= 2 }, "the delayed IPNs did not come once the clock passed them")

            let reset = try await Self.paidCharge(harness, receiver: receiver, fault: "reset")
            let store = harness.sandbox.server.store
            #expect(try await eventually(.seconds(15)) {
                let attempts = try await store.notificationLog(transactionIDs: [reset]).attempts
                return attempts.contains { $0.number == 2 && $0.delivered }
            })
            let attempts = try await store.notificationLog(transactionIDs: [reset]).attempts
            #expect(attempts.contains { $0.number == 1 && !$0.delivered && $0.answer.contains("cut off") }, "\(attempts)")
        }
    }

    @Test("an unknown fault is refused, naming the header; upi charge --ipn-fault checks it too")
    func refusals() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            for bad in ["twice", "delay=0s", "delay=601s", "delay=5m"] {
                let answer = try await harness.http.call("POST", "/v1/charges", token: try await harness.token("server"),
                                                         data: Data(Harness.chargeBody(reference: "b-\(UUID().uuidString)").utf8),
                                                         headers: ["ChargeKit-IPN-Fault": bad])
                #expect(answer.status == 400 && answer.message.hasPrefix("ChargeKit-IPN-Fault: must be"), "\(bad): \(answer.text)")
            }
            let cli = try await chargekit(["upi", "charge", "--base-url", harness.sandbox.info.baseURL + "/v1", "--key", harness.merchantKey,
                                           "--ipn-fault", "twice"])
            #expect(cli.status == 64 && cli.stderr.contains("--ipn-fault must be"), "\(cli.stderr)")
        }
    }
}
