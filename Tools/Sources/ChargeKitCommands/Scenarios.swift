import ArgumentParser
@_spi(Tools) import ChargeKit
import ChargeKitSimulators
import Foundation
import SandboxScenarios

struct Scenarios: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the scenarios the simulators play (simulate --scenario NAME, the sandbox's /apps/open), each app's own and the hand-off failures, and the local sandbox's own (its ChargeKit-Scenario header).",
        discussion: "outcome is what the ledger reads of the scenario's callback: refused where it refuses it, none where no callback comes; for the sandbox's, the charge's status once paid."
    )

    @Option(help: "Only this app's scenarios: \(ToolApps.listed(["sandbox"])) (the Citcon sandbox's ChargeKit-Scenario header).")
    var provider: String?
    @Flag(help: "Print one JSON array of objects with provider, name, outcome and description.") var json = false

    func run() async throws {
        try await Self.withOwnUsage {
            if let provider, provider != "sandbox", PaymentProvider(rawValue: provider) == nil {
                throw ValidationError("--provider must be one of \((PaymentProvider.allCases.map(\.rawValue) + ["sandbox"]).joined(separator: ", ")), got \(provider)")
            }
            let apps = Scenario.catalog.filter { provider == nil || $0.provider.rawValue == provider }.map(Row.init)
            let sandbox = provider == nil || provider == "sandbox" ? SandboxScenario.allCases.map(Row.init) : []
            let rows = apps + sandbox
            if json {
                try printJSON(rows)
                return
            }
            let width = rows.map(\.name.count).max() ?? 0
            // Columns as wide as their longest value: an outcome is never cut (`authorized`).
            let outcomeWidth = rows.map(\.outcome.count).max() ?? 0
            let providerWidth = max(10, rows.map(\.provider.count).max() ?? 0)
            for row in rows {
                let name = row.name.padding(toLength: width, withPad: " ", startingAt: 0)
                let outcome = row.outcome.padding(toLength: outcomeWidth, withPad: " ", startingAt: 0)
                print("\(row.provider.padding(toLength: providerWidth, withPad: " ", startingAt: 0)) \(name)  \(outcome) \(row.description)")
            }
        }
    }

    /// One scenario as printed.
    struct Row: Encodable {
        let provider: String
        let name: String
        let outcome: String
        let description: String

        init(_ scenario: Scenario) {
            provider = scenario.provider.rawValue
            name = scenario.name
            outcome = scenario.verdict
            description = scenario.description
        }

        init(_ scenario: SandboxScenario) {
            provider = "sandbox"
            name = scenario.rawValue
            outcome = scenario.outcome
            description = scenario.description
        }
    }
}
