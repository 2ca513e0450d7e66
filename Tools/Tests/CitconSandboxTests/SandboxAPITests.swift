@testable import CitconSandbox
@_spi(Tools) import CitconUPI
import Foundation
import Testing

@Suite("UPI sandbox routes (router mode, no port; the restart serves one)")
struct SandboxAPITests {
    @Test("access tokens: server and client types with expiry and permissions; the merchant key is required")
    func accessTokens() async throws {
        try await Harness.router { harness in
            let http = harness.http
            let server = try await http.call("POST", "/v1/access-tokens", token: harness.merchantKey, body: #"{"token_type":"server"}"#)
            #expect(server.status == 200)
            #expect(server.json?["status"] as? String == "success")
            #expect(server.json?["app"] as? String == "citcon_upi")
            #expect(server.json?["version"] as? String == UPIWire.version)
            #expect(server.data?["permission"] as? [String] == ["charge", "inquiry", "capture", "refund", "cancel"])
            let expiry = try #require(server.data?["expiry"] as? Int64)
            let day = Int64(Date().timeIntervalSince1970) + 24 * 3600
            #expect(abs(expiry - day) < 60, "24 h by default, in Unix seconds as the live API writes it")
            let client = try await http.call("POST", "/v1/access-tokens", token: harness.merchantKey, body: #"{"token_type":"client"}"#)
            #expect(client.data?["permission"] as? [String] == ["confirm", "inquiry"])

            let missing = try await http.call("POST", "/v1/access-tokens", body: #"{"token_type":"server"}"#)
            #expect(missing.status == 401 && missing.code == "4010" && missing.json?["status"] as? String == "fail")
            let wrong = try await http.call("POST", "/v1/access-tokens", token: "sk_wrong", body: #"{"token_type":"server"}"#)
            #expect(wrong.status == 401 && wrong.code == "4010")
            let badType = try await http.call("POST", "/v1/access-tokens", token: harness.merchantKey, body: #"{"token_type":"admin"}"#)
            #expect(badType.status == 400 && badType.code == "4000" && badType.message.hasPrefix("token_type:"))
        }
    }

    @Test("a charge is created with a server token and comes back with id, charge token, status, reference, amount, currency")
    func createCharge() async throws {
        try await Harness.router { harness in
            let server = try await harness.token("server")
            let answer = try await harness.http.call("POST", "/v1/charges", token: server,
                                                     body: Harness.chargeBody(reference: "order-1", amount: 128))
            #expect(answer.status == 200)
            let data = try #require(answer.data)
            #expect((data["id"] as? String).map { $0.count == 19 && $0.allSatisfy(\.isNumber) } == true, "a long numeric string")
            #expect((data["charge_token"] as? String)?.count == 32)
            #expect(data["status"] as? String == "initiated")
            #expect(data["reference"] as? String == "order-1")
            #expect(data["amount"] as? Int == 128)
            #expect(data["currency"] as? String == "USD")
        }
    }

    /// Bodies that must get a `fail` envelope naming the problem, never a 500.
    static let badCharges: [(String, Int, String, String)] = [
        ("{", 400, "4001", "body"),
        ("[]", 400, "4000", "body"),
        (#"{"payment":{"method":"alipay"}}"#, 400, "4000", "transaction: required"),
        (#"{"transaction":{"reference":"r","amount":"5","currency":"USD","country":"US"}}"#, 400, "4000", "transaction.amount: expected an integer"),
        (#"{"transaction":{"reference":"r","amount":1.5,"currency":"USD","country":"US"}}"#, 400, "4000", "transaction.amount"),
        (#"{"transaction":{"reference":"r","amount":null,"currency":"USD","country":"US"}}"#, 400, "4000", "transaction.amount"),
        (#"{"transaction":{"reference":"r","amount":0,"currency":"USD","country":"US"}}"#, 400, "4000", "transaction.amount: must be greater than zero"),
        (#"{"transaction":{"reference":"r","amount":-3,"currency":"USD","country":"US"}}"#, 400, "4000", "transaction.amount: must be greater than zero"),
        (#"{"transaction":{"reference":"r","amount":99999999999999999999,"currency":"USD","country":"US"}}"#, 400, "4000", "transaction.amount"),
        (#"{"transaction":{"reference":"r","amount":1,"currency":"XYZ","country":"US"}}"#, 400, "4000", "transaction.currency"),
        (#"{"transaction":{"reference":"r","amount":1,"currency":"usd","country":"US"}}"#, 400, "4000", "transaction.currency"),
        (#"{"transaction":{"reference":"r","amount":1,"currency":"USD","country":"ZZ"}}"#, 400, "4000", "transaction.country"),
        (#"{"transaction":{"reference":"r","amount":1,"currency":"USD"}}"#, 400, "4000", "transaction.country: required"),
        (#"{"transaction":{"reference":"\#(String(repeating: "x", count: 200))","amount":1,"currency":"USD","country":"US"}}"#, 400, "4000", "transaction.reference"),
        (#"{"transaction":{"reference":"r","amount":1,"currency":"USD","country":"US","note":"\#(String(repeating: "n", count: 600))"}}"#, 400, "4000", "transaction.note"),
        (#"{"transaction":{"reference":"r","amount":1,"currency":"USD","country":"US","auto_capture":"yes"}}"#, 400, "4000", "transaction.auto_capture"),
        (#"{"transaction":{"reference":"r","amount":1,"currency":"USD","country":"US"},"payment":{"method":"bitcoin"}}"#, 400, "4000", "payment.method"),
        (#"{"transaction":{"reference":"r","amount":1,"currency":"USD","country":"US"},"payment":{}}"#, 400, "4000", "payment.method: required"),
        (#"{"transaction":{"reference":"r","amount":1,"currency":"USD","country":"US"},"urls":{"ipn":"http://example.com/ipn"}}"#, 400, "4000", "urls.ipn: must be a loopback address"),
        (#"{"transaction":{"reference":"r","amount":1,"currency":"USD","country":"US"},"urls":{"ipn":"http://127.attacker.example/ipn"}}"#, 400, "4000", "urls.ipn: must be a loopback address"),
        (#"{"transaction":{"reference":"r","amount":1,"currency":"USD","country":"US"},"urls":{"ipn":"http://2130706433/ipn"}}"#, 400, "4000", "urls.ipn: must be a loopback address"),
        (#"{"transaction":{"reference":"r","amount":1,"currency":"USD","country":"US"},"urls":{"ipn":"http://0x7f.0.0.1/ipn"}}"#, 400, "4000", "urls.ipn: must be a loopback address"),
        (#"{"transaction":{"reference":"r","amount":1,"currency":"USD","country":"US"},"urls":{"ipn":"http://0177.0.0.1/ipn"}}"#, 400, "4000", "urls.ipn: must be a loopback address"),
        (#"{"transaction":{"reference":"r","amount":1,"currency":"USD","country":"US"},"urls":{"ipn":"http://[::ffff:127.0.0.1]/ipn"}}"#, 400, "4000", "urls.ipn: must be a loopback address"),
        (#"{"transaction":{"reference":"r","amount":1,"currency":"USD","country":"US"},"urls":{"ipn":"http://0.0.0.0/ipn"}}"#, 400, "4000", "urls.ipn: must be a loopback address"),
        (#"{"transaction":{"reference":"r","amount":1,"currency":"USD","country":"US"},"urls":{"ipn":"http://127.0.0.1.nip.io/ipn"}}"#, 400, "4000", "urls.ipn: must be a loopback address"),
        (#"{"transaction":{"reference":"r","amount":1,"currency":"USD","country":"US"},"urls":{"ipn":"ftp://127.0.0.1/ipn"}}"#, 400, "4000", "urls.ipn: must be"),
        (#"{"transaction":{"reference":"r","amount":1,"currency":"USD","country":"US"},"urls":{"ipn":"http://user@127.0.0.1/ipn"}}"#, 400, "4000", "urls.ipn: must be a loopback address"),
        (#"{"transaction":{"reference":"r","amount":1,"currency":"USD","country":"US"},"urls":{"ipn":"ftp://127.0.0.1/ipn"}}"#, 400, "4000", "urls.ipn"),
    ]

    @Test("bad charge bodies get a fail envelope that names the field, never a 500")
    func badChargeBodies() async throws {
        try await Harness.router { harness in
            let server = try await harness.token("server")
            for (body, status, code, prefix) in Self.badCharges {
                let answer = try await harness.http.call("POST", "/v1/charges", token: server, body: body)
                #expect(answer.status == status && answer.code == code, "\(body.prefix(80)) → \(answer.status) \(answer.text)")
                #expect(answer.message.hasPrefix(prefix), "\(body.prefix(80)) → \(answer.message)")
                #expect(answer.json?["status"] as? String == "fail")
            }
            let huge = Harness.chargeBody(reference: "big").replacingOccurrences(of: #""note":"n""#,
                                                                                  with: #""note":"\#(String(repeating: "a", count: 70_000))""#)
            let tooLarge = try await harness.http.call("POST", "/v1/charges", token: server, body: huge)
            #expect(tooLarge.status == 413 && tooLarge.code == "4130")
            #expect(try await harness.http.call("GET", "/v1/charges").status != 500)
        }
    }

    @Test("tokens: missing, unknown or expired is 4010 with HTTP 401; beyond its permissions is 4030")
    func tokenChecks() async throws {
        try await Harness.router { harness in
            let body = Harness.chargeBody(reference: "t1")
            let none = try await harness.http.call("POST", "/v1/charges", body: body)
            #expect(none.status == 401 && none.code == "4010")
            let unknown = try await harness.http.call("POST", "/v1/charges", token: "st_forged", body: body)
            #expect(unknown.status == 401 && unknown.code == "4010")
            let client = try await harness.token("client")
            let forbidden = try await harness.http.call("POST", "/v1/charges", token: client, body: body)
            #expect(forbidden.status == 403 && forbidden.code == "4030" && forbidden.message.contains("'charge'"))
            let server = try await harness.token("server")
            let (_, chargeToken) = try await harness.createCharge(server)
            let serverConfirm = try await harness.confirm(server, chargeToken: chargeToken)
            #expect(serverConfirm.status == 403 && serverConfirm.code == "4030")

            // The sandbox's clock moves past the token's lifetime: no waiting.
            let seconds = harness.configuration.tokenLifetime.components.seconds + 1
            let moved = try await harness.http.call("POST", "/sandbox/clock", token: harness.merchantKey, body: #"{"advance_seconds":\#(seconds)}"#)
            #expect(moved.status == 200, "\(moved.text)")
            let expired = try await harness.http.call("POST", "/v1/charges", token: server, body: body)
            #expect(expired.status == 401 && expired.code == "4010" && expired.message.contains("expired"))
        }
    }

    @Test("a reference is an idempotency key: reused for a charge, or by a capture or refund, it is 4100")
    func duplicateReferences() async throws {
        try await Harness.router { harness in
            let server = try await harness.token("server")
            _ = try await harness.createCharge(server, reference: "dup-1")
            let again = try await harness.http.call("POST", "/v1/charges", token: server, body: Harness.chargeBody(reference: "dup-1"))
            #expect(again.status == 400 && again.code == "4100" && again.message.hasPrefix("reference:"))
        }
    }

    @Test("group commit: concurrent writes, half of them duplicates, each answered on its own",
          arguments: [true, false])
    func concurrentDuplicates(groupCommit: Bool) async throws {
        try await Harness.router({ $0.groupCommit = groupCommit }) { harness in
            let server = try await harness.token("server")
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<60 {
                    group.addTask {
                        try await harness.http.call("POST", "/v1/charges", token: server,
                                                    body: Harness.chargeBody(reference: "same-\(index % 30)")).status
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 200 }.count == 30)
            #expect(statuses.filter { $0 == 400 }.count == 30)
            #expect(try await harness.sandbox.server.store.chargeCount() == 30)
        }
    }

    @Test("confirm: client token, returns the wallet page; only an initiated charge; unknown token is 4004")
    func confirm() async throws {
        try await Harness.router { harness in
            let server = try await harness.token("server")
            let client = try await harness.token("client")
            let (id, chargeToken) = try await harness.createCharge(server)
            let confirmed = try await harness.confirm(client, chargeToken: chargeToken, returnURL: "myapp://cpay/return")
            #expect(confirmed.status == 200)
            #expect(confirmed.data?["status"] as? String == "pending")
            let next = try #require(confirmed.data?["next_action"] as? [String: Any])
            #expect(next["type"] as? String == "redirect")
            #expect(next["url"] as? String == harness.sandbox.info.baseURL + harness.walletPath(id))
            let twice = try await harness.confirm(client, chargeToken: chargeToken)
            #expect(twice.status == 409 && twice.code == "4090")
            let unknown = try await harness.confirm(client, chargeToken: "0123456789abcdef0123456789abcdef")
            #expect(unknown.status == 404 && unknown.code == "4004")
            let (_, other) = try await harness.createCharge(server, method: "alipay")
            let mismatch = try await harness.confirm(client, chargeToken: other, method: "wechatpay")
            #expect(mismatch.status == 400 && mismatch.message.hasPrefix("payment.method:"))
            let badReturn = try await harness.confirm(client, chargeToken: other, method: "alipay", returnURL: "no scheme")
            #expect(badReturn.status == 400 && badReturn.message.hasPrefix("return_url:"))
        }
    }

    @Test("inquiry has the shape of the seed's asynchronous example, captures, refunds and chargebacks included")
    func inquiryShape() async throws {
        try await Harness.router { harness in
            let server = try await harness.token("server")
            let (id, _) = try await harness.createCharge(server, reference: "shape-1")
            let answer = try await harness.inquire(server, id)
            #expect(answer.status == 200)
            let data = try #require(answer.data)
            let seed = try JSONSerialization.jsonObject(with: Data(SeedAsync.json.utf8)) as? [String: Any]
            let seedData = try #require(seed?["data"] as? [String: Any])
            for key in seedData.keys { #expect(data.keys.contains(key), "missing \(key)") }
            let payment = try #require(data["payment"] as? [String: Any])
            #expect(Set(payment.keys) == ["method", "token", "type", "data"])
            #expect(data["time_canceled"] as? String == "")
            #expect(data["reference"] as? String == "shape-1")
            #expect((data["captures"] as? [String: Any])?["data"] as? [Any] != nil)
            let check = try JSONDecoder().decode(CPayCheck.self, from: answer.body)
            #expect(check.data?.id == id && check.data?.status == .initiated)
            let unknown = try await harness.inquire(server, "0123456789abcdef0123456789abcdef")
            #expect(unknown.status == 404 && unknown.code == "4004")
            let bad = try await harness.inquire(server, "bad%20id")
            #expect(bad.status == 400 && bad.message.hasPrefix("id:"))
        }
    }

    @Test("card: authorize, capture, partial refunds up to the captured amount; illegal steps refused")
    func captureAndRefund() async throws {
        try await Harness.router { harness in
            let server = try await harness.token("server")
            let client = try await harness.token("client")
            let (id, chargeToken) = try await harness.createCharge(server, reference: "card-1", amount: 1000, method: "card")
            _ = try await harness.confirm(client, chargeToken: chargeToken, method: "card", returnURL: "myapp://back")
            let early = try await harness.http.call("POST", "/v1/captures", token: server,
                                                    body: #"{"transaction_id":"\#(id)","reference":"cap-0"}"#)
            #expect(early.status == 409 && early.code == "4090", "pending cannot be captured")
            #expect(try await harness.wallet(id, "pay").status == 303)
            #expect(try await harness.inquire(server, id).data?["status"] as? String == "authorized")
            let refundFirst = try await harness.http.call("POST", "/v1/refunds", token: server,
                                                          body: #"{"transaction_id":"\#(id)","reference":"ref-0","amount":10}"#)
            #expect(refundFirst.status == 406 && refundFirst.code == "4202", "refunding a charge never paid")
            let over = try await harness.http.call("POST", "/v1/captures", token: server,
                                                   body: #"{"transaction_id":"\#(id)","reference":"cap-1","amount":1001}"#)
            #expect(over.status == 422 && over.code == "4201" && over.message.hasPrefix("amount:"))
            let sameRef = try await harness.http.call("POST", "/v1/captures", token: server,
                                                      body: #"{"transaction_id":"\#(id)","reference":"card-1"}"#)
            #expect(sameRef.status == 400 && sameRef.code == "4100")
            let zero = try await harness.http.call("POST", "/v1/captures", token: server,
                                                   body: #"{"transaction_id":"\#(id)","reference":"cap-z","amount":0}"#)
            #expect(zero.status == 400 && zero.message.hasPrefix("amount:"))
            let capture = try await harness.http.call("POST", "/v1/captures", token: server,
                                                      body: #"{"transaction_id":"\#(id)","reference":"cap-2","amount":800}"#)
            #expect(capture.status == 200)
            #expect(capture.data?["status"] as? String == "succeeded" && capture.data?["amount_captured"] as? Int == 800)
            #expect(((capture.data?["captures"] as? [String: Any])?["data"] as? [Any])?.count == 1)
            let tooMuch = try await harness.http.call("POST", "/v1/refunds", token: server,
                                                      body: #"{"transaction_id":"\#(id)","reference":"ref-1","amount":801}"#)
            #expect(tooMuch.status == 422 && tooMuch.code == "4201")
            let partial = try await harness.http.call("POST", "/v1/refunds", token: server,
                                                      body: #"{"transaction_id":"\#(id)","reference":"ref-2","amount":300,"reason":"damaged"}"#)
            #expect(partial.status == 200 && partial.data?["amount_refunded"] as? Int == 300)
            let dupRefund = try await harness.http.call("POST", "/v1/refunds", token: server,
                                                        body: #"{"transaction_id":"\#(id)","reference":"ref-2","amount":1}"#)
            #expect(dupRefund.status == 400 && dupRefund.code == "4100")
            let rest = try await harness.http.call("POST", "/v1/refunds", token: server,
                                                   body: #"{"transaction_id":"\#(id)","reference":"ref-3"}"#)
            #expect(rest.status == 200 && rest.data?["amount_refunded"] as? Int == 500, "this refund's amount: the rest")
            #expect(rest.data?["object"] as? String == "refund" && rest.data?["id"] as? String != id)
            #expect(try await harness.inquire(server, id).data?["amount_refunded"] as? Int == 800, "the charge's total")
            let cancelPaid = try await harness.http.call("POST", "/v1/cancels", token: server,
                                                         body: #"{"transaction_id":"\#(id)","reference":"can-1"}"#)
            #expect(cancelPaid.status == 409 && cancelPaid.code == "4090")
            let clientRefund = try await harness.http.call("POST", "/v1/refunds", token: client,
                                                           body: #"{"transaction_id":"\#(id)","reference":"ref-9"}"#)
            #expect(clientRefund.status == 403 && clientRefund.code == "4030")
        }
    }

    @Test("a method without partial refunds answers 4208 to a partial one and accepts the full amount")
    func partialRefundIneligible() async throws {
        try await Harness.router { harness in
            let server = try await harness.token("server")
            let client = try await harness.token("client")
            let (id, chargeToken) = try await harness.createCharge(server, amount: 500, method: "unionpay")
            _ = try await harness.confirm(client, chargeToken: chargeToken, method: "unionpay", returnURL: "myapp://back")
            _ = try await harness.wallet(id, "pay")
            let partial = try await harness.http.call("POST", "/v1/refunds", token: server,
                                                      body: #"{"transaction_id":"\#(id)","reference":"r-1","amount":100}"#)
            #expect(partial.status == 422 && partial.code == "4208" && partial.message.contains("unionpay"))
            let full = try await harness.http.call("POST", "/v1/refunds", token: server,
                                                   body: #"{"transaction_id":"\#(id)","reference":"r-2","amount":500}"#)
            #expect(full.status == 200 && full.data?["amount_refunded"] as? Int == 500)
            let wallet = try await harness.inquire(server, id)
            #expect(wallet.data?["amount_captured"] is NSNull, "wallet methods have no capture")
        }
    }

    @Test("cancels: an initiated charge is canceled and can no longer be confirmed")
    func cancels() async throws {
        try await Harness.router { harness in
            let server = try await harness.token("server")
            let client = try await harness.token("client")
            let (id, chargeToken) = try await harness.createCharge(server)
            let cancel = try await harness.http.call("POST", "/v1/cancels", token: server,
                                                     body: #"{"transaction_id":"\#(id)","reference":"c-1"}"#)
            #expect(cancel.status == 200 && cancel.data?["status"] as? String == "canceled")
            #expect(cancel.data?["time_canceled"] is Int)
            let confirm = try await harness.confirm(client, chargeToken: chargeToken)
            #expect(confirm.status == 409 && confirm.code == "4090")
            let unknown = try await harness.http.call("POST", "/v1/cancels", token: server,
                                                      body: #"{"transaction_id":"0123456789abcdef0123456789abcdef","reference":"c-2"}"#)
            #expect(unknown.status == 404 && unknown.code == "4004")
            let missing = try await harness.http.call("POST", "/v1/cancels", token: server, body: #"{"reference":"c-3"}"#)
            #expect(missing.status == 400 && missing.message.hasPrefix("transaction_id: required"))
        }
    }

    @Test("unpaid charges expire: inquiry shows expired, confirmation is refused with 4410")
    func expiry() async throws {
        try await Harness.router { harness in
            let server = try await harness.token("server")
            let client = try await harness.token("client")
            let (id, chargeToken) = try await harness.createCharge(server)
            let (other, _) = try await harness.createCharge(server)
            // The sandbox's clock moves past the charges' lifetime (not the tokens'): no waiting.
            let seconds = harness.configuration.chargeLifetime.components.seconds + 1
            #expect(try await harness.http.call("POST", "/sandbox/clock", token: harness.merchantKey,
                                                body: #"{"advance_seconds":\#(seconds)}"#).status == 200)
            let confirm = try await harness.confirm(client, chargeToken: chargeToken)
            #expect(confirm.status == 410 && confirm.code == "4410")
            #expect(try await harness.inquire(server, id).data?["status"] as? String == "expired")
            #expect(try await eventually { try await harness.sandbox.server.store.charge(id: other)?.status == .expired },
                    "the sweeper expires charges nobody asks about")
        }
    }

    @Test("the wallet page shows merchant, amount, currency, method and three buttons")
    func walletPage() async throws {
        // A quote or bracket followed by a combining mark is one Character equal to no
        // quote, but its first byte still ends an attribute: escaped by scalar.
        try await Harness.router({ $0.merchantName = "Shop <&> Co \"\u{301}<\u{338}" }) { harness in
            let server = try await harness.token("server")
            let client = try await harness.token("client")
            let (id, chargeToken) = try await harness.createCharge(server, amount: 1234, method: "alipay")
            _ = try await harness.confirm(client, chargeToken: chargeToken, method: "alipay", returnURL: "com.citcon.citconpay://cpay/return")
            let page = try await harness.http.call("GET", harness.walletPath(id))
            #expect(page.status == 200)
            let html = page.text
            let escaped = "Shop &lt;&amp;&gt; Co &quot;\u{301}&lt;\u{338}", rawQuoteThenMark = "\"\u{301}"
            #expect(html.contains(escaped), "escaped merchant name")
            #expect(!html.contains(rawQuoteThenMark), "no raw quote before a combining mark")
            #expect(html.contains("12.34 USD"))
            #expect(html.contains("<dd>alipay</dd>"))
            for action in ["pay", "decline", "cancel"] { #expect(html.contains(#"name="action" value="\#(action)""#)) }
            #expect(!html.contains("http://") && !html.contains("https://"), "no external assets")
            let missing = try await harness.http.call("GET", "/sandbox/wallet/0123456789abcdef0123456789abcdef")
            #expect(missing.status == 404)
        }
    }

    @Test("wallet choices update the charge and redirect to the app's return URL or to urls.success/fail/cancel")
    func walletRedirects() async throws {
        try await Harness.router { harness in
            let server = try await harness.token("server")
            let client = try await harness.token("client")
            for (action, returnURL, status, target) in [
                ("pay", "com.citcon.citconpay://cpay/return", "succeeded", "com.citcon.citconpay://cpay/return"),
                ("pay", nil, "succeeded", "https://shop.example/success"),
                ("decline", nil, "failed", "https://shop.example/fail"),
                ("cancel", nil, "canceled", "https://shop.example/cancel"),
                ("cancel", "https://www.merchant.com/apps/", "canceled", "https://www.merchant.com/apps/"),
            ] as [(String, String?, String, String)] {
                let (id, chargeToken) = try await harness.createCharge(server)
                _ = try await harness.confirm(client, chargeToken: chargeToken, returnURL: returnURL)
                let answer = try await harness.wallet(id, action)
                #expect(answer.status == 303)
                #expect(answer.location == "\(target)?charge_id=\(id)&status=\(status)")
                #expect(try await harness.inquire(server, id).data?["status"] as? String == status)
                let again = try await harness.wallet(id, "pay")
                #expect(again.location == answer.location, "a second choice changes nothing")
            }
            // A charge the app never confirmed is payable from its wallet link (the desktop
            // QR flow), with the method it was created for or one the page offers.
            let (unconfirmed, _) = try await harness.createCharge(server)
            #expect(try await harness.wallet(unconfirmed, "steal").status == 400)
            let paidHosted = try await harness.wallet(unconfirmed, "pay")
            #expect(paidHosted.location == "https://shop.example/success?charge_id=\(unconfirmed)&status=succeeded")
            let (noMethod, _) = try await harness.createCharge(server, method: nil)
            let unchosen = try await harness.wallet(noMethod, "pay")
            #expect(unchosen.status == 400 && unchosen.text.contains("method"))
            #expect(try await harness.wallet(noMethod, "pay", extra: "&method=card").status == 303)
            #expect(try await harness.inquire(server, noMethod).data?["status"] as? String == "authorized")
            let doubled = try await harness.http.call("POST", harness.walletPath(unconfirmed), data: Data("action=pay&action=cancel".utf8),
                                                      contentType: "application/x-www-form-urlencoded")
            #expect(doubled.status == 400)
        }
    }

    @Test("restart on the same file keeps the merchant key, tokens and charges; health answers")
    func restart() async throws {
        let first = try await Harness.start()
        let server = try await first.token("server")
        let (id, _) = try await first.createCharge(server, reference: "survivor")
        let key = first.merchantKey
        await first.stop(removing: false)
        let second = try await Harness.start(directory: first.directory)
        try await withCleanup({ await second.stop() }) { () async throws in
            #expect(second.merchantKey == key)
            #expect(try await second.inquire(server, id).data?["reference"] as? String == "survivor")
            #expect(try await second.http.call("GET", "/v1/health").status == 200)
            #expect(second.sandbox.info.schemaVersion == SQLiteSandboxStore.migrations.count)
        }
    }
}

/// The seed's asynchronous example, for the inquiry's shape.
enum SeedAsync {
    static let json = """
    {"status":"success","app":"citcon_upi","version":"v0.1.1","data":{"id":"8b3ac410a2d911ec8410e9f493c7d3ef",
    "object":"charge","amount":1,"currency":"USD","status":"succeeded","time_canceled":"","expiry":null,
    "time_created":1647181576000,"country":"US","reference":"sdk_digit_1647181572.353276","amount_captured":null,
    "amount_refunded":null,"time_captured":null,"auto_capture":false,"payment":{"method":"paypal","token":null,
    "type":"","data":{"pan":"","expiry":""}},"exchange":{"amount":null,"currency":null,"rate":null},
    "captures":{"data":[]},"refunds":{"data":[]},"chargebacks":{"data":[]}}}
    """
}
