@_spi(Tools) @testable import ChargeKit
import ChargeKitSimulators
import Foundation
import Testing

/// The scenario catalog, each scenario played through a ledger as an app would meet it.
@Suite struct ScenarioTests {
    /// Every scenario this suite tests, with the outcome it must read as (`nil`: no
    /// callback). The catalog must be exactly these: a scenario added without a line
    /// here fails ``theCatalogIsTheTestedList()``.
    static let expected: [String: ChargeOutcome?] = {
        var expected: [String: ChargeOutcome?] = [
            "ccterminal/approved": .approved, "ccterminal/declined": .declined, "ccterminal/cancelled": .cancelled,
            "ccterminal/error": .failed,
            "sumup/approved": .approved, "sumup/declined": .declined, "sumup/cancelled": .declined,
            "sumup/not-ready": .failed, "sumup/other-currency": .declined,
            "zettle/approved": .approved, "zettle/cancelled": .cancelled, "zettle/technical-error": .failed,
            "zettle/not-logged-in": .failed, "zettle/other-currency": .failed,
            "square/approved": .approved, "square/cancelled": .cancelled,
        ]
        // Point of Sale's other documented error codes: each a failure.
        for code in ["data-invalid", "not-logged-in", "location-id-mismatch", "user-id-mismatch", "client-not-authorized-for-user",
                     "user-not-active", "currency-code-missing", "unsupported-currency-code", "currency-code-mismatch",
                     "amount-invalid-format", "amount-too-small", "amount-too-large", "invalid-tender-type", "unsupported-tender-type",
                     "could-not-perform", "no-network-connection", "unsupported-api-version", "invalid-version-number",
                     "customer-management-not-supported", "invalid-customer-id"] {
            expected["square/" + code] = .failed
        }
        for provider in ["ccterminal", "sumup", "zettle", "square"] {
            expected[provider + "/no-callback"] = .some(nil)
            for name in ["duplicate-callback", "after-expiry", "another-app"] { expected[provider + "/" + name] = .approved }
        }
        return expected
    }()

    /// The app each provider's hand-offs go through, and a currency its simulator's
    /// account takes.
    static func app(_ provider: PaymentProvider) -> (PaymentApp, Currency) {
        switch provider {
        case .sumUp: (.sumUp(affiliateKey: "K", callbackURL: "my-app://callback"), .eur)
        case .zettle: (.zettle(apiKey: "K", source: "My App", callbackURL: "my-app://callback"), (try? Currency(code: "SEK")) ?? .eur)
        case .square: (.square(clientID: "sq0idp-APP", callbackURL: "my-app://callback"), .usd)
        default: (.creditCardTerminal(returnURL: "my-app://callback"), .usd)
        }
    }

    @Test func theCatalogIsTheTestedList() {
        #expect(Set(Scenario.catalog.map(\.id)) == Set(Self.expected.keys))
        #expect(Scenario.catalog.count == Set(Scenario.catalog.map(\.id)).count, "a name used twice for one app")
        for scenario in Scenario.catalog {
            #expect(Self.expected[scenario.id] == .some(scenario.outcome), "\(scenario.id) states another outcome")
            #expect(!scenario.description.isEmpty && Scenario.named(scenario.name, for: scenario.provider) == scenario)
        }
    }

    @Test(arguments: Scenario.catalog)
    func eachScenarioThroughTheLedger(scenario: Scenario) async throws {
        let clock = TestClock()
        let ledger = ChargeLedger(timeToLive: 60, now: { clock.now })
        let (app, currency) = Self.app(scenario.provider)
        let order = ChargeOrder(amount: Money(minorUnits: 1250, currency: currency), description: "Tea", reference: "order-7")
        let (charge, request) = try await ledger.issue { nonce throws(ChargeKitError) in try app.handoff(for: order, nonce: nonce) }
        let callbacks = try scenario.callbacks(for: request.url)
        let stated = try #require(Self.expected[scenario.id])
        guard let stated else {
            #expect(callbacks.isEmpty)
            #expect(try await ledger.outstanding().map(\.nonce) == [charge.nonce])
            return
        }
        let first = try #require(callbacks.first)
        #expect(try PaymentCallback.parse(first).outcome == stated, "what parse reports")
        switch scenario.name {
        case "duplicate-callback":
            #expect(callbacks == [first, first])
            #expect(try await ledger.verify(url: first).outcome == .approved)
            await #expect(throws: ChargeKitError.replayedNonce) { try await ledger.verify(url: callbacks[1]) }
        case "after-expiry":
            clock.advance(61)
            await #expect(throws: ChargeKitError.expiredNonce) { try await ledger.verify(url: first) }
        case "another-app":
            #expect(try PaymentCallback.parse(first).provider != scenario.provider)
            await #expect(throws: ChargeKitError.self) { try await ledger.verify(url: first) }
            #expect(try await ledger.outstanding().map(\.nonce) == [charge.nonce], "refused, the hand-off still waits")
        default:
            #expect(callbacks.count == 1)
            let result = try await ledger.verify(url: first)
            #expect(result.outcome == stated && result.charge.nonce == charge.nonce && result.provider == scenario.provider)
        }
    }

    @Test func aDevicePlaysAScenario() async throws {
        let inbox = Inbox()
        let device = SimulatedDevice { url in await inbox.deliver(url) }
        let coordinator = PaymentCoordinator(ledger: ChargeLedger(), opener: device)
        await inbox.set(coordinator)
        let scenario = Scenario.named("could-not-perform", for: .square)
        #expect(scenario != nil, "Square's could-not-perform scenario is in the catalog")
        guard let scenario else { return }
        await device.play(scenario)
        let result = try await coordinator.charge(ChargeOrder(amount: Money(minorUnits: 500, currency: .usd)),
                                                  via: .square(clientID: "sq0idp-APP", callbackURL: "my-app://callback"))
        #expect(result.outcome == .failed && result.callback.square?.errorCode == .couldNotPerform)
        // Another app's requests still play the device's outcome.
        let sumUp = try await coordinator.charge(ChargeOrder(amount: Money(minorUnits: 500, currency: .eur)),
                                                 via: .sumUp(affiliateKey: "K", callbackURL: "my-app://callback"))
        #expect(sumUp.outcome == .approved)
    }

    @Test func aScenarioPlaysOnlyItsOwnAppsRequests() throws {
        let scenario = try #require(Scenario.named("approved", for: .square))
        #expect(throws: ChargeKitError.self) { try scenario.callbacks(for: "sumupmerchant://pay/1.0?total=1.00&currency=EUR") }
    }

    @Test func theSummaryShowsWhatTheAppShows() throws {
        let order = ChargeOrder(amount: Money(minorUnits: 1250, currency: .usd), description: "Tea", reference: "order-7")
        let square = try SimulatedApps.summary(of: try PaymentApp.square(clientID: "C", callbackURL: "my-app://cb").handoff(for: order, nonce: Nonce.random()).url)
        #expect(square.provider == .square && square.amount == "12.50" && square.currency == "USD" && square.description == "Tea")
        let terminal = try SimulatedApps.summary(of: try PaymentApp.creditCardTerminal(returnURL: "my-app://cb").handoff(for: order, nonce: Nonce.random()).url)
        #expect(terminal.provider == .creditCardTerminal && terminal.amount == "12.50" && terminal.description == "Tea")
        #expect(throws: ChargeKitError.appNotInstalled(scheme: "https")) { try SimulatedApps.summary(of: "https://example.com") }
    }
}
