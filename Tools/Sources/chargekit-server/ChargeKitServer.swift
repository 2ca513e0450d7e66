import ArgumentParser
@_spi(Tools) import ChargeKit
import ChargeKitCommands
import ChargeKitPostgres
import Foundation

/// `chargekit-server`: every command of `chargekit`, and what needs a server or a
/// database driver: the sandbox, `upi`, `demo --provider citcon`, PostgreSQL ledgers.
/// `chargekit` hands these to it; it may also be run directly.
@main
struct ChargeKitServerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chargekit",
        abstract: CommandHooks.abstract,
        version: CommandHooks.version,
        subcommands: sharedCommands + [Sandbox.self, UPI.self]
    )

    static func main() async {
        CommandHooks.install(
            root: ChargeKitServerCommand.self,
            postgresLedger: { spec throws(ChargeKitError) in
                let store = try await PostgresLedgerStore.connect(url: spec, tablePrefix: PostgresSupport.tablePrefix(in: spec, fallback: "chargekit_"))
                return OpenLedger(store: store, close: { store.close() })
            },
            citconDemo: { json in try await CitconDemo.run(json: json) }
        )
        await parseAndRun()
    }
}
