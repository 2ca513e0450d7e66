import ArgumentParser
import ChargeKitCommands
import Foundation
import ToolsPlatform

/// `chargekit`: requests, callbacks, the simulators and the demo, built from ChargeKit,
/// its simulators and the argument parser alone. What needs a server or a database
/// driver (`sandbox`, `upi`, `demo --provider citcon`, a PostgreSQL `--ledger`) is
/// handed, with the same arguments, to `chargekit-server` beside this executable.
@main
struct ChargeKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chargekit",
        abstract: CommandHooks.abstract,
        discussion: "sandbox and upi (and demo --provider citcon, and PostgreSQL ledgers) run in chargekit-server, "
            + "which chargekit starts with the same arguments; build it with "
            + "swift build --package-path Tools --product chargekit-server.",
        version: CommandHooks.version,
        subcommands: sharedCommands + [ServerCommand.self]
    )

    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if ServerCommand.handles(arguments) { ServerCommand.handOff(arguments) }
        CommandHooks.install(root: ChargeKitCommand.self)
        await parseAndRun(arguments)
    }
}

/// The commands `chargekit-server` runs, listed in `chargekit --help`.
struct ServerCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sandbox",
        abstract: "The local Citcon UPI sandbox server; also `chargekit upi …` (both run in chargekit-server).",
        shouldDisplay: true
    )

    /// Whether `arguments` are for chargekit-server.
    static func handles(_ arguments: [String]) -> Bool {
        guard let first = arguments.first else { return false }
        if first == "sandbox" || first == "upi" { return true }
        if first == "demo", let index = arguments.firstIndex(of: "--provider"), index + 1 < arguments.count,
           arguments[index + 1] == "citcon" { return true }
        if arguments.contains("--provider=citcon") && first == "demo" { return true }
        return namesPostgreSQL(arguments)
    }

    /// Whether an argument (or an `--option=value`'s value) is a PostgreSQL URL.
    static func namesPostgreSQL(_ arguments: [String]) -> Bool {
        arguments.contains { isPostgresURL($0) || isPostgresURL($0.split(separator: "=", maxSplits: 1).last.map(String.init) ?? "") }
    }

    /// Replaces this process with chargekit-server and the same arguments (signals,
    /// standard streams and the exit status are then chargekit-server's own).
    static func handOff(_ arguments: [String]) -> Never {
        let own = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let server = own.deletingLastPathComponent().appendingPathComponent("chargekit-server").path
        let postgres = namesPostgreSQL(arguments)
        guard FileManager.default.isExecutableFile(atPath: server) else {
            FileHandle.standardError.write(Data("""
                chargekit: '\(arguments.first ?? "")' runs in chargekit-server, which is not built beside \(own.path);
                build it with: \(postgres ? PostgreSQLBuild.command : "swift build --package-path Tools --product chargekit-server")

                """.utf8))
            Platform.exit(69)
        }
        let argv = ([server] + arguments).map { strdup($0) } + [nil]
        execv(server, argv)
        FileHandle.standardError.write(Data("chargekit: cannot start \(server): \(String(cString: strerror(errno)))\n".utf8))
        Platform.exit(69)
    }
}
