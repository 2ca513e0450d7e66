import CitconSandbox
import CitconSandboxTesting
@_spi(Tools) import CitconUPI
import Foundation
import Testing
import ToolsPlatform

@Suite("Sandbox dashboard")
struct DashboardTests {
    static let form = "application/x-www-form-urlencoded"

    static func basic(_ user: String, _ password: String) -> String {
        "Basic " + Data("\(user):\(password)".utf8).base64EncodedString()
    }

    /// The dashboard as a browser that knows the key sees it.
    static func page(_ harness: Harness) async throws -> HTTPAnswer {
        let answer = try await harness.http.call("GET", "/sandbox/dashboard", data: nil,
                                                 headers: ["Authorization": basic("operator", harness.merchantKey)])
        #expect(answer.status == 200, "\(answer.text)")
        return answer
    }

    /// Loads the page, then posts one of its forms: `action` on a charge or an IPN.
    static func post(_ harness: Harness, _ fields: String, token: String? = nil,
                     headers: [String: String] = [:]) async throws -> HTTPAnswer {
        var formToken = token ?? ""
        if token == nil { formToken = HeadlessWallet.formToken(in: try await page(harness).text) ?? "" }
        return try await harness.http.call("POST", "/sandbox/dashboard", data: Data("form_token=\(formToken)&\(fields)".utf8),
                                           contentType: form,
                                           headers: ["Authorization": "Bearer " + harness.merchantKey].merging(headers) { $1 })
    }

    /// A request without a key, over a raw socket: Foundation's URLSession on Linux never
    /// completes a request answered by a `401` with a challenge when it has no credential
    /// to offer (swift-corelibs-foundation#5456), so the challenge is read off the wire.
    static func rawAnswer(_ harness: Harness, _ request: String) async throws -> String {
        let port = try #require(URL(string: harness.http.base)?.port)
        // Closed once, by the socket's deinit: closing its descriptor here as well closed
        // it twice, and the second close could hit a descriptor the sandbox had been given
        // the number of in between (a flaky NIO "fd registered twice" assertion in CI).
        let socket = try RawSocket.connect(port: port)
        socket.send(Data(request.utf8))
        return String(decoding: await offPool { socket.receive(timeout: .seconds(20)).data }, as: UTF8.self)
    }

    @Test("only the merchant key opens it: Bearer, or the password of Basic; a browser is asked for it")
    func authentication() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            let server = try await harness.token("server")
            for header in ["", "Bearer " + server, "Bearer wrong", Self.basic("operator", "wrong"), Self.basic(harness.merchantKey, ""),
                           "Basic !!!", "Digest " + harness.merchantKey] {
                let answer = try await Self.rawAnswer(harness, "GET /sandbox/dashboard HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                    + (header.isEmpty ? "" : "Authorization: \(header)\r\n") + "Connection: close\r\n\r\n")
                #expect(answer.hasPrefix("HTTP/1.1 401"), "'\(header)' opened the dashboard")
                let scheme = header.hasPrefix("Bearer") ? "bearer" : "basic"
                #expect(answer.lowercased().contains("www-authenticate: \(scheme) realm=\"chargekit sandbox dashboard\""), "\(answer)")
                #expect(!answer.contains("charges</span>"))
            }
            // A client of the API (URLSession here) with a wrong bearer token gets its 401.
            #expect(try await harness.http.call("GET", "/sandbox/dashboard", token: server).status == 401)
            let bearer = try await harness.http.call("GET", "/sandbox/dashboard", token: harness.merchantKey)
            #expect(bearer.status == 200)
            let page = try await Self.page(harness)
            #expect(page.headers["Content-Security-Policy"]?.contains("default-src 'none'") == true)
            #expect(page.headers["X-Frame-Options"] == "DENY" && page.headers["Cache-Control"] == "no-store")
            #expect(!page.text.contains("<script") && !page.text.contains("src=\"http"), "no script, no external asset")
            let post = try await Self.rawAnswer(harness, "POST /sandbox/dashboard HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                + "Content-Type: \(Self.form)\r\nContent-Length: 22\r\nConnection: close\r\n\r\naction=expire&charge=1")
            #expect(post.hasPrefix("HTTP/1.1 401"), "a post without the key is refused")
        }
    }

