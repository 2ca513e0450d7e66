#if PostgreSQL
import CitconSandboxPostgres
#endif
import CitconSandboxTesting
@_spi(Tools) import CitconUPI
import Foundation
import Synchronization
import Testing
@testable import CitconSandbox

/// The second security round (issue 37): each attack as it was reproduced, refused.
@Suite("second security round")
struct SecondSecurityRoundTests {
    static let form = "application/x-www-form-urlencoded"

    @Test("an IPN URL whose port is out of range is refused at create, naming urls.ipn",
          arguments: ["http://127.0.0.1:65536/", "http://127.0.0.1:99999/", "http://127.0.0.1:4294967297/", "http://[::1]:70000/"])
    func ipnPortOutOfRange(url: String) async throws {
        try await Harness.router { harness in
            let server = try await harness.token("server")
            let answer = try await harness.http.call("POST", "/v1/charges", token: server,
                                                     body: Harness.chargeBody(reference: "port-\(UUID().uuidString)", ipn: url))
            #expect(answer.status == 400 && answer.code == "4000")
            #expect(answer.message.hasPrefix("urls.ipn:"), "\(answer.message)")
        }
    }

    @Test("a stored IPN row with a port out of range is dead-lettered, never a trap")
    func storedRowWithBadPort() async {
        let poster = IPNPost(timeout: .seconds(1), loopbackOnly: true)
        for url in ["http://127.0.0.1:65536/", "http://[::1]:70000/", "http://127.0.0.1:0/"] {
            let outcome = await poster.post(Data("{}".utf8), to: url, headers: [])
            guard case .failure(let failure) = outcome else {
                Issue.record("\(url) was delivered")
                continue
            }
            #expect(failure.isPermanent, "\(url): \(failure.reason)")
        }
    }

