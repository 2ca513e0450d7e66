import ArgumentParser
@_spi(Tools) import ChargeKit
import ChargeKitSimulators
import Foundation

/// The commands both executables share (`request`, `parse`, `simulate`, `demo`), and
/// what each executable plugs in: `chargekit` is these alone, built from ChargeKit, its
/// simulators and the argument parser; `chargekit-server` adds the sandbox, `upi`, the
/// Citcon demo and PostgreSQL ledgers, and `chargekit` hands it those (see `Handoff`).
public enum CommandHooks {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var rootCommand: ParsableCommand.Type?
    nonisolated(unsafe) private static var postgresLedger: (@Sendable (String) async throws(ChargeKitError) -> OpenLedger)?
    nonisolated(unsafe) private static var citconDemo: (@Sendable (_ json: Bool) async throws -> Void)?

    /// The version both executables print.
    public static let version = "chargekit 0.5.0"
    /// What `chargekit --help` says the tool is, naming every registered app.
    public static var abstract: String {
        "Build, simulate and verify payment-app hand-offs (\(ToolApps.displayNames)) and run the Citcon UPI sandbox."
    }

    /// Sets the executable's root command (for usage lines) and what it adds.
    public static func install(root: ParsableCommand.Type,
                               postgresLedger: (@Sendable (String) async throws(ChargeKitError) -> OpenLedger)? = nil,
                               citconDemo: (@Sendable (_ json: Bool) async throws -> Void)? = nil) {
        lock.withLock {
            rootCommand = root
            self.postgresLedger = postgresLedger
            self.citconDemo = citconDemo
        }
    }

    static var root: ParsableCommand.Type? { lock.withLock { rootCommand } }
    static var postgres: (@Sendable (String) async throws(ChargeKitError) -> OpenLedger)? { lock.withLock { postgresLedger } }
    static var citcon: (@Sendable (_ json: Bool) async throws -> Void)? { lock.withLock { citconDemo } }
}

/// The exit status for a ChargeKit error, reason on stderr (escaped: it may quote the
/// input): 65 for a corrupt ledger, 74 for a storage or I/O failure (a full ledger
/// included), 2 for an invalid, forged or replayed callback or request.
public func refuse(_ error: ChargeKitError) -> ExitCode {
    FileHandle.standardError.write(Data("chargekit: \(error.description.escapedForTerminal)\n".utf8))
    switch error {
    case .corruptStorage: return ExitCode(65)
    case .storage, .storageFull: return ExitCode(74)
    default: return ExitCode(2)
    }
}

extension ParsableCommand {
    /// Runs a command's work so that an invalid flag or value found there (a
    /// `ValidationError`) exits 64 with this subcommand's own usage line, as one found
    /// while parsing does, instead of the root command's.
    public static func withOwnUsage(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as ValidationError {
            let usage = (CommandHooks.root ?? Self.self).usageString(for: Self.self)
            let name = CommandParserPath.name(of: Self.self)
            FileHandle.standardError.write(Data("""
                Error: \(error.message.escapedForTerminal)
                Usage: \(usage)
                  See '\(name) --help' for more information.

                """.utf8))
            throw ExitCode(64)
        }
    }
}

/// The full name of a subcommand (`chargekit ledger check`), from the tree.
enum CommandParserPath {
    static func name(of command: ParsableCommand.Type) -> String {
        func path(from node: ParsableCommand.Type) -> [String]? {
            let name = node.configuration.commandName ?? String(describing: node).lowercased()
            if node == command { return [name] }
            for child in node.configuration.subcommands {
                if let rest = path(from: child) { return [name] + rest }
            }
            return nil
        }
        return (CommandHooks.root.flatMap(path(from:)) ?? ["chargekit"]).joined(separator: " ")
    }
}

/// An invalid value for a request (a field that breaks the app's rules) is a usage
/// error, exit 64; a storage failure keeps its own status (65 corrupt, 74 I/O).
public func invalidValue(_ error: ChargeKitError) -> any Error {
    switch error {
    case .corruptStorage, .storage, .storageFull: return refuse(error)
    default: return ValidationError(error.description)
    }
}

/// Makes an app's request from the command's values: a value the request refuses is a
/// usage error (exit 64, naming the field), as a flag the parser refuses is.
public func madeRequest<T>(_ make: () throws(ChargeKitError) -> T) throws -> T {
    do throws(ChargeKitError) {
        return try make()
    } catch {
        throw invalidValue(error)
    }
}

/// Runs `body`, turning a ChargeKitError into exit status 2 with the reason on stderr.
public func refusing<T>(_ body: () async throws(ChargeKitError) -> T) async throws -> T {
    do throws(ChargeKitError) {
        return try await body()
    } catch {
        throw refuse(error)
    }
}

/// The ledger `--ledger` names: a file path, or a PostgreSQL URL
/// (`postgres://user@host:port/db`, optionally `?table_prefix=shop_`) shared by every
/// instance of a web checkout. The same command line works with either.
func openLedger(_ spec: String) async throws(ChargeKitError) -> OpenLedger {
    guard isPostgresURL(spec) else { return OpenLedger(store: FileLedgerStore(path: spec), close: {}) }
    guard let open = CommandHooks.postgres else { throw .storage(PostgreSQLBuild.needed(for: "--ledger")) }
    return try await open(spec)
}

/// Whether a `--ledger`/`--db` value names PostgreSQL (`postgres://` or `postgresql://`).
public func isPostgresURL(_ spec: String) -> Bool {
    let lower = spec.lowercased()
    return lower.hasPrefix("postgres://") || lower.hasPrefix("postgresql://")
}

public func parseExtras(_ extras: [String]) throws -> [QueryItem] {
    try extras.map { text in
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw ValidationError("--extra must be NAME=VALUE, got '\(text)'")
        }
        return QueryItem(String(text[..<equals]), String(text[text.index(after: equals)...]))
    }
}

public func parseCurrency(_ code: String) throws -> Currency {
    do throws(ChargeKitError) { return try Currency(code: code) } catch { throw ValidationError(error.description) }
}

public func parseMoney(_ text: String, _ code: String, field: String = "amount") throws -> Money {
    let currency = try parseCurrency(code)
    do throws(ChargeKitError) { return try Money(parsing: text, currency: currency, field: field) } catch {
        throw ValidationError(error.description)
    }
}

extension ChargeOutcome: @retroactive ExpressibleByArgument {
    public init?(argument: String) {
        if argument == "error" { self = .failed } else { self.init(rawValue: argument) }
    }
}

extension PaymentProvider: @retroactive ExpressibleByArgument {}

extension AsyncParsableCommand {
    /// Parses `arguments` (the process's own when `nil`) against this root command and
    /// runs the subcommand they name, exiting as ArgumentParser does on an error: the
    /// `main` of both executables, each of which first installs its ``CommandHooks``.
    public static func parseAndRun(_ arguments: [String]? = nil) async {
        do {
            var command = try parseAsRoot(arguments)
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: error)
        }
    }
}

/// The commands both executables share, for their root commands.
public let sharedCommands: [ParsableCommand.Type] = [Request.self, Parse.self, Simulate.self, Scenarios.self, Demo.self, Doctor.self, Pending.self, Resolve.self, LedgerCommand.self]

/// Prints `value` as one line of JSON with sorted keys and unescaped slashes: every
/// `--json` of these commands. Written at once (not through `print`'s buffer), so that a
/// script reading a pipe from a process that keeps running sees it.
public func printJSON(_ value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    FileHandle.standardOutput.write(try encoder.encode(value) + Data("\n".utf8))
}
