import ArgumentParser
@_spi(Tools) import ChargeKit
import Foundation

/// `chargekit ledger`: what an operator runs on a ledger file after a crash.
struct LedgerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ledger",
        abstract: "Inspect a ledger file after a crash, a power cut or a disk error, and repair it.",
        subcommands: [Check.self]
    )

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read every record of a ledger file: name the damaged bytes (offset and count) and the hand-offs whose state they hid.",
            discussion: "Exit 0 when the file is whole (or was repaired), 65 when it is damaged. A damaged file is still used by "
                + "ChargeKit: its intact records are read, and the hand-offs listed here are refused until settled with "
                + "'chargekit resolve'. --repair writes a compacted file of every intact record and keeps the damaged one "
                + "beside it (<file>.damaged-<generation>); the next write of any process does the same."
        )

        @Argument(help: "The ledger file.") var file: String
        @Flag(help: "Rewrite the file from its intact records, keeping the damaged file beside it.") var repair = false
        @Flag(help: "Print one JSON object: file, entries, outstanding, damage (path, offset, byte_count), damaged_entries (nonce, reason), repaired.")
        var json = false

        func run() async throws {
            try await Self.withOwnUsage {
                guard FileManager.default.fileExists(atPath: file) else {
                    throw refuse(.storage("\(file): there is no ledger file here"))
                }
                let report = try await refusing { () async throws(ChargeKitError) -> Report in
                    let store = FileLedgerStore(path: file)
                    var damage = try await store.damage()
                    if repair { damage = try await store.repair() }
                    let charges = try await store.charges()
                    return Report(
                        file: file, entries: charges.count, outstanding: charges.filter { $0.consumedAt == nil }.count,
                        damage: damage.map { Report.Damage(path: $0.path, offset: $0.offset, byteCount: $0.byteCount) },
                        damagedEntries: charges.compactMap { charge in
                            charge.damage.map { Report.DamagedEntry(nonce: charge.nonce.value, reason: $0) }
                        },
                        repaired: repair
                    )
                }
                if json {
                    try printJSON(report)
                } else {
                    print("\(report.file): \(report.entries) entries, \(report.outstanding) unanswered")
                    for damage in report.damage {
                        print("damaged: \(damage.byteCount) bytes at byte \(damage.offset)")
                    }
                    for entry in report.damagedEntries {
                        print("state unknown: \(entry.nonce) (check the payment app's history, then chargekit resolve)")
                    }
                    if report.damage.isEmpty && report.damagedEntries.isEmpty { print("no damage") }
                    if repair && !report.damage.isEmpty { print("repaired: the damaged file is kept beside it") }
                }
                if !report.damage.isEmpty && !repair { throw ExitCode(65) }
            }
        }

        struct Report: Encodable {
            let file: String
            let entries: Int
            let outstanding: Int
            let damage: [Damage]
            let damagedEntries: [DamagedEntry]
            let repaired: Bool

            struct Damage: Encodable {
                let path: String
                let offset: Int
                let byteCount: Int
                enum CodingKeys: String, CodingKey {
                    case path, offset
                    case byteCount = "byte_count"
                }
            }

            struct DamagedEntry: Encodable {
                let nonce: String
                let reason: String
            }

            enum CodingKeys: String, CodingKey {
                case file, entries, outstanding, damage, repaired
                case damagedEntries = "damaged_entries"
            }
        }
    }
}
