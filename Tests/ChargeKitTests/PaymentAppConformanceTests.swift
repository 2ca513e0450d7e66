@_spi(Tools) import ChargeKit
import ChargeKitSimulators
import ChargeKitTesting
import Testing

/// Every registered payment app passes `PaymentAppConformance`, and an app broken on
/// purpose does not: the suite can fail.
@Suite struct PaymentAppConformanceTests {
    @Test(arguments: PaymentAppConformance.checks, PaymentAppConformance.registered)
    func conforms(check: PaymentAppConformance.Check, app: PaymentAppConformance.App) async throws {
        try await check.run(app)
    }

    @Test func everyRegisteredAppIsChecked() {
        let checked = PaymentAppConformance.registered
        var providers: [PaymentProvider] = []
        for app in checked where providers.last != app.simulator.provider { providers.append(app.simulator.provider) }
        #expect(providers == PaymentProvider.allCases, "an app of the SDK's registry has no simulator in the simulators' registry")
        // Every protocol of an app is played (an app with two protocols, two entries).
        #expect(checked.count > PaymentProvider.allCases.count)
        #expect(checked.contains { $0.description.hasSuffix("(protocol 2)") })
    }

    /// An app whose simulator answers success to everything: what a wrong mapping in a
    /// new app's simulator or callback would look like.
    struct ApprovesEverything<Base: AppSimulator>: AppSimulator {
        static var provider: PaymentProvider { Base.provider }
        static var schemes: [String] { Base.schemes }
        static var scenarios: [Scenario] { Base.scenarios }
        static var sampleCurrency: Currency { Base.sampleCurrency }
        var base = Base()
        init() {}
        mutating func respond(to requestURL: String, outcome: ChargeOutcome, options: AnswerOptions) throws(ChargeKitError) -> String {
            try base.respond(to: requestURL, outcome: .approved, options: options)
        }
        mutating func setUp(_ setup: AppSetup) { base.setUp(setup) }
        static func summary(of requestURL: String) throws(ChargeKitError) -> RequestSummary { try Base.summary(of: requestURL) }
        static func sampleApp(callbackURL: String) -> PaymentApp { Base.sampleApp(callbackURL: callbackURL) }
    }

    /// An app whose sample app sends to another app: a registry line pointing at the wrong home.
    struct WrongSample<Base: AppSimulator, Other: AppSimulator>: AppSimulator {
        static var provider: PaymentProvider { Base.provider }
        static var schemes: [String] { Base.schemes }
        static var scenarios: [Scenario] { Base.scenarios }
        static var sampleCurrency: Currency { Base.sampleCurrency }
        var base = Base()
        init() {}
        mutating func respond(to requestURL: String, outcome: ChargeOutcome, options: AnswerOptions) throws(ChargeKitError) -> String {
            try base.respond(to: requestURL, outcome: outcome, options: options)
        }
        static func summary(of requestURL: String) throws(ChargeKitError) -> RequestSummary { try Base.summary(of: requestURL) }
        static func sampleApp(callbackURL: String) -> PaymentApp { Other.sampleApp(callbackURL: callbackURL) }
    }

    static func breaks<Base: AppSimulator>(_ base: Base.Type, other: any AppSimulator.Type) -> [PaymentAppConformance.App] {
        func wrongSample<Other: AppSimulator>(_ other: Other.Type) -> PaymentAppConformance.App {
            PaymentAppConformance.App(WrongSample<Base, Other>.self)
        }
        return [PaymentAppConformance.App(ApprovesEverything<Base>.self), wrongSample(other)]
    }

    @Test("Each app broken on purpose (answering success to everything, or its sample app another app's) fails the suite")
    func aBrokenAppFailsIt() async throws {
        let check = try #require(PaymentAppConformance.checks.first { $0.name.hasPrefix("each scenario reads") })
        let registered = SimulatedApps.registered
        for (index, base) in registered.enumerated() {
            for broken in Self.breaks(base, other: registered[(index + 1) % registered.count]) {
                await #expect(throws: ConformanceFailure.self, "\(broken)") { try await check.run(broken) }
            }
            // The same check passes for the real app (the test above): it is the break that fails.
            try await check.run(PaymentAppConformance.App(base))
        }
    }
}
