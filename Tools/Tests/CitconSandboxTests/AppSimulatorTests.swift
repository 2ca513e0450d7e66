@_spi(Tools) import ChargeKit
import ChargeKitSimulators
import CitconSandbox
import CitconSandboxTesting
import Foundation
import Testing

/// `/apps/open`: the payment apps played in a browser, as a phone reaches them
/// through ``SandboxAppOpener``. Posts go over a raw socket, so that the `303` and
/// its `Location` are read as sent (a custom scheme is not followed).
@Suite("Simulated payment apps in the browser")
struct AppSimulatorTests {
    /// A hand-off to each protocol of each registered app (in its sample currency,
    /// answering on an https URL for one app and an app's scheme for the others),
    /// recorded in `ledger`.
    static func requests(_ ledger: ChargeLedger) async throws -> [(PaymentProvider, String)] {
        var requests: [(PaymentProvider, String)] = []
        for (index, simulator) in SimulatedApps.registered.enumerated() {
            let callbackURL = index == 1 ? "https://shop.example/paid" : "my-app://done"
            for app in simulator.sampleApps(callbackURL: callbackURL) {
                let order = ChargeOrder(amount: Money(minorUnits: 1250, currency: simulator.sampleCurrency), description: "Flat white", reference: "order-9")
                let (_, request) = try await ledger.issue { nonce throws(ChargeKitError) in try app.handoff(for: order, nonce: nonce) }
                requests.append((app.provider, request.url))
            }
        }
        return requests
    }

    /// The page for `url`, as the opener sends the phone to it.
    static func page(_ harness: Harness, _ url: String) async throws -> HTTPAnswer {
        let target = try SandboxAppOpener(page: try #require(URL(string: harness.http.base + "/apps/open")), opening: ClosureURLOpener { _ in })
            .simulatorURL(for: url)
        return try await harness.http.call("GET", String(target.dropFirst(harness.http.base.count)))
    }

    /// Posts the page's form with `fields`, as the browser does (its own origin).
    static func post(_ harness: Harness, _ fields: [(String, String)], origin: String? = nil) async throws -> String {
        let body = fields.map { "\($0.0)=\(PercentEncoding.encode($0.1))" }.joined(separator: "&")
        let host = try #require(URL(string: harness.http.base)?.port)
        return try await DashboardTests.rawAnswer(harness, "POST /apps/open HTTP/1.1\r\nHost: 127.0.0.1:\(host)\r\n"
            + "Content-Type: application/x-www-form-urlencoded\r\nOrigin: \(origin ?? harness.http.base)\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
    }

    static func location(_ answer: String) -> String? {
        answer.split(separator: "\r\n").first { $0.lowercased().hasPrefix("location: ") }.map { String($0.dropFirst(10)) }
    }

    @Test("each app's request: its page, then the approved button's 303 to the callback the ledger verifies")
    func eachAppApprovedThroughTheLedger() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            let ledger = ChargeLedger()
            for (provider, url) in try await Self.requests(ledger) {
                let page = try await Self.page(harness, url)
                #expect(page.status == 200, "\(provider): \(page.text)")
                #expect(page.text.contains("<h1 id=\"app\">\(provider.displayName)</h1>"), "\(provider)")
                // The description where the app shows one.
                let shown = try SimulatedApps.summary(of: url)
                #expect(page.text.contains("12.50") && (shown.description == nil || page.text.contains("Flat white")), "\(provider)")
                for scenario in Scenario.catalog(for: provider) {
                    #expect(page.text.contains("name=\"scenario\" value=\"\(scenario.name)\""), "\(provider): \(scenario.name)")
                }
                let token = try #require(HeadlessWallet.formToken(in: page.text))
                let answer = try await Self.post(harness, [("form_token", token), ("url", url), ("scenario", "approved")])
                #expect(answer.hasPrefix("HTTP/1.1 303"), "\(answer)")
                let callback = try #require(Self.location(answer))
                let result = try await ledger.verify(url: callback)
                #expect(result.outcome == .approved && result.provider == provider)
            }
        }
    }

