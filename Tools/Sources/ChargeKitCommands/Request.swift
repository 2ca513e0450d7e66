import ArgumentParser
@_spi(Tools) import ChargeKit
import ChargeKitSimulators
import Foundation

struct Request: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the URL that opens a payment app.",
        subcommands: ToolApps.registered.map { $0.requestCommand as any ParsableCommand.Type }
    )

    enum ExampleFormat: String, ExpressibleByArgument, CaseIterable { case text, json }

    @Option(help: "Print an example request of every app (a charge of 12.50): text, one command a line, or json, one array of objects with provider and arguments (after 'chargekit request').")
    var examples: ExampleFormat?
    @Option(help: "With --examples: the URL the examples answer on.") var exampleCallback = "my-app://result"

    func run() async throws {
        guard let examples else { throw CleanExit.helpRequest(self) }
        struct Example: Encodable { let provider: String; let arguments: [String] }
        let rows = ToolApps.registered.map { app in
            Example(provider: app.provider.rawValue, arguments: [app.provider.rawValue] + app.exampleArguments(callbackURL: exampleCallback))
        }
        guard examples == .text else { return try printJSON(rows) }
        for row in rows { print((["chargekit", "request"] + row.arguments.map(Self.quoted)).joined(separator: " ")) }
    }

    /// An argument as a shell reads it back.
    static func quoted(_ argument: String) -> String {
        argument.allSatisfy { $0.isLetter || $0.isNumber || "-_./:=@".contains($0) } ? argument : "'" + argument.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}

/// What every `request` subcommand takes beside its app's fields: a ledger to record
/// the hand-off in, and how to print it.
struct LedgerOption: ParsableArguments {
    @Option(help: "Record the charge in this ledger (a file path, or postgres://user@host:port/db[?table_prefix=p_]) and add its nonce to the callback URL.")
    var ledger: String?
    @Flag(help: "Print one JSON object: url, provider, and the nonce when --ledger records it.")
    var json = false
    @Option(help: "With --ledger: seconds the hand-off waits for its callback before the ledger refuses it as expired (1 to 86400; 1800 when absent).")
    var ttl: Int?

    func validate() throws {
        if let ttl, !(1...86_400).contains(ttl) { throw ValidationError("--ttl must be 1 to 86400 seconds, got \(ttl)") }
        if ttl != nil, ledger == nil { throw ValidationError("--ttl needs --ledger: only a recorded hand-off expires") }
    }

    /// Records the hand-off when a ledger is given; otherwise builds it without a nonce.
    func emit(
        _ build: @escaping @Sendable (Nonce) throws(ChargeKitError) -> HandoffRequest,
        plain: () throws(ChargeKitError) -> String
    ) async throws {
        let url: String
        var nonce: String?
        do throws(ChargeKitError) {
            if let ledger {
                let opened = try await openLedger(ledger)
                defer { opened.close() }
                let store = opened.store
                let issued = try await ChargeLedger(store: store, timeToLive: TimeInterval(ttl ?? 30 * 60)).issue(build)
                (url, nonce) = (issued.request.url, issued.charge.nonce.value)
            } else {
                url = try plain()
            }
        } catch {
            throw invalidValue(error)
        }
        guard json else {
            print(url)
            return
        }
        struct Printed: Encodable { let url: String; let provider: String?; let nonce: String? }
        try printJSON(Printed(url: url, provider: SimulatedApps.provider(of: url)?.rawValue, nonce: nonce))
    }
}
