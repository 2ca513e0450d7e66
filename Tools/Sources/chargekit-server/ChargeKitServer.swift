import ArgumentParser
@_spi(Tools) import ChargeKit
import ChargeKitCommands
#if PostgreSQL
import ChargeKitPostgres
#endif
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
        #if PostgreSQL
        let postgresLedger: (@Sendable (String) async throws(ChargeKitError) -> OpenLedger)? = { spec throws(ChargeKitError) in
            let store = try await PostgresLedgerStore.connect(url: spec, tablePrefix: PostgresSupport.tablePrefix(in: spec, fallback: "chargekit_"))
            return OpenLedger(store: store, close: { store.close() })
        }
        #else
        let postgresLedger: (@Sendable (String) async throws(ChargeKitError) -> OpenLedger)? = nil
        #endif
        CommandHooks.install(root: ChargeKitServerCommand.self, postgresLedger: postgresLedger,
                             citconDemo: { json in try await CitconDemo.run(json: json) })
        await parseAndRun()
    }
}
