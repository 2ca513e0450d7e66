@testable import ChargeKit
import ChargeKitSimulators
import Testing

/// A verification scans the callback URL once: the ledger finds the nonce in the
/// fields of that scan and the charge's app reads the same fields (an answer whose
/// nonce is inside a JSON value is read whole once and kept). An answer written
/// unencoded is scanned whole once, escaped, after its raw scan stopped at the first
/// raw space.
@Suite struct SingleScanTests {
    /// A registered simulator, for test arguments.
    struct App: Sendable, CustomStringConvertible {
        let simulator: any AppSimulator.Type
        var description: String { simulator.provider.rawValue }
    }

    @Test("every registered app's approval is scanned whole once by the ledger", arguments: SimulatedApps.registered.map(App.init))
    func oneScan(app: App) async throws {
        let ledger = ChargeLedger()
        let sample = app.simulator.sampleApp(callbackURL: "scan-test://done")
        let order = ChargeOrder(amount: Money(minorUnits: 1250, currency: app.simulator.sampleCurrency), description: "Tea", reference: "order-7")
        let (_, request) = try await ledger.issue { nonce throws(ChargeKitError) in try sample.handoff(for: order, nonce: nonce) }
        var simulator: any AppSimulator = app.simulator.init()
        simulator.setUp(AppSetup(accountCurrency: app.simulator.sampleCurrency.code))
        let callback = try simulator.respond(to: request.url, outcome: .approved, options: AnswerOptions())
        let scans = FieldReader.ScanCount()
        let result = try await FieldReader.$scans.withValue(scans) { try await ledger.verify(url: callback) }
        #expect(result.outcome == .approved && result.provider == app.simulator.provider)
        #expect(scans.count == 1, "\(app): \(callback)")
    }
}
