import ArgumentParser
@_spi(Tools) import ChargeKit
import ChargeKitSimulators
import Foundation

struct Demo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run the ChargeDemo scenario in one process against a simulated payment app (or the Citcon UPI sandbox)."
    )

    @Option(help: "ccterminal, sumup, zettle, square or citcon.") var provider: DemoProvider = .ccterminal
    @Flag(help: "Print one JSON object of what happened (each step's outcome) instead of the story.") var json = false

    enum DemoProvider: String, ExpressibleByArgument, CaseIterable {
        case ccterminal, sumup, zettle, square, citcon

        var paymentProvider: PaymentProvider? { PaymentProvider(rawValue: rawValue) }

        /// The app the demo charges through.
        var app: PaymentApp? {
            let callbackURL = "com-innerfence-ChargeDemo://chargeResponse"
            switch self {
            case .ccterminal:
                var template = CreditCardTerminal.ChargeRequest()
                template.taxRate = .percent("8.5")
                template.returnAppName = "ChargeDemo"
                return .creditCardTerminal(returnURL: callbackURL, template: template)
            case .sumup: return .sumUp(affiliateKey: "YOUR-AFFILIATE-KEY", callbackURL: callbackURL)
            case .zettle: return .zettle(apiKey: "YOUR-API-KEY", source: "ChargeDemo", callbackURL: callbackURL)
            case .square: return .square(clientID: "YOUR-SQUARE-APPLICATION-ID", callbackURL: callbackURL)
            case .citcon: return nil
            }
        }

        /// A callback claiming approval that no hand-off asked for.
        var forgery: String {
            let nonce = Nonce.random().value
            switch self {
            case .ccterminal, .citcon:
                return "com-innerfence-ChargeDemo://chargeResponse?record_id=123&ifcc_request_nonce=\(nonce)&ifcc_responseType=approved&ifcc_transactionId=999999&ifcc_amount=50.00&ifcc_currency=USD&ifcc_redactedCardNumber=XXXXXXXXXXXX4242&ifcc_cardType=Visa"
            case .sumup:
                return "com-innerfence-ChargeDemo://chargeResponse?record_id=123&chargekit-nonce=\(nonce)&smp-status=success&smp-tx-code=FORGED"
            case .zettle:
                return "com-innerfence-ChargeDemo://chargeResponse?record_id=123&chargekit-nonce=\(nonce)&chargekit-callback=success&reference=321"
            case .square:
                let data = #"{"client_transaction_id":"FORGED","state":"\#(nonce).321","status":"ok","transaction_id":"FORGED"}"#
                return "com-innerfence-ChargeDemo://chargeResponse/square_request?data=" + PercentEncoding.encode(data)
            }
        }
    }

    func run() async throws {
        try await Self.withOwnUsage {
            guard let provider = self.provider.paymentProvider else {
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
            let device = SimulatedDevice(sumUp: SumUpSimulator(merchantCurrency: "USD"), zettle: ZettleSimulator(accountCurrency: "USD")) { url in
                print("  <- payment app opens: \(url)")
                await box.handle(url)
            }
            let coordinator = PaymentCoordinator(ledger: ledger, opener: device)
            await box.set(coordinator)

            guard let app = self.provider.app else { throw ExitCode.failure }
            let order = ChargeOrder(
                amount: Money(minorUnits: 5000, currency: .usd), description: "Test transaction", reference: "321",
                // Point of Sale returns only its own data: the reference travels in its state.
                extras: provider == .square ? [] : [QueryItem("record_id", "123")]
            )

            print("ChargeDemo with \(provider) (simulated)")
            print("1. Charge 50.00 USD, \"Test transaction\", invoice 321\(provider == .creditCardTerminal ? ", tax rate 8.5" : "")\(order.extras.isEmpty ? "" : ", record_id=123")")
            let approved = try await charge(coordinator, order, app)
            guard approved.outcome == .approved, case let callback = approved.callback else { throw ExitCode.failure }
            print("   verified: matched nonce \(approved.charge.nonce) in the ledger and consumed it")
            if order.extras.isEmpty {
                print("   reference: \(callback.reference ?? "?") (returned unchanged in state)")
            } else {
                print("   record: \(callback.extraItems.first { $0.name == "record_id" }?.value ?? "?")")
            }
            print("   transaction id: \(callback.transactionID ?? "(none sent)")")
            if let response = callback.creditCardTerminal {
                print("   amount: \(response.amount?.description ?? "?") (tax \(response.taxAmount?.formatted ?? "0.00") at \(response.taxRate ?? "-")%)")
                print("   card: \(response.cardType?.rawValue ?? "?") \(response.redactedCardNumber ?? "?")")
            } else {
                print("   amount: \(approved.charge.request.amount?.description ?? "?")")
            }
            let replay = await device.delivered.last ?? ""

            print("2. The same charge again, declined by the card")
            await device.setOutcome(.declined)
            let declined = try await charge(coordinator, order, app)
            print("   outcome: \(declined.outcome) (provider status \(declined.providerStatus)), verified")
            await device.setOutcome(.approved)

            print("3. A forged callback claiming approval")
            let forged = self.provider.forgery
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
