import ChargeKit
@testable import CitconSandbox
import Foundation
import ProcessSupport
import Synchronization
import Testing
import ToolsPlatform

/// The fourth round of attacks on the sandbox, each against the real process where the
/// flaw was a process's (a debug build, as the README runs it).
@Suite("Fourth round of attacks", .serialized)
struct FourthRoundTests {
    /// Every route whose request has a body (the OpenAPI document's `requestBody`s), with
    /// the credential it takes, so that the route itself reads the body.
    static func bodyRoutes(key: String, server: String, client: String, chargeToken: String) -> [(path: String, credential: String?)] {
        [("/v1/access-tokens", key), ("/v1/charges", server), ("/v1/charges/\(chargeToken)", client), ("/v1/captures", server),
         ("/v1/refunds", server), ("/v1/cancels", server), ("/v1/ipn-events/1/forwards", key), ("/sandbox/clock", key),
         ("/sandbox/wallet/made-up", nil), ("/sandbox/dashboard", key), ("/apps/open", nil)]
    }

    @Test("C1: a body cut short, or slower than --request-timeout, on every route that reads one: the sandbox answers the next request")
    func cutAndSlowBodiesNeverStopTheSandbox() async throws {
        let folder = try Harness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ServerProcess(arguments: ["sandbox", "serve", "--port", "0", "--db", folder.path + "/s.sqlite",
                                                   "--request-timeout", "1"])
        defer { server.signal(SIGKILL) }
        let (base, key) = try await server.started()
        let port = try #require(URL(string: base)?.port)
        let http = HTTP(base: base)
        func token(_ type: String) async throws -> String {
            let answer = try await http.call("POST", "/v1/access-tokens", token: key, body: #"{"token_type":"\#(type)"}"#)
            return try #require(answer.data?["access_token"] as? String, "\(answer.text)")
        }
        let serverToken = try await token("server")
        let clientToken = try await token("client")
        let created = try await http.call("POST", "/v1/charges", token: serverToken, body: Harness.chargeBody(reference: "cut-1"))
        let chargeToken = try #require(created.data?["charge_token"] as? String, "\(created.text)")
        for (path, credential) in Self.bodyRoutes(key: key, server: serverToken, client: clientToken, chargeToken: chargeToken) {
            for slow in [false, true] {
                let socket = try RawSocket.connect(port: port)
                // Content-Length 100, ten bytes sent: then closed, or left hanging past the timeout.
                let authorization = credential.map { "Authorization: Bearer \($0)\r\n" } ?? ""
                let head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n\(authorization)Content-Type: application/json\r\n"
                    + "Content-Length: 100\r\n\r\n{\"a\":\"bcd\""
                #expect(socket.send(Data(head.utf8)))
                if slow {
                    // Past the timeout: answered, or the connection closed.
                    let answer = await offPool { socket.receive(timeout: .seconds(5)) }
                    #expect(!answer.data.isEmpty || answer.closed, "\(path): neither answered nor closed")
                }
                shutdown(socket.descriptor, Int32(SHUT_RDWR))
                let health = try await HTTP(base: base).call("GET", "/v1/health")
                #expect(health.status == 200, "\(path) (\(slow ? "slow" : "cut")): the sandbox stopped answering: \(server.child.stderr.suffix(400))")
                guard health.status == 200 else { return }
            }
        }
        #expect(server.child.status == nil, "the sandbox exited")
    }

    /// One request from a loopback address of its own; the answer's status.
    static func status(port: Int, from source: String, _ request: String) async -> Int {
        await offPool {
            guard let socket = try? RawSocket.connect(port: port, from: source), socket.send(Data(request.utf8)) else { return 0 }
            let answer = String(decoding: socket.receive(timeout: .seconds(10), until: RawSocket.isWholeRequest).data, as: UTF8.self)
            return Int(answer.dropFirst("HTTP/1.1 ".count).prefix(3)) ?? 0
        }
    }

    static func tokenRequest(_ key: String) -> String {
        let body = #"{"token_type":"server"}"#
        return "POST /v1/access-tokens HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(key)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
    }

    @Test("T1: ten made-up keys from one address do not keep the merchant's right key, from another, out")
    func guessesFromOneAddressDoNotLockTheMerchantOut() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            let port = try #require(URL(string: harness.sandbox.info.baseURL)?.port)
            for guess in 0..<(FailureThrottle.allowedFailures + 5) {
                let status = await Self.status(port: port, from: "127.0.0.2", Self.tokenRequest("made-up-key-\(guess)-0123456789"))
                #expect(status == 401 || status == 429, "\(status)")
            }
            // The merchant, from another address: checked at once, answered at once.
            #expect(await Self.status(port: port, from: "127.0.0.3", Self.tokenRequest(harness.merchantKey)) == 200)
            // The guesser's address is refused outright, its next guess unchecked.
            #expect(await Self.status(port: port, from: "127.0.0.2", Self.tokenRequest("made-up-key-x-0123456789")) == 429)
            // The operator is told.
            let dashboard = try await harness.http.call("GET", "/sandbox/dashboard", token: harness.merchantKey)
            #expect(dashboard.status == 200 && dashboard.text.contains("wrong merchant keys in the last minute"), "\(dashboard.status)")
        }
    }

    @Test("T1: a thousand wrong keys spread over many addresses get at most the budget's verdicts a window; the right key always passes")
    func spreadGuessesGetTheBudgetOnly() async throws {
        let now = Mutex<Int64>(1_000_000)
        let throttle = FailureThrottle(store: InMemorySandboxStore(), clock: SandboxClock(real: { now.withLock { $0 } }))
        let key = "sk_test_the_right_key_0123"
        func attempt(_ presented: String, from address: String) async -> Int {
            do {
                try await throttle.guarded(authorization: presented, address: address) {
                    guard presented == key else { throw APIError(.unauthorized, "Authorization: wrong key") }
                }
                return 200
            } catch let error as APIError {
                return error.httpStatus
            } catch {
                return 500
            }
        }
        var verdicts = 0
        for guess in 0..<1000 {
            let status = await attempt("guess-\(guess)", from: "127.0.\(guess % 250).\(1 + guess / 250)")
            if status == 401 { verdicts += 1 }
            #expect(status == 401 || status == 429)
            if guess % 100 == 0 { #expect(await attempt(key, from: "127.1.0.\(guess / 100)") == 200, "the right key was refused") }
        }
        #expect(verdicts <= FailureThrottle.allowedFailures, "\(verdicts) wrong-key verdicts in one window")
        // A new window: the budget again, no more.
        now.withLock { $0 += FailureThrottle.window.milliseconds + 1 }
        var next = 0
        for guess in 0..<100 where await attempt("again-\(guess)", from: "10.0.\(guess).1") == 401 { next += 1 }
        #expect(next == FailureThrottle.allowedFailures)
        // An IPv6 client is one /64.
        #expect(FailureThrottle.addressKey("2001:db8:1:2:aaaa::1") == FailureThrottle.addressKey("2001:db8:1:2:bbbb::9"))
        #expect(FailureThrottle.addressKey("2001:db8:1:2::1") != FailureThrottle.addressKey("2001:db8:1:3::1"))
        #expect(FailureThrottle.addressKey("::ffff:192.0.2.7") == "192.0.2.7")
    }

    @Test("The request log masks by meaning: names in any case or separator, card numbers anywhere, URL parameters; a body not UTF-8 is its size only")
    func theRequestLogMasksByMeaning() throws {
        let body = #"{"accessToken":"abcdefghijklmnopqrstuvwx","apiKey":"sk_live_0123456789abcdef","Access-Token":"zyxwvutsrqponmlkjihg","#
            + #""note":"card 4111 1111 1111 1111 and 5500005555555559","id":"1732000000000123456","#
            + #""urls":{"success":"https://shop.example/ok?accessToken=secretvalue0123456&order=7"},"token_type":"server"}"#
        let masked = RequestJournal.masked(Data(body.utf8)) ?? ""
        for secret in ["abcdefghijklmnopqrstuvwx", "sk_live_0123456789abcdef", "zyxwvutsrqponmlkjihg", "4111 1111 1111 1111",
                       "5500005555555559", "secretvalue0123456"] {
            #expect(!masked.contains(secret), "\(secret) kept: \(masked)")
        }
        #expect(masked.contains("411111******1111") && masked.contains("550000******5559"), "\(masked)")
        // A name or a number written with JSON escapes reads the same to the sandbox: masked alike.
        let escaped = #"{"access\u005fToken":"qwertyuiopasdfghjklzx","note":"411\u00311111 1111 1111","path":"C:\\u0031"}"#
        let maskedEscaped = RequestJournal.masked(Data(escaped.utf8)) ?? ""
        #expect(!maskedEscaped.contains("qwertyuiopasdfghjklzx") && maskedEscaped.contains("411111******1111"), "\(maskedEscaped)")
        #expect(maskedEscaped.contains(#""C:\\u0031""#), "an escaped backslash before a u is kept: \(maskedEscaped)")
        // A body cut inside an escape keeps what it has.
        for cut in [#"{"n":"\u00"#, #"{"n":"\u003"#, #"{"n":"\"#, #"{"n":"\u00zz""#] {
            #expect(RequestJournal.plainEscapes(cut) == cut, "\(cut)")
        }
        #expect(masked.contains("1732000000000123456") && masked.contains(#""token_type":"server""#) && masked.contains("order=7"),
                "ids, token types and other parameters stay: \(masked)")
        // UTF-16 JSON cannot be read to be masked: only its size is kept.
        let utf16 = try #require(#"{"access_token":"abcdefghijklmnop"}"#.data(using: .utf16LittleEndian))
        #expect(RequestJournal.masked(utf16) == "(\(utf16.count) bytes, not UTF-8 text: not kept)")
    }

    @Test("A1: an app's own scheme and a plain https URL stay redirect targets; the app page's buttons say where they answer")
    func appSchemesStayAndButtonsShowWhereTheyGo() async throws {
        for url in ["my-shop://paid", "com.example.shop://result?x=1", "https://shop.example/ok", "http://127.0.0.1:8080/back"] {
            #expect(SandboxAPI.isSafeRedirect(url), "\(url)")
        }
        // User information or a backslash (which a browser reads as a slash) hidden behind a
        // combining mark: one Character that equals neither, but the same byte to a browser.
        for url in ["https://shop.example@\u{301}evil.example/", "https://evil.example\\\u{301}.shop.example/",
                    "https://shop.example\u{301}@evil.example/"] {
            #expect(!SandboxAPI.isSafeRedirect(url), "\(url.unicodeScalars.map { $0.value })")
        }
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            for (_, request) in try await AppSimulatorTests.requests(ChargeLedger()) {
                let page = try await AppSimulatorTests.page(harness, request)
                #expect(page.status == 200, "\(page.text.prefix(300))")
                let expected = request.contains("shop.example") ? "answers on https://shop.example/paid" : "answers on my-app://done"
                #expect(page.text.contains(expected), "\(request.prefix(30)): \(page.text.prefix(1500))")
            }
        }
    }

    @Test("H1: one address holding its share of the connections (and more) leaves another address answered at once; beyond its share, 503 and closed")
    func oneClientCannotHoldEveryConnection() async throws {
        let folder = try Harness.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let server = try ServerProcess(arguments: ["sandbox", "serve", "--port", "0", "--db", folder.path + "/s.sqlite",
                                                   "--max-connections", "20", "--request-timeout", "30"])
        defer { server.signal(SIGKILL) }
        let (base, _) = try await server.started()
        let port = try #require(URL(string: base)?.port)
        // Every connection --max-connections allows, from one address, sending nothing.
        let held = (0..<20).compactMap { _ in try? RawSocket.connect(port: port, from: "127.0.0.2") }
        #expect(held.count == 20)
        try await Task.sleep(nanoseconds: 300_000_000)
        // Beyond its share, a request from that address is answered 503 and closed.
        let extra = try RawSocket.connect(port: port, from: "127.0.0.2")
        let refused = await offPool { () -> (String, Bool) in
            extra.send(Data("GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
            let answer = extra.receive(timeout: .seconds(5))
            return (String(decoding: answer.data, as: UTF8.self), answer.closed)
        }
        #expect(refused.0.hasPrefix("HTTP/1.1 503") && refused.0.lowercased().contains("connection: close") && refused.1, "\(refused.0.prefix(200))")
        // Another address is answered (before: it waited in the listen queue until the
        // held connections' 30 s timeout, past this read's 10 s).
        let status = await Self.status(port: port, from: "127.0.0.3", "GET /v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        #expect(status == 200)
        withExtendedLifetime(held) {}
    }

    @Test("The operator resets the sandbox's clock (merchant key only), for every instance of a shared sandbox")
    func theClockCanBeReset() async throws {
        let a = try await Harness.start()
        let b = try await Harness.start(directory: a.directory, database: a.database)
        try await withCleanup({ await b.stop(removing: false); await a.stop() }) {
            let advanced = try await a.http.call("POST", "/sandbox/clock", token: a.merchantKey, body: #"{"advance_seconds":7200}"#)
            #expect(advanced.status == 200 && advanced.data?["offset_seconds"] as? Int == 7200, "\(advanced.text)")
            await b.sandbox.server.api.clock.refresh(from: b.sandbox.server.store)
            #expect(b.sandbox.server.api.clock.offsetMilliseconds == 7_200_000)
            #expect(try await a.http.call("DELETE", "/sandbox/clock", data: nil).status == 401)
            #expect(try await a.http.call("DELETE", "/sandbox/clock", token: "not-the-key-0123456789", data: nil).status == 401)
            let reset = try await a.http.call("DELETE", "/sandbox/clock", token: a.merchantKey, data: nil)
            #expect(reset.status == 200 && reset.data?["offset_seconds"] as? Int == 0, "\(reset.text)")
            // The other instance takes the reset as it is (a move forward it takes only forward).
            await b.sandbox.server.api.clock.refresh(from: b.sandbox.server.store)
            #expect(b.sandbox.server.api.clock.offsetMilliseconds == 0)
        }
    }

    @Test("--base-url https:// to a plain server fails at once, saying the server speaks plain HTTP")
    func tlsToAPlainServerFailsAtOnce() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            let plain = harness.sandbox.info.baseURL
            let https = "https://" + plain.dropFirst("http://".count) + "/v1"
            let child = try Child(ServerProcess.executable.path, ["upi", "token", "--base-url", https, "--key", harness.merchantKey])
            // Before: the handshake was tried again for about ten seconds.
            DispatchQueue.global().asyncAfter(deadline: .now() + 6) { child.signal(SIGKILL) }
            let exit = await offPool { child.wait() }
            #expect(!exit.signaled, "still trying after 6 s")
            #expect(exit.status != 0)
            #expect(child.stderr.contains("TLS handshake failed") && child.stderr.contains("http://"), "\(child.stderr)")
        }
    }
}
