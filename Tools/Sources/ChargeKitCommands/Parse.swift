import ArgumentParser
@_spi(Tools) import ChargeKit
import ChargeKitSimulators
import Foundation

struct Parse: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Validate a callback URL. Exit 0 for a valid response whatever its outcome, 2 for an invalid, forged or replayed one."
    )

    @Argument(help: "The callback URL your app was opened with.") var url: String
    @Option(help: "\(ToolApps.listed()); detected from the URL when absent.") var provider: PaymentProvider?
    @Option(help: "Verify against (and consume in) this ledger: a file path or a postgres:// URL.") var ledger: String?
    @Flag(help: "Print one JSON object.") var json = false

    func run() async throws {
        try await Self.withOwnUsage {
            let (callback, result) = try await refusing { () async throws(ChargeKitError) -> (PaymentCallback, PaymentResult?) in
                guard let ledger else { return (try PaymentCallback.parse(url, provider: provider), nil) }
                // The nonce names the charge, and the charge names the provider whose rules read the URL.
                let opened = try await openLedger(ledger)
                defer { opened.close() }
                let store = opened.store
                let result = try await ChargeLedger(store: store).verify(url: url, provider: provider)
                return (result.callback, result)
            }
            let report = CallbackReport(callback, result: result)
            if json {
                print(report.json)
                return
            }
            // Every value is escaped: a %0A in a field must not forge a line of this output.
            print("provider: \(report.provider)")
            print("operation: \(report.operation)")
            print("outcome: \(report.outcome) (\(report.providerStatus.escapedForTerminal))")
            print("verified: \(report.verified ? "yes, matched and consumed in the ledger" : "no (no --ledger)")")
            for (name, value) in report.fields.sorted(by: { $0.key < $1.key }) { print("\(name.escapedForTerminal): \(value.escapedForTerminal)") }
            for (name, value) in report.extraParams.sorted(by: { $0.key < $1.key }) {
                print("extra \(name.escapedForTerminal): \(value.escapedForTerminal)")
            }
            for flag in report.flags { print("flag: \(flag.escapedForTerminal)") }
        }
    }
}

struct Simulate: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Play the payment app: print the callback URL it would open for a request URL."
    )

    @Argument(help: "A request URL (\(SimulatedApps.schemes.map { $0 + "://" }.joined(separator: ", "))).") var url: String
    @Option(help: "approved, declined, cancelled or failed (the outcome as parse --json spells it; error is accepted for failed).") var outcome: ChargeOutcome = .approved
    @Option(help: "A tip the customer adds, e.g. 1.50 (apps with a tip screen).") var tip: String?
    @Option(help: "The tax rate the app applies to taxRate=default (apps that apply tax).") var defaultTaxRate: String?
    @Option(help: "The transaction id to report (apps that report one).") var transactionId: String?
    @Option(help: "The logged-in account's currency (apps with an account currency).") var accountCurrency: String?
    @Flag(help: "The app is not ready (not logged in).") var notReady = false
    @Option(help: "The app's own code for a failed payment, for apps that answer with one (error_code could_not_perform when absent).") var errorCode: String?
    @Option(help: "Play a named scenario of the request's app instead of --outcome (see chargekit scenarios): prints its callbacks, one a line, none for no-callback.")
    var scenario: String?
    @Flag(help: "Print one JSON object: provider, outcome or scenario, and callbacks (a list: none, one, or the same twice).")
    var json = false

    func run() async throws {
        try await Self.withOwnUsage {
            if let scenario {
                try await play(scenario)
                return
            }
            var apps = simulatedApps()
            apps.setUpAll(AppSetup(isReady: !notReady, failureCode: errorCode))
            let options = AnswerOptions(transactionID: transactionId, tip: tip)
            let callback = try await refusing { () async throws(ChargeKitError) -> String in
                guard SimulatedApps.provider(of: url) != nil else {
                    throw ChargeKitError.invalidURL("url", rule: "not a request URL of a payment app ChargeKit simulates")
                }
                return try apps.respond(to: url, outcome: outcome, options: options)
            }
            try report([callback], outcome: outcome.rawValue, scenario: nil)
        }
    }

    /// The apps as the options set them up: the account's currency and the default tax rate.
    private func simulatedApps() -> SimulatedApps {
        var apps = SimulatedApps()
        apps.setUpAll(AppSetup(accountCurrency: accountCurrency, defaultTaxRate: defaultTaxRate))
        return apps
    }

    /// Prints the callbacks, one a line, or as JSON with `--json`.
    private func report(_ callbacks: [String], outcome: String?, scenario: String?) throws {
        guard json else {
            for callback in callbacks { print(callback) }
            return
        }
        struct Printed: Encodable { let provider: String?; let outcome: String?; let scenario: String?; let callbacks: [String] }
        try printJSON(Printed(provider: SimulatedApps.provider(of: url)?.rawValue, outcome: outcome, scenario: scenario, callbacks: callbacks))
    }

    /// Prints the callbacks the request's app opens in the scenario named `name`.
    private func play(_ name: String) async throws {
        guard outcome == .approved else { throw ValidationError("--scenario plays its own outcome: leave out --outcome") }
        guard let provider = SimulatedApps.provider(of: url) else {
            throw ValidationError("not a request URL of a payment app ChargeKit simulates")
        }
        guard let scenario = Scenario.named(name, for: provider) else {
            let names = Scenario.catalog(for: provider).map(\.name).joined(separator: ", ")
            throw ValidationError("'\(name)' is not a scenario of \(provider.rawValue); its scenarios: \(names)")
        }
        let apps = simulatedApps()
        let callbacks = try await refusing { () async throws(ChargeKitError) -> [String] in try scenario.callbacks(for: url, apps: apps) }
        try report(callbacks, outcome: scenario.verdict(answering: url), scenario: scenario.name)
    }
}

extension String {
    /// The text with control characters (C0, DEL, C1), Unicode format characters
    /// (bidirectional overrides and isolates such as U+202E, zero-width characters, the
    /// byte order mark), the line and paragraph separators, and backslashes written as
    /// escapes (`\n`, `\u{202E}`), so that untrusted text prints as one line, reads in
    /// the order it is stored, and cannot drive the terminal.
    public var escapedForTerminal: String {
        var out = ""
        for scalar in unicodeScalars {
            switch scalar {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                switch scalar.properties.generalCategory {
                case .control, .format, .lineSeparator, .paragraphSeparator:
                    out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                default:
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