    @Test("a scenario of each kind: an error code, no callback, the same callback twice")
    func scenarios() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            let ledger = ChargeLedger()
            let requests = try await Self.requests(ledger)
            let firstURL = try #require(requests.first).1
            let token = try #require(HeadlessWallet.formToken(in: try await Self.page(harness, firstURL).text))
            // Each app's first scenario of its own that is no approval (an error code, a decline),
            // played on one request of each app but the first.
            var answered = 0
            for (provider, url) in requests.dropFirst() where requests.first(where: { $0.0 == provider })?.1 == url {
                let simulator = try #require(SimulatedApps.simulator(of: provider))
                let scenario = try #require(simulator.scenarios.first { $0.outcome != nil && $0.outcome != .approved }, "\(provider)")
                let failed = try await Self.post(harness, [("form_token", token), ("url", url), ("scenario", scenario.name)])
                let result = try await ledger.verify(url: try #require(Self.location(failed), "\(provider) \(scenario.name): \(failed.prefix(300))"))
                #expect(result.outcome != .approved && result.outcome == simulator.outcome(of: scenario, answering: url), "\(provider) \(scenario.name)")
                answered += 1
            }
            #expect(answered == PaymentProvider.allCases.count - 1)

            let first = try #require(requests.first).1
            let none = try await Self.post(harness, [("form_token", token), ("url", first), ("scenario", "no-callback")])
            #expect(none.hasPrefix("HTTP/1.1 200") && none.contains("id=\"played\"") && Self.location(none) == nil)
            #expect(try await ledger.outstanding().count == requests.count - answered)
            let twice = try await Self.post(harness, [("form_token", token), ("url", first), ("scenario", "duplicate-callback")])
            let link = try #require(twice.range(of: "href=\"")).upperBound
            let href = String(twice[link...].prefix { $0 != "\"" }).replacingOccurrences(of: "&amp;", with: "&")
            #expect(try await ledger.verify(url: href).outcome == .approved)
            await #expect(throws: ChargeKitError.replayedNonce) { try await ledger.verify(url: href) }

            // A late answer is not sent at once (the ledger would accept it): the page says
            // to wait out the time to live, and links the callback.
            let late = try await Self.post(harness, [("form_token", token), ("url", first), ("scenario", "after-expiry")])
            #expect(late.hasPrefix("HTTP/1.1 200") && Self.location(late) == nil && late.contains("time to live") && late.contains("id=\"callback\""))
        }
    }

    @Test("a request the app refuses: a page naming the field, or the app's error as the way back; never a 500")
    func refusals() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            let missing = try await harness.http.call("GET", "/apps/open")
            #expect(missing.status == 400 && missing.text.contains("url: required"))
            let other = try await Self.page(harness, "https://shop.example/pay")
            #expect(other.status == 400 && other.text.contains("url: not a request to a payment app"))
            let requests = try await Self.requests(ChargeLedger())
            let (provider, url) = try #require(requests.first)
            let token = try #require(HeadlessWallet.formToken(in: try await Self.page(harness, url).text))
            let forged = try await Self.post(harness, [("form_token", "0123"), ("url", url), ("scenario", "approved")])
            #expect(forged.hasPrefix("HTTP/1.1 403") && forged.contains("form_token"))
            let crossSite = try await Self.post(harness, [("form_token", token), ("url", url), ("scenario", "approved")], origin: "https://evil.example")
            #expect(crossSite.hasPrefix("HTTP/1.1 403"))
            let unknown = try await Self.post(harness, [("form_token", token), ("url", url), ("scenario", "teleport")])
            #expect(unknown.hasPrefix("HTTP/1.1 400") && unknown.contains("scenario: must be one of \(provider)&#39;s: "), "\(unknown)")
            // A callback URL with a line break in it is never written into a header.
            let injected = url.replacingOccurrences(of: PercentEncoding.encode("my-app://done"), with: PercentEncoding.encode("my-app://done\r\nSet-Cookie: a=b"))
            #expect(injected != url)
            let refused = try await Self.post(harness, [("form_token", token), ("url", injected), ("scenario", "approved")])
            #expect(refused.hasPrefix("HTTP/1.1 400") && !refused.lowercased().contains("set-cookie: a=b"), "\(refused)")
            // A quote followed by a combining mark in the request (one Character, not a
            // quote) is still escaped where the page writes the URL into an attribute.
            let breakout = "\"\u{301} autofocus onfocus=alert(1) x="
            for (_, url) in requests {
                let answer = try await Self.page(harness, url + "&x=" + breakout)
                #expect([200, 400].contains(answer.status) && !answer.text.contains(breakout), "\(url.prefix(40)): \(answer.status)")
            }
            // Each app's scheme with nothing, a broken escape, a cut request; and no scheme at all.
            let garbage = SimulatedApps.schemes.flatMap { ["\($0)://", "\($0)://%zz"] } + requests.map { String($0.1.prefix(30)) }
            for garbage in garbage + [String(repeating: "a", count: 40_000)] {
                let answer = try await Self.page(harness, garbage)
                #expect([200, 400].contains(answer.status), "\(garbage.prefix(60)): \(answer.status)")
            }
        }
    }

    @Test("the opener sends the exact request URL to the sandbox's page, and refuses a page that is not http(s)")
    func opener() async throws {
        let opened = OpenedURL()
        let opener = SandboxAppOpener(page: try #require(URL(string: "http://192.168.1.20:8790/apps/open")), opening: ClosureURLOpener { await opened.set($0) })
        let request = "payment-app://pay/1.0?amount=1.00&currency=EUR&title=A%20%26%20B+C&callback=my-app://done"
        try await opener.open(request)
        let sent = try #require(await opened.url)
        #expect(sent.hasPrefix("http://192.168.1.20:8790/apps/open?url="))
        let query = try #require(URLComponents(string: sent)?.queryItems?.first { $0.name == "url" }?.value)
        #expect(query == request, "byte for byte")
        let ftp = SandboxAppOpener(page: try #require(URL(string: "ftp://host/apps/open")), opening: ClosureURLOpener { _ in })
        await #expect(throws: ChargeKitError.invalidURL("page", rule: "must be an http or https URL with a host and no query, such as http://192.168.1.20:8790/apps/open")) {
            try await ftp.open(request)
        }
    }
}

actor OpenedURL {
    var url: String?
    func set(_ url: String) { self.url = url }
}
