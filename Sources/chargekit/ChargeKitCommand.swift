import ArgumentParser
import ChargeKit
import ChargeKitPostgres
import ChargeKitSimulators
import Foundation

@main
struct ChargeKitCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chargekit",
        abstract: "Build, simulate and verify payment-app hand-offs (Credit Card Terminal, SumUp, Zettle) and run the Citcon UPI sandbox.",
        version: "chargekit 0.3.0",
        subcommands: [Request.self, Parse.self, Simulate.self, Demo.self, Sandbox.self, UPI.self]
    )
}

/// The exit status for a ChargeKit error, reason on stderr (escaped: it may quote the
/// input): 65 for a corrupt ledger, 74 for a storage or I/O failure (a full ledger
/// included), 2 for an invalid, forged or replayed callback or request.
func refuse(_ error: ChargeKitError) -> ExitCode {
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
    static func withOwnUsage(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let error as ValidationError {
            let usage = ChargeKitCommand.usageString(for: Self.self)
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

/// The full name of a subcommand (`chargekit request ccterminal`), from the tree.
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
        return (path(from: ChargeKitCommand.self) ?? ["chargekit"]).joined(separator: " ")
    }
}

/// An invalid value for a request (a field that breaks the app's rules) is a usage
/// error, exit 64; a storage failure keeps its own status (65 corrupt, 74 I/O).
func invalidValue(_ error: ChargeKitError) -> any Error {
    switch error {
    case .corruptStorage, .storage, .storageFull: return refuse(error)
    default: return ValidationError(error.description)
    }
}

/// Runs `body`, turning a ChargeKitError into exit status 2 with the reason on stderr.
func refusing<T>(_ body: () async throws(ChargeKitError) -> T) async throws -> T {
    do throws(ChargeKitError) {
        return try await body()
    } catch {
        throw refuse(error)
    }
}

/// The ledger `--ledger` names: a file path, or a PostgreSQL URL
/// (`postgres://user@host:port/db`, optionally `?table_prefix=shop_`) shared by every
/// instance of a web checkout. The same command line works with either.
func openLedger(_ spec: String) async throws(ChargeKitError) -> any LedgerStore {
    guard PostgresSupport.isURL(spec) else { return FileLedgerStore(path: spec) }
    return try await PostgresLedgerStore.connect(url: spec, tablePrefix: PostgresSupport.tablePrefix(in: spec, fallback: "chargekit_"))
}

func parseExtras(_ extras: [String]) throws -> [QueryItem] {
    try extras.map { text in
        guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
            throw ValidationError("--extra must be NAME=VALUE, got '\(text)'")
        }
        return QueryItem(String(text[..<equals]), String(text[text.index(after: equals)...]))
    }
}

func parseCurrency(_ code: String) throws -> Currency {
    do throws(ChargeKitError) { return try Currency(code: code) } catch { throw ValidationError(error.description) }
}

func parseMoney(_ text: String, _ code: String, field: String = "amount") throws -> Money {
    let currency = try parseCurrency(code)
    do throws(ChargeKitError) { return try Money(parsing: text, currency: currency, field: field) } catch {
        throw ValidationError(error.description)
    }
}

extension ChargeOutcome: ExpressibleByArgument {
    public init?(argument: String) {
        if argument == "error" { self = .failed } else { self.init(rawValue: argument) }
    }
}

extension PaymentProvider: ExpressibleByArgument {}
