import CitconSandbox
@_spi(Tools) import CitconUPI
import Foundation
import Testing

/// The sandbox's answers checked key by key against the live API's shapes (protocol
/// notes §5), for the requests as the live API takes them.
@Suite("The sandbox speaks the live wire")
struct LiveShapeTests {
    func post(_ harness: Harness, _ path: String, _ token: String, _ body: String) async throws -> HTTPAnswer {
        try await harness.http.call("POST", path, token: token, body: body)
    }

    @Test func tokenAnswer() async throws {
        try await Harness.router { harness in
            let answer = try await post(harness, "/v1/access-tokens", harness.merchantKey, #"{"token_type":"server"}"#)
            #expect(answer.status == 200)
            let data = try #require(answer.data)
            #expect(Set(data.keys) == ["access_token", "token_type", "expiry", "permission"])
            let expiry = try #require(data["expiry"] as? Int)
            #expect(expiry < 10_000_000_000, "Unix seconds, not milliseconds")
        }
    }

    @Test(arguments: [
        ("alipay", true,
         #"{"transaction":{"reference":"R","amount":100,"currency":"USD","country":"US","country_accelerator":"CN"},"payment":{"method":"alipay","client":["mobile_browser","desktop"]},"urls":{"mobile":"https://shop.example/m","success":"https://shop.example/s","fail":"https://shop.example/f"}}"#),
        ("paypal", false,
         #"{"transaction":{"reference":"R","amount":100.0,"currency":"USD","country":"US"},"payment":{"method":"paypal"},"goods":{"data":[{"name":"Tea","quantity":1,"unit_amount":100,"product_type":"physical"}],"shipping":{"first_name":"A","last_name":"B","phone":"5551234567","email":"a@b.example","street":"1 Main St","city":"Chicago","state":"IL","zip":"60601","country":"US"}}}"#),
        ("upop", true,
         #"{"transaction":{"reference":"R","amount":100,"currency":"USD","country":"US"},"payment":{"method":"upop"},"consumer":{"reference":"c-9","first_name":"A","last_name":"B","phone":"5551234567","email":"a@b.example"}}"#),
    ])
    func chargeAnswer(method: String, autoCapture: Bool, body: String) async throws {
        try await Harness.router { harness in
            let server = try await harness.token("server")
            let reference = "live-\(UUID().uuidString)"
            let answer = try await post(harness, "/v1/charges", server, body.replacingOccurrences(of: #""reference":"R""#, with: #""reference":"\#(reference)""#))
            #expect(answer.status == 200, "\(answer.text)")
            let data = try #require(answer.data)
            for key in ["object", "charge_token", "id", "reference", "amount", "currency", "time_created", "time_captured",
                        "auto_capture", "status", "country", "payment"] {
                #expect(data.keys.contains(key), "\(method): missing \(key)")
            }
            #expect(data["object"] as? String == "charge" && data["status"] as? String == "initiated")
            #expect(data["amount"] as? Int == 100 && data["reference"] as? String == reference)
            #expect(data["time_captured"] is NSNull, "null until captured")
            #expect((data["time_created"] as? Int).map { $0 < 10_000_000_000 } == true, "Unix seconds")
            #expect(data["auto_capture"] as? Bool == autoCapture, "defaulted per method")
            let payment = try #require(data["payment"] as? [String: Any])
            #expect(payment["method"] as? String == method)
            let clients = try #require(payment["client"] as? [[String: Any]])
            #expect(!clients.isEmpty)
            for client in clients {
                #expect(Set(client.keys) == ["client", "format", "method", "content"])
                #expect(["redirect", "qr"].contains(client["format"] as? String) && client["method"] as? String == "GET")
                let page = client["format"] as? String == "qr" ? "/sandbox/qr/" : "/sandbox/wallet/"
                #expect((client["content"] as? String)?.hasPrefix(harness.sandbox.info.baseURL + page) == true)
                let content = try #require(client["content"] as? String)
                let shown = try await harness.http.call("GET", String(content.dropFirst(harness.sandbox.info.baseURL.count)))
                #expect(shown.status == 200 && (page == "/sandbox/wallet/" || shown.text.contains("<svg")))
            }
        }
    }

    @Test func duplicateAndRefundOfAnUnpaidCharge() async throws {
        try await Harness.router { harness in
            let server = try await harness.token("server")
            let (id, _) = try await harness.createCharge(server, reference: "dup-live")
            let duplicate = try await post(harness, "/v1/charges", server, Harness.chargeBody(reference: "dup-live"))
            #expect(duplicate.status == 400 && duplicate.code == "4100")
            #expect(duplicate.json?["status"] as? String == "fail")
            let refund = try await post(harness, "/v1/refunds", server, #"{"id":"\#(id)","reference":"rf-live","amount":100,"note":"n"}"#)
            #expect(refund.status == 406 && refund.code == "4202", "\(refund.text)")
        }
    }

    @Test func refundOfAPaidCharge() async throws {
        try await Harness.router { harness in
            let server = try await harness.token("server")
            let client = try await harness.token("client")
            let (id, chargeToken) = try await harness.createCharge(server, reference: "paid-live", amount: 300, method: "alipay")
            _ = try await harness.confirm(client, chargeToken: chargeToken, method: "alipay", returnURL: "myapp://back")
            _ = try await harness.wallet(id, "pay")
            let answer = try await post(harness, "/v1/refunds", server, #"{"id":"\#(id)","reference":"rf-paid","amount":100,"note":"n"}"#)
            #expect(answer.status == 200, "\(answer.text)")
            let data = try #require(answer.data)
            #expect(data["object"] as? String == "refund" && data["status"] as? String == "succeeded")
            #expect(data["id"] as? String != id && data["amount_refunded"] as? Int == 100)
            #expect(data["time_created"] as? Int != nil && data["time_completed"] as? Int != nil)
        }
    }

    @Test func cancelAnswer() async throws {
        try await Harness.router { harness in
            let server = try await harness.token("server")
            let (id, _) = try await harness.createCharge(server, reference: "to-cancel")
            let answer = try await post(harness, "/v1/cancels", server, #"{"id":"\#(id)","reference":"cx-live","transaction_reference":"to-cancel"}"#)
            #expect(answer.status == 200, "\(answer.text)")
            let data = try #require(answer.data)
            #expect(data["id"] as? String == id && data["object"] as? String == "cancel" && data["status"] as? String == "canceled")
            let payment = try #require(data["payment"] as? [String: Any])
            #expect(payment["type"] as? String == "")
            #expect((payment["data"] as? [String: Any])?["pan"] as? String == "")
        }
    }

    @Test func goodsWithANegativeAmountAreRefusedNamingTheField() async throws {
        try await Harness.router { harness in
            let server = try await harness.token("server")
            let body = #"{"transaction":{"reference":"neg","amount":100,"currency":"USD","country":"US"},"goods":{"data":[{"name":"Tea","quantity":1,"total_amount":-1}]}}"#
            let answer = try await post(harness, "/v1/charges", server, body)
            #expect(answer.status == 400 && answer.message.hasPrefix("goods.data[0].total_amount:"), "\(answer.text)")
        }
    }

    @Test func aFractionOfAMinorUnitIsRefused() async throws {
        try await Harness.router { harness in
            let server = try await harness.token("server")
            let body = #"{"transaction":{"reference":"frac","amount":100.5,"currency":"USD","country":"US"},"payment":{"method":"alipay"}}"#
            let answer = try await post(harness, "/v1/charges", server, body)
            #expect(answer.status == 400 && answer.message.hasPrefix("transaction.amount:"))
        }
    }
}
