import ArgumentParser
import ChargeKit
import ChargeKitSimulators
import Foundation

struct Parse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate a callback URL. Exit 0 for a valid response whatever its outcome, 2 for an invalid, forged or replayed one."
    )

    @Argument(help: "The callback URL your app was opened with.") var url: String
    @Option(help: "ccterminal, sumup or zettle; detected from the URL when absent.") var provider: PaymentProvider?
    @Option(help: "Verify against (and consume in) this file ledger.") var ledger: String?
    @Flag(help: "Print one JSON object.") var json = false

    func run() async throws {
        let (callback, result) = try await refusing { () async throws(ChargeKitError) -> (PaymentCallback, PaymentResult?) in
            let callback = try PaymentCallback.parse(url, provider: provider)
            guard let ledger else { return (callback, nil) }
            return (callback, try await ChargeLedger(store: FileLedgerStore(path: ledger)).verify(callback))
        }
        let report = CallbackReport(callback, result: result)
        if json {
            print(report.json)
            return
        }
        print("provider: \(report.provider)")
        print("outcome: \(report.outcome) (\(report.providerStatus))")
        print("verified: \(report.verified ? "yes, matched and consumed in the ledger" : "no (no --ledger)")")
        for (name, value) in report.fields.sorted(by: { $0.key < $1.key }) { print("\(name): \(value)") }
        for (name, value) in report.extraParams.sorted(by: { $0.key < $1.key }) { print("extra \(name): \(value)") }
        for flag in report.flags { print("flag: \(flag)") }
    }
}

struct Simulate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play the payment app: print the callback URL it would open for a request URL."
    )

    @Argument(help: "A request URL (com-innerfence-ccterminal://, sumupmerchant:// or izettle://).") var url: String
    @Option(help: "approved, declined, cancelled, error (or failed).") var outcome: ChargeOutcome = .approved
    @Option(help: "Credit Card Terminal: a tip the customer adds, e.g. 1.50.") var tip: String?
    @Option(help: "Credit Card Terminal: the rate used for taxRate=default.") var defaultTaxRate: String = "8.25"
    @Option(help: "Credit Card Terminal: the transaction id to report.") var transactionId: String?
    @Option(help: "SumUp / Zettle: the logged-in account's currency.") var accountCurrency: String?
    @Flag(help: "SumUp / Zettle: the app is not ready (not logged in).") var notReady = false

    func run() async throws {
        let callback = try await refusing { () async throws(ChargeKitError) -> String in
            switch String(url.prefix { $0 != ":" }).lowercased() {
            case CreditCardTerminal.scheme:
                var configuration = CreditCardTerminalSimulator.Configuration()
                configuration.defaultTaxRate = defaultTaxRate
                return try CreditCardTerminalSimulator(configuration: configuration)
                    .respond(to: url, outcome: outcome, tip: tip, transactionID: transactionId)
            case SumUp.scheme:
                return try SumUpSimulator(merchantCurrency: accountCurrency ?? "EUR", isReady: !notReady).respond(to: url, outcome: outcome)
            case Zettle.scheme:
                var simulator = ZettleSimulator(accountCurrency: accountCurrency ?? "SEK", isLoggedIn: !notReady)
                return try simulator.respond(to: url, outcome: outcome)
            default:
                throw ChargeKitError.invalidURL("url", rule: "not a request URL of a payment app ChargeKit simulates")
            }
        }
        print(callback)
    }
}
