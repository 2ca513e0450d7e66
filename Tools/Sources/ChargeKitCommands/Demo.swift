import ArgumentParser
@_spi(Tools) import ChargeKit
import ChargeKitSimulators
import Foundation

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the ChargeDemo scenario in one process against a simulated payment app (or the Citcon UPI sandbox)."
    )

    @Option(help: "\(ToolApps.listed(["citcon"]))") var provider: String = ToolApps.names.first ?? "citcon"
    @Flag(help: "Print one JSON object of what happened (each step's outcome) instead of the story.") var json = false

    func validate() throws {
        guard provider == "citcon" || ToolApps.names.contains(provider) else {
            throw ValidationError("--provider must be one of \((ToolApps.names + ["citcon"]).joined(separator: ", ")), got \(provider)")
        }
    }

    func run() async throws {
        try await Self.withOwnUsage {
            guard let provider = PaymentProvider(rawValue: self.provider), let app = ToolApps.app(provider) else {
                guard let citcon = CommandHooks.citcon else {
                    throw ValidationError("--provider citcon runs in chargekit-server (swift build --package-path Tools --product chargekit-server)")
                }
                try await citcon(json)
                return
            }
            let json = self.json
            // The story for people; with --json, one object at the end instead.
            let print: @Sendable (String) -> Void = { line in if !json { Swift.print(line) } }
            let ledger = ChargeLedger()
            let box = CoordinatorBox(print: print)
            guard let simulator = SimulatedApps.simulator(of: provider) else {
                throw ValidationError("--provider \(provider): no simulator plays this app")
            }
            // In the currency of the account the simulator plays.
            let currency = simulator.sampleCurrency
            var apps = SimulatedApps()
            apps.setUpAll(AppSetup(accountCurrency: currency.code))
            let device = SimulatedDevice(apps: apps) { url in
                print("  <- payment app opens: \(url)")
                await box.handle(url)
            }
            let coordinator = PaymentCoordinator(ledger: ledger, opener: device)
            await box.set(coordinator)

            let callbackURL = ToolApps.demoCallbackURL
            let paymentApp = app.demoApp(callbackURL: callbackURL) ?? simulator.sampleApp(callbackURL: callbackURL)
            let order = ChargeOrder(
                amount: Money(minorUnits: 5000, currency: currency), description: "Test transaction", reference: "321",
                extras: app.returnsExtras ? [QueryItem("record_id", "123")] : []
            )

            print("ChargeDemo with \(provider) (simulated)")
            print("1. Charge 50.00 \(currency.code), \"Test transaction\", invoice 321\(app.demoNote)\(order.extras.isEmpty ? "" : ", record_id=123")")
            let approved = try await charge(coordinator, order, paymentApp)
            guard approved.outcome == .approved, case let callback = approved.callback else { throw ExitCode.failure }
            print("   verified: matched nonce \(approved.charge.nonce) in the ledger and consumed it")
            if order.extras.isEmpty {
                print("   reference: \(callback.reference ?? "?") (returned unchanged in \(type(of: callback.base).referenceField))")
            } else {
                print("   record: \(callback.extraItems.first { $0.name == "record_id" }?.value ?? "?")")
            }
            print("   transaction id: \(callback.transactionID ?? "(none sent)")")
            for line in app.demoLines(of: callback) ?? ["amount: \(approved.charge.request.amount?.description ?? "?")"] {
                print("   " + line)
            }
            let replay = await device.delivered.last ?? ""

            print("2. The same charge again, declined by the card")
            await device.setOutcome(.declined)
            let declined = try await charge(coordinator, order, paymentApp)
            print("   outcome: \(declined.outcome) (provider status \(declined.providerStatus)), verified")
            await device.setOutcome(.approved)

            print("3. A forged callback claiming approval")
            let forged = app.forgedCallback(to: callbackURL, nonce: Nonce.random().value)
            print("   -> \(forged)")
            let forgery = await refusal(coordinator, forged, print: print)

            print("4. The first approval replayed")
            let replayed = await refusal(coordinator, replay, print: print)
            if json {
                struct Summary: Encodable {
                    let provider: String, approved: String, nonce: String, transactionID: String?, declined: String
                    let forgedRefused: String?, replayRefused: String?
                    enum CodingKeys: String, CodingKey {
                        case provider, approved, nonce, declined
                        case transactionID = "transaction_id", forgedRefused = "forged_refused", replayRefused = "replay_refused"
                    }
                }
                try printJSON(Summary(provider: provider.rawValue, approved: approved.outcome.rawValue, nonce: approved.charge.nonce.value,
                                      transactionID: callback.transactionID, declined: declined.outcome.rawValue,
                                      forgedRefused: forgery, replayRefused: replayed))
            }
            guard forgery != nil, replayed != nil else { throw ExitCode.failure }
            print("Approved, declined and forged callbacks were told apart.")
        }
    }

    private func charge(_ coordinator: PaymentCoordinator, _ order: ChargeOrder, _ app: PaymentApp) async throws -> PaymentResult {
        try await refusing { () async throws(ChargeKitError) in try await coordinator.charge(order, via: app) }
    }

    /// Why the coordinator refused `url`; `nil` when it accepted it (a bug: the demo then exits 1).
    private func refusal(_ coordinator: PaymentCoordinator, _ url: String, print: (String) -> Void) async -> String? {
        do throws(ChargeKitError) {
            _ = try await coordinator.handle(url: url)
            print("   ACCEPTED (this is a bug)")
            return nil
        } catch {
            print("   refused: \(error)")
            return error.description
        }
    }
}

/// Lets the simulated device reach the coordinator created after it.
actor CoordinatorBox {
    private var coordinator: PaymentCoordinator?
    private let print: @Sendable (String) -> Void
    init(print: @escaping @Sendable (String) -> Void) { self.print = print }
    func set(_ coordinator: PaymentCoordinator) { self.coordinator = coordinator }
    func handle(_ url: String) async {
        do throws(ChargeKitError) { _ = try await coordinator?.handle(url: url) } catch {
            print("   callback refused: \(error)")
        }
    }
}
