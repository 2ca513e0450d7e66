@testable import CitconSandbox
import CitconUPI
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
        String(decoding: try #require(envelope.wireJSON).data, as: UTF8.self)
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

    @Test("an answer with an exchange, and other payloads, are written the general way")
    func generalWay() throws {
        var created = UPIWire.ChargeCreated(id: "1", chargeToken: "t", status: .initiated, reference: "r", amount: 1,
                                            currency: "USD", expiry: nil)
        #expect(UPIWire.Envelope(data: created).wireJSON != nil)
        created.exchange = CPayExchange(amount: 700, currency: "CNY", rate: Decimal(string: "7.1"))
        #expect(UPIWire.Envelope(data: created).wireJSON == nil)
        #expect(UPIWire.Envelope(data: ["status": "ok"]).wireJSON == nil)
    }
}
