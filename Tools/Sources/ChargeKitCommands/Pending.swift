import ArgumentParser
@_spi(Tools) import ChargeKit
import Foundation

struct Pending: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the hand-offs of a ledger still waiting for their callback: nonce, provider, amount, reference, age."
    )

    @Option(help: "The ledger: a file path, or a postgres:// URL.") var ledger: String
    @Flag(help: "Print one JSON array of objects with nonce, provider, amount, currency, reference and age_seconds.") var json = false

    func run() async throws {
        try await Self.withOwnUsage {
            let charges = try await refusing { () async throws(ChargeKitError) -> [PendingCharge] in
                let opened = try await openLedger(ledger)
                defer { opened.close() }
                return try await ChargeLedger(store: opened.store).outstanding()
            }
            let now = Date()
            let rows = charges.map { charge in
                Row(nonce: charge.nonce.value, provider: charge.provider.rawValue, amount: charge.request.amount?.formatted,
                    currency: (charge.request.currency ?? charge.request.amount?.currency)?.code, reference: charge.request.reference,
                    ageSeconds: max(0, Int(now.timeIntervalSince(charge.createdAt))))
            }
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(rows), as: UTF8.self))
                return
            }
            if rows.isEmpty { print("no hand-off is waiting for its callback") }
            for row in rows {
                let amount = [row.amount, row.currency].compactMap { $0 }.joined(separator: " ")
                print("\(row.nonce)  \(row.provider)  \(amount.isEmpty ? "-" : amount)  \((row.reference ?? "-").escapedForTerminal)  \(row.ageSeconds) s")
            }
        }
    }

    struct Row: Encodable {
        let nonce: String
        let provider: String
        let amount: String?
        let currency: String?
        let reference: String?
        let ageSeconds: Int

        enum CodingKeys: String, CodingKey {
            case nonce, provider, amount, currency, reference
            case ageSeconds = "age_seconds"
        }
    }
}
