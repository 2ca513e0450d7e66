@testable import CitconSandbox
@_spi(Tools) import CitconUPI
import Foundation
import Testing

/// The create answer written by ``WireJSON`` is, byte for byte, what `UPIWire.encoder()`
/// writes for the same envelope.
@Suite("Wire JSON: the create answer without JSONEncoder")
struct WireJSONTests {
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

    static func created(_ random: inout Random) -> UPIWire.ChargeCreated {
        let statuses: [CPayStatus] = [.initiated, .pending, .succeeded, .failed, .canceled, .expired, .authorized]
        var created = UPIWire.ChargeCreated(
            id: random.text(), chargeToken: random.text(), status: statuses[random.below(statuses.count)],
            reference: random.text(), amount: random.chance() ? random.below(1_000_000_000) : Int.max - random.below(3),
            currency: random.text(), expiry: random.optional { $0.time() }, timeCreated: random.optional { $0.time() },
            autoCapture: random.optional { $0.chance() }, country: random.optional { $0.text() },
            payment: random.optional { random in
                UPIWire.CreatedPayment(method: random.optional { $0.text() }, client: (0..<random.below(4)).map { _ in
                    UPIWire.PaymentClient(client: random.text(), format: random.text(), method: random.text(), content: random.text())
                })
            })
        created.timeCaptured = random.optional { $0.time() }
        if random.below(8) == 0 { created.object = random.text() }
        return created
    }

    static func foundation<Payload: Codable & Sendable>(_ envelope: UPIWire.Envelope<Payload>) throws -> String {
        String(decoding: try UPIWire.encoder().encode(envelope), as: UTF8.self)
    }

    static func written<Payload: Codable & Sendable>(_ envelope: UPIWire.Envelope<Payload>) throws -> String {
        String(decoding: try #require(WireJSON(envelope: envelope)).data, as: UTF8.self)
    }

    @Test("a create answer as the sandbox sends it")
    func sandboxAnswer() throws {
        let wallet = "http://127.0.0.1:8080/sandbox/wallet/1234567890123456789"
        let created = UPIWire.ChargeCreated(
            id: "1234567890123456789", chargeToken: "0123456789abcdef0123456789abcdef", status: .initiated,
            reference: "order-42", amount: 125, currency: "USD", expiry: 1_700_000_900_123, timeCreated: 1_700_000_000_000,
            autoCapture: false, country: "US",
            payment: UPIWire.CreatedPayment(method: "wechatpay", client: [
                UPIWire.PaymentClient(client: "desktop", format: "qr", content: "http://127.0.0.1:8080/sandbox/qr/1234567890123456789"),
                UPIWire.PaymentClient(client: "mobile_browser", format: "redirect", content: wallet),
            ]))
        let envelope = UPIWire.Envelope(data: created)
        #expect(try Self.written(envelope) == Self.foundation(envelope))
        // Spelled out once, so that a change of both at once is seen too.
        #expect(try Self.written(envelope) == """
            {"app":"citcon_upi","data":{"amount":125,"auto_capture":false,"charge_token":"0123456789abcdef0123456789abcdef",\
            "country":"US","currency":"USD","expiry":1700000900123,"id":"1234567890123456789","object":"charge",\
            "payment":{"client":[{"client":"desktop","content":"http://127.0.0.1:8080/sandbox/qr/1234567890123456789",\
            "format":"qr","method":"GET"},{"client":"mobile_browser","content":"\(wallet)","format":"redirect",\
            "method":"GET"}],"method":"wechatpay"},"reference":"order-42","status":"initiated","time_captured":null,\
            "time_created":1700000000},"status":"success","version":"\(UPIWire.version)"}
            """)
    }

    @Test("random create answers: every ASCII byte and non-ASCII text, absent and present members, times in seconds and milliseconds")
    func randomAnswers() throws {
        var random = Random(state: 0x9E37_79B9_7F4A_7C15)
        for _ in 0..<3000 {
            let envelope = UPIWire.Envelope(status: random.chance() ? "success" : random.text(), data: Self.created(&random))
            let expected = try Self.foundation(envelope)
            let written = try Self.written(envelope)
            #expect(written == expected)
            if written != expected { return }
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

    @Test("random charge records: the stored document holds what JSONEncoder writes, member for member, and reads back the same")
    func randomDocuments() throws {
        var random = Random(state: 0x2545_F491_4F6C_DD1D)
        for _ in 0..<600 {
            let record = Self.record(&random)
            let written = try Self.canonical(record.document), expected = try Self.canonical(JSONEncoder().encode(record))
            #expect(written == expected)
            #expect(try JSONDecoder().decode(ChargeRecord.self, from: record.document) == record)
            if written != expected { return }
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
        #expect(!String(decoding: record.document, as: UTF8.self).contains("history"))
        #expect(try Self.canonical(record.document) == Self.canonical(old))
    }

    @Test("a create answer has one writer, exchange included; other payloads are written by Codable")
    func oneWriterPerShape() throws {
        var created = UPIWire.ChargeCreated(id: "1", chargeToken: "t", status: .initiated, reference: "r", amount: 1,
                                            currency: "USD", expiry: nil)
        created.exchange = CPayExchange(amount: 700, currency: "CNY", rate: Decimal(string: "7.1234"))
        let envelope = UPIWire.Envelope(data: created)
        #expect(try Self.written(envelope) == Self.foundation(envelope))
        created.exchange = CPayExchange()
        #expect(try Self.written(UPIWire.Envelope(data: created)) == Self.foundation(UPIWire.Envelope(data: created)))
        #expect(WireJSON(envelope: UPIWire.Envelope(data: ["status": "ok"])) == nil)
    }
}
