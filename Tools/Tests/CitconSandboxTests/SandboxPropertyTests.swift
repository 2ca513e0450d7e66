import CitconSandbox
@_spi(Tools) import CitconUPI
import Foundation
import PropertyBased
import Testing

@Suite("Sandbox properties")
struct SandboxPropertyTests {
    @Test("random valid orders: merchant → SDK → wallet → result gives back what was asked")
    func ordersRoundTrip() async throws {
        let setup = try await SDKSetup.start()
        try await withCleanup({ await setup.stop() }) {
            let manager = setup.manager(events: Events()) { _ in .pay }
            let currencies = ["USD", "JPY", "BHD", "EUR", "CNY"]
            let methods = ["alipay", "wechatpay", "unionpay", "paypal"]
            await propertyCheck(count: 25, input: Gen<Int>.value(in: 1...999_999_999), Gen<Int>.value(in: 0...4),
                                Gen<Int>.value(in: 0...3), Gen.letterOrNumber.compactMap { $0 }.string(of: 1...40)) { amount, c, m, ref in
                do {
                    var order = try await setup.order(method: methods[m], amount: amount)
                    order.transaction.currency = currencies[c]
                    order.transaction.reference = "p-\(ref)-\(UUID().uuidString.prefix(6))"
                    let created = try await setup.merchant.createCharge(UPIWire.ChargeRequest(order: order), token: setup.serverToken)
                    order.chargeToken = created.chargeToken
                    let result = try await manager.requestOrder(order)
                    #expect(result.status == "success")
                    #expect(result.data?.reference == order.transaction.reference)
                    #expect(result.data?.amount == amount)
                    #expect(result.data?.currency == currencies[c])
                    #expect(result.data?.payment?.method == methods[m])
                } catch {
                    Issue.record("\(error)")
                }
            }
        }
    }

    @Test("random bodies on every JSON endpoint: a fail envelope naming the problem, never a 5xx")
    func randomBodies() async throws {
        try await Harness.router { harness in
            let server = try await harness.token("server")
            let client = try await harness.token("client")
            let (_, chargeToken) = try await harness.createCharge(server)
            let targets = [("/v1/charges", server), ("/v1/charges/\(chargeToken)", client), ("/v1/captures", server),
                           ("/v1/refunds", server), ("/v1/cancels", server), ("/v1/access-tokens", harness.merchantKey)]
            let seeds = [Harness.chargeBody(reference: "seed"), #"{"payment":{"method":"wechatpay"},"return_url":"app://r"}"#,
                         #"{"transaction_id":"0123456789abcdef0123456789abcdef","reference":"x","amount":5}"#,
                         #"{"token_type":"server"}"#].map { Array($0.utf8) }
            let alphabet = Array(#"{}[]":,0123456789-.eE truefalsnul\x"#.utf8) + [0, 0xFF]
            await propertyCheck(count: 300, input: Gen<Int>.value(in: 0...1_000_000).array(of: 0...8),
                                Gen<Int>.value(in: 0...5), Gen<Int>.value(in: 0...3)) { edits, target, seed in
                var bytes = seeds[seed]
                for edit in edits {
                    let index = edit % bytes.count
                    switch edit % 3 {
                    case 0: bytes[index] = alphabet[(edit / 3) % alphabet.count]
                    case 1: bytes.insert(alphabet[(edit / 3) % alphabet.count], at: index)
                    default: if bytes.count > 1 { bytes.remove(at: index) }
                    }
                }
                let (path, token) = targets[target]
                guard let answer = try? await harness.http.call("POST", path, token: token, data: Data(bytes)) else {
                    Issue.record("no answer"); return
                }
                #expect(answer.status < 500, "\(path) \(String(decoding: bytes, as: UTF8.self)) → \(answer.status)")
                if answer.status >= 400 {
                    #expect(answer.json?["status"] as? String == "fail" && answer.code != nil && !answer.message.isEmpty)
                }
            }
        }
    }
}