    @Test("a body that names a member twice is refused, naming it")
    func repeatedMembers() async throws {
        try await Harness.router { harness in
            let server = try await harness.token("server")
            let (id, _) = try await harness.createCharge(server)
            let refund = try await harness.http.call("POST", "/v1/refunds", token: server,
                                                     body: #"{"transaction_id":"\#(id)","reference":"r-\#(UUID().uuidString)","transaction_id":"1"}"#)
            #expect(refund.code == "4000" && refund.message.hasPrefix("transaction_id:"), "\(refund.message)")
            let nested = try await harness.http.call("POST", "/v1/charges", token: server, body: """
                {"transaction":{"reference":"dup-\(UUID().uuidString)","amount":1,"amount":100000,"currency":"USD","country":"US"}}
                """)
            #expect(nested.code == "4000" && nested.message.hasPrefix("transaction.amount:"), "\(nested.message)")
        }
        #expect(RepeatedJSONNames.first(in: Data(#"{"st\u0061tus":"a","status":"b"}"#.utf8)) == "status")
        #expect(RepeatedJSONNames.first(in: Data(#"{"a":[{"b":1},{"b":2,"b":3}]}"#.utf8)) == "a[1].b")
        #expect(RepeatedJSONNames.first(in: Data(#"{"a":{"b":1},"c":{"b":2}}"#.utf8)) == nil)
    }

    @Test("fields that contradict each other or the charge are refused, naming the field")
    func contradictions() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            let server = try await harness.token("server")
            let client = try await harness.token("client")
            let (paid, token) = try await harness.createCharge(server, method: "alipay")
            _ = try await harness.confirm(client, chargeToken: token, method: "alipay")
            #expect(try await harness.wallet(paid, "pay").status == 303)
            let (other, _) = try await harness.createCharge(server)
            let yen = try await harness.http.call("POST", "/v1/refunds", token: server,
                                                  body: #"{"id":"\#(paid)","reference":"r-\#(UUID().uuidString)","amount":100,"currency":"JPY"}"#)
            #expect(yen.code == "4000" && yen.message.hasPrefix("currency:"), "\(yen.message)")
            let twoCharges = try await harness.http.call("POST", "/v1/refunds", token: server,
                                                         body: #"{"id":"\#(paid)","transaction_id":"\#(other)","reference":"r-\#(UUID().uuidString)"}"#)
            #expect(twoCharges.code == "4000" && twoCharges.message.hasPrefix("id:"), "\(twoCharges.message)")
            let cancel = try await harness.http.call("POST", "/v1/cancels", token: server,
                                                     body: #"{"id":"\#(other)","reference":"c-\#(UUID().uuidString)","transaction_reference":"not-it"}"#)
            #expect(cancel.code == "4000" && cancel.message.hasPrefix("transaction_reference:"), "\(cancel.message)")
            // Nothing moved.
            #expect(try await harness.inquire(server, paid).data?["amount_refunded"] as? Int ?? 0 == 0)
            #expect(try await harness.inquire(server, other).data?["status"] as? String == "initiated")
            // Agreeing fields still work.
            let usd = try await harness.http.call("POST", "/v1/refunds", token: server,
                                                  body: #"{"id":"\#(paid)","reference":"r-\#(UUID().uuidString)","currency":"USD"}"#)
            #expect(usd.status == 200, "\(usd.text)")
        }
    }

    @Test("the wallet refuses a bare id: its links carry a capability")
    func walletCapability() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            let server = try await harness.token("server")
            let created = try await harness.http.call("POST", "/v1/charges", token: server,
                                                      body: Harness.chargeBody(reference: "cap-\(UUID().uuidString)"))
            let id = try #require(created.data?["id"] as? String)
            let clients = try #require((created.data?["payment"] as? [String: Any])?["client"] as? [[String: Any]])
            for link in clients.compactMap({ $0["content"] as? String }) {
                #expect(link.contains("?k="), "\(link)")
                #expect(try await harness.http.call("GET", String(link.dropFirst(harness.sandbox.info.baseURL.count))).status == 200)
            }
            for path in ["/sandbox/wallet/\(id)", "/sandbox/qr/\(id)", "/sandbox/wallet/\(id)?k=", "/sandbox/wallet/\(id)?k=0000"] {
                #expect(try await harness.http.call("GET", path).status == 404, "\(path)")
            }
            // A neighbour's capability opens only the neighbour.
            let (neighbour, _) = try await harness.createCharge(server)
            let foreign = harness.walletPath(neighbour).replacingOccurrences(of: neighbour, with: id)
            #expect(try await harness.http.call("GET", foreign).status == 404)
            let cancel = try await harness.http.call("POST", "/sandbox/wallet/\(id)", data: Data("action=cancel".utf8), contentType: Self.form)
            #expect(cancel.status == 404)
            #expect(try await harness.inquire(server, id).data?["status"] as? String == "initiated")
        }
    }

    @Test("operating-system handler schemes (Windows', Apple's, Android's), http(s) with user information and return URLs that carry charge_id or status are refused",
          arguments: ["search-ms:query=x", "ms-msdt:/id", "ms-settings:privacy", "shell:startup", "ftp://host/x", "jar:http://h/x!/",
                      "https://shop.example/ok?charge_id=1", "https://shop.example/ok?a=1&status=succeeded", "app://back?%73tatus=x",
                      // The fourth round's (A1): iOS's and Android's own handlers, user information.
                      "itms-services://?action=download-manifest&url=https://evil.example/m.plist", "itms-apps://apps.apple.com/app/id1",
                      "x-apple-systempreferences:com.apple.preference", "x-apple-health://", "intent://scan/#Intent;scheme=zxing;end",
                      "market://details?id=x", "prefs:root=General", "tel:+15550100", "sms:+15550100",
                      "https://user:password@shop.example/ok", "https://shop.example@evil.example/ok",
                      // An @ or a backslash followed by a combining mark is one Character, equal to neither.
                      "https://shop.example@\u{301}evil.example/ok"])
    func redirects(url: String) async throws {
        try await Harness.router { harness in
            let server = try await harness.token("server")
            let client = try await harness.token("client")
            let body = """
                {"transaction":{"reference":"redir-\(UUID().uuidString)","amount":1,"currency":"USD","country":"US"},"urls":{"success":"\(url)"}}
                """
            let created = try await harness.http.call("POST", "/v1/charges", token: server, body: body)
            #expect(created.code == "4000" && created.message.hasPrefix("urls.success:"), "\(created.message)")
            let (_, token) = try await harness.createCharge(server)
            let confirmed = try await harness.confirm(client, chargeToken: token, returnURL: url)
            #expect(confirmed.code == "4000" && confirmed.message.hasPrefix("return_url:"), "\(confirmed.message)")
        }
    }

    @Test("short merchant keys and IPN secrets are refused; repeated failures are throttled; tokens are never cached")
    func keysAndThrottle() async throws {
        let shortKey = await #expect(throws: (any Error).self) { _ = try await Harness.start { $0.merchantKey = "sk" } }
        #expect("\(shortKey.map { "\($0)" } ?? "")".contains("merchantKey: must be at least 16 characters"))
        let shortSecret = await #expect(throws: (any Error).self) { _ = try await Harness.start { $0.ipnSecret = "short-secret" } }
        #expect("\(shortSecret.map { "\($0)" } ?? "")".contains("ipnSecret"))
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            let good = try await harness.http.call("POST", "/v1/access-tokens", token: harness.merchantKey, body: #"{"token_type":"server"}"#)
            #expect(good.status == 200 && good.headers["Cache-Control"] == "no-store")
            // A browser's first, credential-less request for the dashboard is no guess. (Raw:
            // URLSession on Linux answers a Basic challenge by itself and never returns.)
            let port = try #require(URL(string: harness.sandbox.info.baseURL)?.port)
            for _ in 0...FailureThrottle.allowedFailures {
                let answer = await offPool { () -> String in
                    guard let socket = try? RawSocket.connect(port: port),
                          socket.send(Data("GET /sandbox/dashboard HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8)) else { return "" }
                    return String(decoding: socket.receive(timeout: .seconds(10), until: RawSocket.isWholeRequest).data, as: UTF8.self)
                }
                #expect(answer.hasPrefix("HTTP/1.1 401"), "\(answer.prefix(40))")
            }
            for guess in 0..<FailureThrottle.allowedFailures {
                let wrong = try await harness.http.call("POST", "/v1/access-tokens", token: "guess-\(guess)", body: #"{"token_type":"server"}"#)
                #expect(wrong.status == 401)
            }
            // This address guessed: it is refused outright, its right key too (every
            // client here is 127.0.0.1); the dashboard says the key is being guessed.
            let throttled = try await harness.http.call("POST", "/v1/access-tokens", token: harness.merchantKey, body: #"{"token_type":"server"}"#)
            #expect(throttled.status == 429 && throttled.code == "4290" && throttled.message.contains("your address"), "\(throttled.text)")
            let dashboard = try await harness.http.call("GET", "/sandbox/dashboard", token: harness.merchantKey)
            #expect(dashboard.status == 429)
        }
        // The window slides: old failures stop counting.
        let now = Mutex<Int64>(1_000_000)
        let throttle = FailureThrottle(store: InMemorySandboxStore(), clock: SandboxClock(real: { now.withLock { $0 } }))
        for _ in 0..<FailureThrottle.allowedFailuresPerAddress { try await throttle.recordFailure(from: "192.0.2.1") }
        await #expect(throws: APIError.self) { try await throttle.guarded(authorization: "k", address: "192.0.2.1") { () } }
        now.withLock { $0 += FailureThrottle.window.milliseconds + 1000 }
        try await throttle.guarded(authorization: "k", address: "192.0.2.1") { () }
    }

    @Test("wrong merchant keys are counted for the merchant across instances: ten spread over two instances throttle both")
    func throttleAcrossInstances() async throws {
        let a = try await Harness.start()
        let b = try await Harness.start(directory: a.directory, database: a.database)
        try await withCleanup({ await b.stop(removing: false); await a.stop() }) {
            for guess in 0..<FailureThrottle.allowedFailures {
                let instance = guess.isMultiple(of: 2) ? a : b
                let wrong = try await instance.http.call("POST", "/v1/access-tokens", token: "guess-\(guess)-0123456789", body: #"{"token_type":"server"}"#)
                #expect(wrong.status == 401, "\(wrong.text)")
            }
            // Ten are the budget: the eleventh wrong key, on either instance, gets no verdict.
            for instance in [a, b] {
                let throttled = try await instance.http.call("POST", "/v1/access-tokens", token: "guess-more-0123456789", body: #"{"token_type":"server"}"#)
                #expect(throttled.status == 429 && throttled.code == "4290", "\(throttled.text)")
            }
            // The sandbox's clock moves past the window (with the key, through the API's
            // clock rather than the throttled route): the key works again on both.
            _ = try await a.sandbox.server.api.clock.advance(seconds: 61, in: a.sandbox.server.store)
            await b.sandbox.server.api.clock.refresh(from: b.sandbox.server.store)
            for instance in [a, b] {
                #expect(try await instance.http.call("POST", "/v1/access-tokens", token: a.merchantKey, body: #"{"token_type":"server"}"#).status == 200)
            }
        }
    }

    @Test("a post made under no-referrer (Origin: null) or from another site is refused; the pages ask for same-origin")
    func originNull() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            let server = try await harness.token("server")
            let (id, _) = try await harness.createCharge(server)
            let page = try await harness.http.call("GET", harness.walletPath(id))
            #expect(page.headers["Referrer-Policy"] == "same-origin")
            let token = try #require(HeadlessWallet.formToken(in: page.text))
            for origin in ["null", "https://evil.example"] {
                let post = try await harness.http.call("POST", harness.walletPath(id), data: Data("form_token=\(token)&action=pay".utf8),
                                                       contentType: Self.form, headers: ["Origin": origin])
                #expect(post.status == 403, "\(origin)")
            }
            #expect(try await harness.inquire(server, id).data?["status"] as? String == "initiated")
        }
    }

    @Test("GET / names the sandbox and links the dashboard, the OpenAPI document and the guide")
    func landingPage() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            let page = try await harness.http.call("GET", "/")
            #expect(page.status == 200 && page.headers["Content-Type"]?.hasPrefix("text/html") == true)
            for link in [#"href="/sandbox/dashboard""#, #"href="/openapi.yaml""#, #"href="/docs/running-the-sandbox.md""#, "/v1/access-tokens"] {
                #expect(page.text.contains(link), "\(link)")
            }
            let guide = try await harness.http.call("GET", "/docs/running-the-sandbox.md")
            #expect(guide.status == 200 && guide.text.contains("# Running the sandbox"))
        }
    }

    #if PostgreSQL
    @Test("a merchant-key rotation on one instance revokes the tokens another instance had cached",
          .enabled(if: Harness.postgresURL != nil, Harness.postgresSkipped))
    func rotationAcrossInstances() async throws {
        let url = try #require(Harness.postgresURL)
        let prefix = "rot" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(10) + "_"
        var configuration = SandboxConfiguration()
        configuration.port = 0
        configuration.merchantKey = "sk_rotation_old_0123456789"
        let storeA = try PostgresSandboxStore(url: url, tablePrefix: prefix, connectTimeout: .seconds(60))
        let a = try await RunningSandbox.start(configuration, store: storeA)
        let storeB = try PostgresSandboxStore(url: url, tablePrefix: prefix, connectTimeout: .seconds(60))
        var b: RunningSandbox?
        try await withCleanup({ await a.stop(); await b?.stop(); storeA.close(); storeB.close() }) {
            let http = HTTP(base: a.info.baseURL)
            let issued = try await http.call("POST", "/v1/access-tokens", token: "sk_rotation_old_0123456789", body: #"{"token_type":"server"}"#)
            let token = try #require(issued.data?["access_token"] as? String)
            #expect(try await http.call("GET", "/v1/transactions/1234567890123456789", token: token).status == 404, "the token works on A")
            configuration.merchantKey = "sk_rotation_new_0123456789"
            b = try await RunningSandbox.start(configuration, store: storeB)
            let revoked = await eventually(.seconds(5)) {
                (try? await http.call("GET", "/v1/transactions/1234567890123456789", token: token).status) == 401
            }
            #expect(revoked, "A still honours a token of the rotated key")
        }
    }
    #endif
}
