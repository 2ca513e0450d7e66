@testable import CitconSandbox
@_spi(Tools) import CitconUPI
import Foundation
import Testing

/// A charge's stored document (SQLite's and PostgreSQL's `doc`) reads back as the record
/// it was written from, whatever its text holds.
@Suite("Charge records: the stored document")
struct ChargeRecordDocumentTests {
    /// A reproducible source of random values (xorshift64*), so a failure can be rerun.
    struct Random {
        var state: UInt64
        mutating func next() -> UInt64 {
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            return state &* 2_685_821_657_736_338_717
        }
        mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
        mutating func chance() -> Bool { below(2) == 0 }

        /// Every ASCII byte (controls, quote, backslash, slash, DEL), and non-ASCII
        /// characters of two, three and four UTF-8 bytes, U+2028 and a BOM among them.
        static let pool: [Character] = (0..<0x80).map { Character(Unicode.Scalar(UInt8($0))) }
            + ["é", "€", "😀", "\u{2028}", "\u{2029}", "\u{FEFF}", "中", "\u{85}"]

        mutating func text() -> String {
            String((0..<below(14)).map { _ in Self.pool[below(Self.pool.count)] })
        }
        mutating func optional<T>(_ make: (inout Random) -> T) -> T? { chance() ? make(&self) : nil }
        /// Times both in whole seconds (sent in seconds) and not (sent in milliseconds).
        mutating func time() -> Int64 {
            let seconds = Int64(below(4_000_000_000))
            return chance() ? seconds * 1000 : seconds * 1000 + Int64(below(999) + 1)
        }
    }

    static func record(_ random: inout Random) -> ChargeRecord {
        let statuses: [CPayStatus] = [.initiated, .pending, .succeeded, .failed, .canceled, .expired, .authorized]
        var urls = CPayUrls()
        (urls.ipn, urls.success, urls.fail, urls.cancel) = (random.text(), random.text(), random.text(), random.text())
        var record = ChargeRecord(
            id: random.text(), chargeToken: random.text(), reference: random.text(), amount: random.below(1_000_000_000),
            currency: random.text(), country: random.text(), autoCapture: random.chance(), note: random.text(),
            method: random.optional { $0.text() }, status: .initiated, urls: urls, returnURL: random.optional { $0.text() },
            timeCreated: random.time(), expiresAt: random.time())
        // Moves through statuses (each adds to the history), with operations on the way.
        for _ in 0..<random.below(4) {
            let next = statuses[random.below(statuses.count)]
            let operation = CPayOperation(id: random.text(), object: random.chance() ? "refund" : "capture",
                                          reference: random.optional { $0.text() }, amount: random.below(10_000),
                                          currency: random.optional { $0.text() }, status: next,
                                          // In whole seconds, as the sandbox records an operation (its answers give seconds).
                                          timeCreated: random.optional { $0.time() / 1000 * 1000 }, reason: random.optional { $0.text() })
            let time = random.time()
            _ = record.apply(now: time) { charge in
                charge.status = next
                if random.chance() { charge.captures.append(operation) } else { charge.refunds.append(operation) }
            }
        }
        record.timeAuthorized = random.optional { $0.time() }
        record.timeCaptured = random.optional { $0.time() }
        record.timeCanceled = random.optional { $0.time() }
        record.amountCaptured = random.optional { $0.below(1_000_000) }
        record.amountRefunded = random.optional { $0.below(1_000_000) }
        record.scenario = random.optional { $0.text() }
        record.ipnFault = random.optional { $0.text() }
        return record
    }

    @Test("random charge records: every ASCII byte and non-ASCII text, absent and present members; each reads back the same")
    func randomDocuments() throws {
        var random = Random(state: 0x2545_F491_4F6C_DD1D)
        for _ in 0..<600 {
            let record = Self.record(&random)
            let read = try JSONDecoder().decode(ChargeRecord.self, from: record.document)
            #expect(read == record)
            if read != record { return }
        }
    }

    /// A JSON document's members and values, whatever their order and escapes (read
    /// with JSONDecoder: JSONSerialization drops a U+FEFF that follows an escape).
    indirect enum Tree: Decodable, Equatable {
        case null, bool(Bool), integer(Int64), string(String), array([Tree]), object([String: Tree])

        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer()
            if value.decodeNil() { self = .null }
            else if let bool = try? value.decode(Bool.self) { self = .bool(bool) }
            else if let integer = try? value.decode(Int64.self) { self = .integer(integer) }
            else if let string = try? value.decode(String.self) { self = .string(string) }
            else if let array = try? value.decode([Tree].self) { self = .array(array) }
            else { self = .object(try value.decode([String: Tree].self)) }
        }
    }

    static func canonical(_ json: Data) throws -> Tree { try JSONDecoder().decode(Tree.self, from: json) }

    @Test("a record written before the sandbox kept a status history has none in its document either")
    func documentWithoutHistory() throws {
        let old = Data(#"{"id":"1","chargeToken":"t","reference":"r","amount":1,"currency":"USD","country":"US","autoCapture":false,"note":"","status":"succeeded","urls":{"ipn":"","success":"","fail":"","cancel":""},"timeCreated":1000,"expiresAt":2000,"captures":[],"refunds":[]}"#.utf8)
        let record = try JSONDecoder().decode(ChargeRecord.self, from: old)
        #expect(try !String(decoding: record.document, as: UTF8.self).contains("history"))
        #expect(try Self.canonical(record.document) == Self.canonical(old))
    }
}
