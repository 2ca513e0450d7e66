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