    @Test("charges with their status history, IPNs with every attempt, answer and next try")
    func showsChargesAndIPNs() async throws {
        let receiver = try await IPNReceiver.start(script: [500, 500])
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop(); await receiver.stop() }) {
            let server = try await harness.token("server")
            let client = try await harness.token("client")
            let (paid, paidToken) = try await harness.createCharge(server, reference: "order-paid", ipn: receiver.url)
            _ = try await harness.confirm(client, chargeToken: paidToken, returnURL: "myapp://back")
            #expect(try await eventually {
                try await harness.sandbox.server.store.notifications(transactionID: paid).first?.state == .delivered
            })
            let (open, _) = try await harness.createCharge(server, reference: "order-open")
            let text = try await Self.page(harness).text
            #expect(text.contains("order-paid") && text.contains("order-open"))
            let paidIndex = try #require(text.range(of: "order-paid")).lowerBound
            let openIndex = try #require(text.range(of: "order-open")).lowerBound
            #expect(openIndex < paidIndex, "newest first")
            #expect(text.contains("<b>initiated</b>") && text.contains("→ <b>pending</b>"), "status history")
            #expect(text.components(separatedBy: "HTTP 500").count - 1 == 2 && text.contains("HTTP 200"), "every answer")
            #expect(text.contains("#1 ") && text.contains("#2 ") && text.contains("#3 "))
            #expect(text.contains(">delivered</span>"))
            #expect(text.contains("name=\"charge\" value=\"\(open)\""), "the open charge can be expired")
            #expect(text.contains("value=\"resend\""))
            // A listener's forward, reported as upi listen reports it, is shown beside the sandbox's attempts.
            let ipn = try #require(try await harness.sandbox.server.store.notifications(transactionID: paid).first)
            let report = try await harness.http.call("POST", "/v1/ipn-events/\(ipn.id)/forwards", token: harness.merchantKey,
                                                     body: #"{"answer":"HTTP 202","delivered":true}"#)
            #expect(report.status == 200, "\(report.text)")
            let after = try await Self.page(harness).text
            #expect(after.contains("upi listen") && after.contains("HTTP 202"))
            let unknown = try await harness.http.call("POST", "/v1/ipn-events/999999/forwards", token: harness.merchantKey,
                                                      body: #"{"answer":"HTTP 202","delivered":true}"#)
            #expect(unknown.status == 404)
            let withToken = try await harness.http.call("POST", "/v1/ipn-events/\(ipn.id)/forwards", token: server,
                                                        body: #"{"answer":"HTTP 202","delivered":true}"#)
            #expect(withToken.status == 401, "an access token is not the merchant key")
            // A report that would reorder or break what the dashboard and terminals show is refused.
            for hostile in ["HTTP 200 \u{202E}KO", "HTTP 200\u{2028}forged line", "HTTP\u{200B} 200"] {
                let body = try JSONSerialization.data(withJSONObject: ["answer": hostile, "delivered": true])
                let refused = try await harness.http.call("POST", "/v1/ipn-events/\(ipn.id)/forwards", token: harness.merchantKey, data: body)
                #expect(refused.status == 400 && refused.message.contains("answer"), "\(refused.text)")
            }
        }
    }

    @Test("pay, decline and cancel as the wallet would; expire; send an IPN again")
    func actions() async throws {
        let receiver = try await IPNReceiver.start()
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop(); await receiver.stop() }) {
            let server = try await harness.token("server")
            let client = try await harness.token("client")
            var ids: [String: String] = [:]
            for action in ["pay", "decline", "cancel"] {
                let (id, token) = try await harness.createCharge(server, reference: "dash-\(action)", ipn: receiver.url)
                _ = try await harness.confirm(client, chargeToken: token)
                ids[action] = id
                let answer = try await Self.post(harness, "action=\(action)&charge=\(id)")
                #expect(answer.status == 303 && answer.location == "/sandbox/dashboard", "\(action): \(answer.text)")
            }
            var statuses: [CPayStatus?] = []
            for action in ["pay", "decline", "cancel"] {
                statuses.append(try await harness.sandbox.server.store.charge(id: ids[action] ?? "")?.status)
            }
            #expect(statuses == [.succeeded, .failed, .canceled])
            let (unpaid, _) = try await harness.createCharge(server, reference: "dash-expire", ipn: receiver.url)
            #expect(try await Self.post(harness, "action=expire&charge=\(unpaid)").status == 303)
            let expired = try #require(try await harness.sandbox.server.store.charge(id: unpaid))
            #expect(expired.status == .expired && expired.statusHistory.map(\.status) == [.initiated, .expired])
            // Nothing more can happen to a finished charge.
            let again = try await Self.post(harness, "action=expire&charge=\(unpaid)")
            #expect(again.status == 409 && again.text.contains("only an unpaid charge can expire"))
            let late = try await Self.post(harness, "action=pay&charge=\(ids["decline"] ?? "")")
            #expect(late.status == 409, "\(late.text)")
            // Send the paid charge's first IPN again: one more delivery, attempt 2.
            let id = try #require(ids["pay"])
            #expect(try await eventually {
                try await harness.sandbox.server.store.notifications(transactionID: id).allSatisfy { $0.state == .delivered }
            })
            let first = try #require(try await harness.sandbox.server.store.notifications(transactionID: id).first)
            let before = receiver.deliveries.filter { $0.fields?["id"] == id }.count
            #expect(try await Self.post(harness, "action=resend&ipn=\(first.id)").status == 303)
            #expect(await receiver.wait { $0.filter { $0.fields?["id"] == id }.count == before + 1 })
            let resent = try #require(receiver.deliveries.last { $0.fields?["id"] == id })
            #expect(resent.attempt == 2 && resent.fields?["status"] == first.status.rawValue)
            #expect(try await Self.post(harness, "action=resend&ipn=999999").status == 404)
            #expect(try await Self.post(harness, "action=resend&ipn=abc").status == 400)
            #expect(try await Self.post(harness, "action=refund&charge=\(id)").status == 400)
            #expect(try await Self.post(harness, "action=pay").status == 400)
        }
    }

    @Test("a post without the page's token, or from another site, changes nothing")
    func forgery() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            let server = try await harness.token("server")
            let (id, _) = try await harness.createCharge(server, reference: "dash-forgery")
            let valid = try #require(HeadlessWallet.formToken(in: try await Self.page(harness).text))
            let walletToken = try #require(HeadlessWallet.formToken(in: try await harness.http.call("GET", harness.walletPath(id)).text))
            for (token, headers) in [("", [:]), (String(repeating: "0", count: valid.count), [:]), (walletToken, [:]),
                                     (valid, ["Origin": "https://evil.example"]), (valid, ["Sec-Fetch-Site": "cross-site"])] {
                let answer = try await Self.post(harness, "action=expire&charge=\(id)", token: token, headers: headers)
                #expect(answer.status == 403, "\(headers) \(token.prefix(6)): \(answer.status)")
            }
            #expect(try await harness.sandbox.server.store.charge(id: id)?.status == .initiated)
            let big = try await Self.post(harness, "action=expire&charge=\(id)&pad=" + String(repeating: "x", count: 5000), token: valid)
            #expect(big.status == 413)
        }
    }

    @Test("every stored value is escaped")
    func escaping() async throws {
        let hostile = "<img src=x onerror=alert(1)>\"'&"
        let harness = try await Harness.start { $0.merchantName = "<script>alert('m')</script>" }
        try await withCleanup({ await harness.stop() }) {
            var urls = CPayUrls()
            urls.ipn = "http://127.0.0.1:9/\"><script>alert(2)</script>"
            let record = ChargeRecord(id: "1234567890123456789", chargeToken: "ct-hostile", reference: hostile, amount: 5,
                                      currency: "USD", country: "US", autoCapture: false, note: "", method: "<b>m</b>",
                                      status: .initiated, urls: urls, returnURL: nil, timeCreated: 1000, expiresAt: .max)
            try await harness.sandbox.server.store.insertCharge(record)
            _ = try await harness.sandbox.server.store.updateCharge(id: record.id, reference: nil, now: 2000) { $0.status = .pending }
            let text = try await Self.page(harness).text
            #expect(!text.contains("<img") && !text.contains("<script") && !text.contains("<b>m</b>"))
            #expect(text.contains("&lt;img src=x onerror=alert(1)&gt;&quot;&#39;&amp;"))
            #expect(text.contains("&lt;script&gt;alert(&#39;m&#39;)&lt;/script&gt;"))
        }
    }
}

