@_spi(Tools) @testable import ChargeKit
import ChargeKitSimulators
import Foundation
import Testing

/// The scenario catalog as a device and the web simulator play it (each scenario
/// through a ledger is `PaymentAppConformance`, run by PaymentAppConformanceTests).
@Suite struct ScenarioTests {
    @Test("A device plays each app's first scenario that is not an approval; another app's requests still play the device's outcome")
    func aDevicePlaysAScenario() async throws {
        for played in everyApp where played.app == played.simulator.sampleApp(callbackURL: callbackURL) {
            let scenario = try #require(played.simulator.scenarios.first { $0.outcome != nil && $0.outcome != .approved }, "\(played)")
            let (coordinator, device, _) = await makeStack()
            await device.play(scenario)
            let result = try await coordinator.charge(played.order(description: "Tea", reference: "R1"), via: played.app)
            #expect(result.outcome != .approved && result.outcome == played.simulator.outcome(of: scenario, answering: result.charge.request.url),
                    "\(played) \(scenario.name)")
            let other = anotherApp(than: played.provider)
            let otherResult = try await coordinator.charge(other.order(description: "Tea", reference: "R1"), via: other.app)
            #expect(otherResult.outcome == .approved, "\(other) while \(played) plays \(scenario.name)")
        }
    }

    @Test func aScenarioPlaysOnlyItsOwnAppsRequests() throws {
        for played in everyApp {
            let scenario = try #require(Scenario.named("approved", for: played.provider) ?? played.simulator.scenarios.first)
            let other = anotherApp(than: played.provider)
            let url = try other.app.handoff(for: other.order(description: "Tea", reference: "R1"), nonce: Nonce.random()).url
            #expect(throws: ChargeKitError.self, "\(played)") { try scenario.callbacks(for: url) }
        }
    }

    @Test func theSummaryShowsWhatTheAppShows() throws {
        for played in everyApp {
            let order = played.order(1250, description: "Tea", reference: "order-7")
            let summary = try SimulatedApps.summary(of: try played.app.handoff(for: order, nonce: Nonce.random()).url)
            #expect(summary.provider == played.provider && summary.amount == "12.50", "\(played)")
            #expect(summary.currency.map { $0 == played.currency.code } != false, "\(played): \(String(describing: summary.currency))")
            #expect(summary.description.map { $0 == "Tea" } != false, "\(played)")
        }
        #expect(throws: ChargeKitError.appNotInstalled(scheme: "https")) { try SimulatedApps.summary(of: "https://example.com") }
    }
}
