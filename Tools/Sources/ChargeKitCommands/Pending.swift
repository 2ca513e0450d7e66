import ArgumentParser
@_spi(Tools) import ChargeKit
import Foundation

struct Pending: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the hand-offs of a ledger no callback answered (those past their time to live too): nonce, provider, amount, reference, age."
    )

    @Option(help: "The ledger: a file path, or a postgres:// URL.") var ledger: String
    @Flag(help: "Print one JSON array of objects with nonce, provider, amount, currency, reference, age_seconds, expired and damaged.") var json = false

    func run() async throws {
        try await Self.withOwnUsage {
            let charges = try await refusing { () async throws(ChargeKitError) -> [PendingCharge] in
                // Listing makes nothing: a ledger that is not there is said so, no folder or lock made for it.
                if !isPostgresURL(ledger), !FileManager.default.fileExists(atPath: ledger) {
                    throw .storage("\(ledger): there is no ledger file here (request --ledger makes one)")
                }
                let opened = try await openLedger(ledger)
                defer { opened.close() }
                if let file = opened.store as? FileLedgerStore {
                    for damage in try await file.damage() {
                        FileHandle.standardError.write(Data("chargekit: \(damage.description.escapedForTerminal) (chargekit ledger check)\n".utf8))
                    }
                }
                return try await ChargeLedger(store: opened.store).unanswered()
            }
            let now = Date()
            let rows = charges.map { charge in
                Row(nonce: charge.nonce.value, provider: charge.provider.rawValue, amount: charge.request.amount?.formatted,
                    currency: (charge.request.currency ?? charge.request.amount?.currency)?.code, reference: charge.request.reference,
                    ageSeconds: max(0, Int(now.timeIntervalSince(charge.createdAt))), expired: now >= charge.expiresAt,
                    damaged: charge.damage != nil)
            }
            if json {
                try printJSON(rows)
                return
            }
            if rows.isEmpty { print("no hand-off is waiting for its callback") }
            for row in rows {
                let amount = [row.amount, row.currency].compactMap { $0 }.joined(separator: " ")
                print("\(row.nonce)  \(row.provider)  \(amount.isEmpty ? "-" : amount)  \((row.reference ?? "-").escapedForTerminal)  \(row.ageSeconds) s\(row.expired ? "  expired" : "")\(row.damaged ? "  damaged" : "")")
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
        /// Past its time to live: its callback would be refused; check and resolve it.
        let expired: Bool
        /// Its state was lost to damage in the ledger's file: its callback is refused; check and resolve it.
        let damaged: Bool

        enum CodingKeys: String, CodingKey {
            case nonce, provider, amount, currency, reference, expired, damaged
            case ageSeconds = "age_seconds"
        }
    }
}

struct Resolve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Settle by hand a hand-off whose callback never came, after checking the payment app's history.",
        usage: "chargekit resolve <nonce> --ledger <ledger> --outcome approved|declined|cancelled --note <note> [--json]",
        discussion: "The note is kept with the ledger's entry; a callback that comes later for it is refused, naming the "
            + "settlement (exit 2). An unknown nonce, or one already answered or settled, exits 2."
    )

    // Collected as unrecognized input: a nonce may start with `-` (its alphabet is
    // base64url), which would otherwise read as an option.
    @Argument(parsing: .allUnrecognized, help: "The hand-off's nonce (chargekit pending lists them); it may start with '-'.")
    var nonce: [String] = []
    @Option(help: "The ledger: a file path, or a postgres:// URL.") var ledger: String
    @Option(help: "What the payment app's history shows: approved, declined or cancelled.") var outcome: String
    @Option(help: "How it was checked, such as 'in the payment app's history: TX 4711'; kept with the entry.") var note: String
    @Flag(help: "Print the settled hand-off as one JSON object: nonce, provider, outcome, note, resolved_at.") var json = false

    func run() async throws {
        try await Self.withOwnUsage {
            // A history shows a payment taken, declined or cancelled; `failed` is no verdict to settle with.
            guard let outcome = ChargeOutcome(rawValue: outcome), outcome != .failed else {
                throw ValidationError("--outcome must be approved, declined or cancelled (what the payment app's history shows), got \(outcome)")
            }
            guard nonce.count == 1, let given = nonce.first else {
                throw ValidationError(nonce.isEmpty ? "Missing expected argument '<nonce>'" : "one nonce, not \(nonce.count) arguments: \(nonce.joined(separator: " "))")
            }
            let settled = try await refusing { () async throws(ChargeKitError) -> PendingCharge in
                let nonce = try Nonce(given, field: "nonce")
                let opened = try await openLedger(ledger)
                defer { opened.close() }
                return try await ChargeLedger(store: opened.store).resolve(nonce, as: outcome, note: note)
            }
            guard let resolution = settled.resolution else { throw ExitCode.failure }
            let row = Row(nonce: settled.nonce.value, provider: settled.provider.rawValue, outcome: resolution.outcome.rawValue,
                          note: resolution.note, resolvedAt: ISO8601DateFormatter().string(from: resolution.resolvedAt))
            if json {
                try printJSON(row)
            } else {
                print("settled \(row.nonce) (\(row.provider)) as \(row.outcome): \(row.note.escapedForTerminal)")
            }
        }
    }

    struct Row: Encodable {
        let nonce: String
        let provider: String
        let outcome: String
        let note: String
        let resolvedAt: String

        enum CodingKeys: String, CodingKey {
            case nonce, provider, outcome, note
            case resolvedAt = "resolved_at"
        }
    }
}
