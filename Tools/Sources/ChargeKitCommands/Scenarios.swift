import ArgumentParser
@_spi(Tools) import ChargeKit
import ChargeKitSimulators
import Foundation

struct Scenarios: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the scenarios the simulators play (simulate --scenario NAME, the sandbox's /apps/open), each app's own and the hand-off failures.",
        discussion: "outcome is what parse --json reports for the scenario's callback; none where no callback comes."
    )

    @Option(help: "Only this app's scenarios: ccterminal, sumup, zettle or square.") var provider: PaymentProvider?
    @Flag(help: "Print one JSON array of objects with provider, name, outcome and description.") var json = false

    func run() async throws {
        try await Self.withOwnUsage {
            let rows = Scenario.catalog.filter { provider == nil || $0.provider == provider }.map(Row.init)
            if json {
                try printJSON(rows)
                return
            }
            let width = rows.map(\.name.count).max() ?? 0
            for row in rows {
                let name = row.name.padding(toLength: width, withPad: " ", startingAt: 0)
                let outcome = row.outcome.padding(toLength: 9, withPad: " ", startingAt: 0)
                print("\(row.provider.padding(toLength: 10, withPad: " ", startingAt: 0)) \(name)  \(outcome) \(row.description)")
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
            outcome = scenario.outcome?.rawValue ?? "none"
            description = scenario.description
        }
    }
}
