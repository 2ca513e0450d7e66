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
        // Every protocol of an app is played: Zettle's 1.0 payment and its api/ operations.
        #expect(checked.count > PaymentProvider.allCases.count)
        #expect(checked.map(\.description).contains("zettle (protocol 2)"))
    }

    /// SumUp, but a declined card answers success: what a wrong mapping in a new app's
    /// simulator or callback would look like.
    struct ApprovesEverything: AppSimulator {
        static var provider: PaymentProvider { .sumUp }
        static var schemes: [String] { SumUpSimulator.schemes }
        static var scenarios: [Scenario] { SumUpSimulator.scenarios }
        var base = SumUpSimulator(merchantCurrency: "USD")
        init() {}
        func respond(to requestURL: String, outcome: ChargeOutcome, options: AnswerOptions) throws(ChargeKitError) -> String {
            try base.respond(to: requestURL, outcome: .approved, options: options)
        }
        mutating func setUp(_ setup: AppSetup) { base.setUp(setup) }
        static func summary(of requestURL: String) throws(ChargeKitError) -> RequestSummary { try SumUpSimulator.summary(of: requestURL) }
        static func sampleApp(callbackURL: String) -> PaymentApp { SumUpSimulator.sampleApp(callbackURL: callbackURL) }
    }

    /// Square, but its sample app sends to SumUp: a registry line pointing at the wrong home.
    struct WrongSample: AppSimulator {
        static var provider: PaymentProvider { .square }
        static var schemes: [String] { SquareSimulator.schemes }
        static var scenarios: [Scenario] { SquareSimulator.scenarios }
        init() {}
        func respond(to requestURL: String, outcome: ChargeOutcome, options: AnswerOptions) throws(ChargeKitError) -> String {
            try SquareSimulator().respond(to: requestURL, outcome: outcome, options: options)
        }
        static func summary(of requestURL: String) throws(ChargeKitError) -> RequestSummary { try SquareSimulator.summary(of: requestURL) }
        static func sampleApp(callbackURL: String) -> PaymentApp { SumUpSimulator.sampleApp(callbackURL: callbackURL) }
    }

    @Test func aBrokenAppFailsIt() async throws {
        let check = try #require(PaymentAppConformance.checks.first { $0.name.hasPrefix("each scenario reads") })
        await #expect(throws: ConformanceFailure.self) { try await check.run(PaymentAppConformance.App(ApprovesEverything.self)) }
        await #expect(throws: ConformanceFailure.self) { try await check.run(PaymentAppConformance.App(WrongSample.self)) }
        // The same check passes for the real apps (the test above): it is the break that fails.
        try await check.run(PaymentAppConformance.App(SumUpSimulator.self))
    }
}
