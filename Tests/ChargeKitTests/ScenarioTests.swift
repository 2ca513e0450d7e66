@_spi(Tools) @testable import ChargeKit
import ChargeKitSimulators
import Foundation
import Testing

/// The scenario catalog as a device and the web simulator play it (each scenario
/// through a ledger is `PaymentAppConformance`, run by PaymentAppConformanceTests).
@Suite struct ScenarioTests {
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
