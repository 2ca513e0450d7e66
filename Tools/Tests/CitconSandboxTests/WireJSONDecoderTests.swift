@testable import CitconSandbox
@_spi(Tools) import CitconUPI
import Foundation
import Testing

/// Whatever the fast reader decodes is exactly what `JSONDecoder` decodes from the same
/// body; where it is not sure, it leaves the body to `JSONDecoder`.
@Suite("Wire JSON decoder: request bodies without JSONDecoder")
struct WireJSONDecoderTests {
    typealias Random = WireJSONTests.Random

    /// The fast reader's value, checked against JSONDecoder's; `true` if it gave one.
    @discardableResult
    static func agrees<T: Decodable & Equatable>(_ type: T.Type, _ body: String) -> Bool {
        let data = Data(body.utf8)
        guard let fast = WireJSONDecoder.decode(type, from: data) else { return false }
        let foundation = try? JSONDecoder().decode(type, from: data)
        #expect(foundation == fast, "\(body)")
        return true
    }

    @Test("the bodies the SDK sends and the load test's are read by the fast reader, to JSONDecoder's values")
    func knownBodies() throws {
        let load = #"{"transaction":{"reference":"load-1-2-3","amount":125,"currency":"USD","country":"US","note":"load"},"payment":{"method":"wechatpay"},"urls":{"success":"https://shop.example/ok"}}"#
        #expect(Self.agrees(ChargeBody.self, load))
        var transaction = CPayTransaction()
        (transaction.reference, transaction.amount, transaction.currency, transaction.country) = ("order-1", 1099, "USD", "US")
        transaction.note = "caf\u{E9} \"quoted\" \\ / \u{1F600}\n"
        transaction.autoCapture = true
        var payment = CPayPayment()
        payment.method = "alipay"
        payment.client = ["mobile_native", "desktop"]
        var urls = CPayUrls()
        (urls.ipn, urls.success) = ("http://127.0.0.1:9/ipn", "my-app://done?x=1&y=%20")
        let sdkBody = try UPIWire.encoder().encode(UPIWire.ChargeRequest(transaction: transaction, payment: payment, urls: urls))
        #expect(Self.agrees(ChargeBody.self, String(decoding: sdkBody, as: UTF8.self)))
        let decoded = try #require(WireJSONDecoder.decode(ChargeBody.self, from: sdkBody))
        #expect(decoded.transaction.note == transaction.note && decoded.autoCaptureSent)
        #expect(Self.agrees(AccessTokenBody.self, #"{"token_type":"server"}"#))
        #expect(Self.agrees(ConfirmBody.self, #"{"payment":{"method":"alipay","client":["mobile_native"]}}"#))
        #expect(Self.agrees(OperationBody.self, #"{"transaction_id":"1234567890123456789","amount":100,"reference":"r-1"}"#))
    }

    @Test("what it leaves to JSONDecoder: fractions, exponents, -0, out of range, duplicate names, a BOM, broken JSON")
    func leftToFoundation() {
        for body in [
            #"{"transaction":{"reference":"r","amount":1.0,"currency":"USD","country":"US"}}"#,
            #"{"transaction":{"reference":"r","amount":1e2,"currency":"USD","country":"US"}}"#,
            #"{"transaction":{"reference":"r","amount":-0,"currency":"USD","country":"US"}}"#,
            #"{"transaction":{"reference":"r","amount":9223372036854775808,"currency":"USD","country":"US"}}"#,
            #"{"transaction":{"reference":"r","reference":"s","amount":1,"currency":"USD","country":"US"}}"#,
            "\u{FEFF}" + #"{"transaction":{"reference":"r","amount":1,"currency":"USD","country":"US"}}"#,
            #"{"transaction":{"reference":"r","amount":1,"currency":"USD","country":"US"}"#,
            #"{"transaction":{"reference":"r","amount":01,"currency":"USD","country":"US"}}"#,
            #"{"transaction":{"reference":"\ud800","amount":1,"currency":"USD","country":"US"}}"#,
            #"{"transaction":{"reference":"r","amount":"1","currency":"USD","country":"US"}}"#,
            #"{"transaction":{"reference":"r","amount":1,"currency":"USD"}}"#,
        ] {
            #expect(WireJSONDecoder.decode(ChargeBody.self, from: Data(body.utf8)) == nil, "\(body)")
        }
        // A value read with try? (the create answer's exchange) is left whole to
        // JSONDecoder when a number in it is not the reader's to judge.
        let answer = #"{"object":"charge","id":"1","charge_token":"t","status":"initiated","reference":"r","amount":1,"currency":"USD","exchange":{"amount":700,"currency":"CNY","rate":7.1}}"#
        #expect(WireJSONDecoder.decode(UPIWire.ChargeCreated.self, from: Data(answer.utf8)) == nil)
        #expect((try? JSONDecoder().decode(UPIWire.ChargeCreated.self, from: Data(answer.utf8)))?.exchange?.amount == 700)
        // The types JSONDecoder reads its own way are left to it at the top level too.
        #expect(WireJSONDecoder.decode(Decimal.self, from: Data("7".utf8)) == nil)
        #expect(WireJSONDecoder.decode(Int.self, from: Data("7".utf8)) == 7)
    }

    /// A random JSON value of any kind, sometimes one a request field expects.
    static func value(_ random: inout Random, depth: Int = 0) -> String {
        switch random.below(depth > 2 ? 9 : 11) {
        case 0: return "null"
        case 1: return random.chance() ? "true" : "false"
        case 2: return String(random.below(2_000_000_000) - 1_000_000_000)
        case 3: return ["1.0", "1.5", "-0", "1e3", "2E-2", "9223372036854775807", "-9223372036854775808",
                        "9223372036854775808", "00", "+1", "1.", ".5"][random.below(12)]
        case 4, 5, 6: return string(&random)
        case 7: return ["\"true\"", "\"false\"", "\"\"", "\"mobile_native\""][random.below(4)]
        case 8: return random.chance() ? "1" : "0"
        case 9: return "[" + (0..<random.below(4)).map { _ in value(&random, depth: depth + 1) }.joined(separator: ",") + "]"
        default: return object(&random, names: ["a", "b", "method", "amount"], depth: depth + 1)
        }
    }

    /// A JSON string with plain text, escapes of every kind and raw non-ASCII.
    static func string(_ random: inout Random) -> String {
        let pieces = ["a", "Z", " ", "\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t", "\\u00e9", "\\u0000", "\\u001F",
                      "\\uD83D\\uDE00", "é", "😀", "\u{2028}", "/", "\u{7F}"]
        let broken = ["\\ud800", "\\udc00x", "\\x", "\u{1}"]   // a lone surrogate, a bad escape, a raw control character
        return "\"" + (0..<random.below(6)).map { _ in
            random.below(40) == 0 ? broken[random.below(broken.count)] : pieces[random.below(pieces.count)]
        }.joined() + "\""
    }

    static func object(_ random: inout Random, names: [String], depth: Int) -> String {
        let spaces = ["", " ", "\n", "\t", "\r\n "]
        var members = names.filter { _ in random.below(5) > 0 }.map { name in
            "\"\(name)\"" + spaces[random.below(spaces.count)] + ":" + value(&random, depth: depth)
        }
        if random.below(6) == 0 { members.append("\"extra\(random.below(3))\":" + value(&random, depth: depth)) }
        if random.below(20) == 0, let first = members.first { members.append(first) }   // a name twice
        members.shuffle(using: &random)
        return "{" + members.joined(separator: "," + spaces[random.below(spaces.count)]) + "}"
    }

    /// A create body: each field of the right kind most of the time.
    static func chargeBody(_ random: inout Random) -> String {
        func right(_ make: String) -> String { random.below(12) > 0 ? make : value(&random) }
        let transaction = [
            ("reference", right(string(&random))), ("amount", right(String(random.below(1_000_000)))),
            ("currency", right("\"USD\"")), ("country", right("\"US\"")), ("note", right(string(&random))),
            ("auto_capture", right(random.chance() ? "true" : "false")),
        ].filter { _ in random.below(16) > 0 }.map { "\"\($0.0)\":\($0.1)" }
        var body = ["\"transaction\":{" + transaction.joined(separator: ",") + "}"]
        if random.chance() {
            body.append("\"payment\":{\"method\":" + right("\"wechatpay\"") + (random.chance() ? ",\"client\":" + right("[\"desktop\"]") : "")
                        + (random.chance() ? ",\"request_token\":" + right("false") : "") + "}")
        }
        if random.chance() {
            let urls = ["ipn", "success", "fail", "cancel"].filter { _ in random.chance() }.map { "\"\($0)\":" + right(string(&random)) }
            body.append("\"urls\":{" + urls.joined(separator: ",") + "}")
        }
        if random.below(8) == 0 { body.append("\"goods\":" + value(&random)) }
        if random.below(8) == 0 { body.append("\"consumer\":" + value(&random)) }
        body.shuffle(using: &random)
        var text = "{" + body.joined(separator: ",") + "}"
        if random.below(30) == 0, !text.isEmpty { text.removeLast() }   // broken
        return text
    }

    @Test("5 000 random create bodies, and random bodies of the other requests: never a value JSONDecoder would not give")
    func randomBodies() {
        var random = Random(state: 0x1234_5678_9ABC_DEF1)
        var read = 0
        for _ in 0..<5000 where Self.agrees(ChargeBody.self, Self.chargeBody(&random)) { read += 1 }
        // The check above means something only if the fast reader reads many of them.
        #expect(read > 1000, "the fast reader read \(read) of 5 000")
        for _ in 0..<1000 {
            Self.agrees(AccessTokenBody.self, Self.object(&random, names: ["token_type", "scope"], depth: 0))
            Self.agrees(ConfirmBody.self, Self.object(&random, names: ["payment", "consumer", "return_url", "ext"], depth: 0))
            Self.agrees(OperationBody.self,
                        Self.object(&random, names: ["transaction_id", "amount", "reference", "reason", "currency"], depth: 0))
        }
    }
}

extension WireJSONDecoderTests {
    @Test("the types that decode through their container (KeyedWireDecodable), read on their own: JSONDecoder's values")
    func keyedTypesOnTheirOwn() {
        var random = Random(state: 0x0DDB_A11C_AFE0_0042)
        func right(_ make: String) -> String { random.below(12) > 0 ? make : Self.value(&random) }
        func object(_ members: [(String, String)]) -> String {
            "{" + members.filter { _ in random.below(8) > 0 }.map { "\"\($0.0)\":\($0.1)" }.joined(separator: ",") + "}"
        }
        var read = 0
        for _ in 0..<1000 {
            let transaction = object([("reference", right(Self.string(&random))), ("amount", right(String(random.below(1_000_000)))),
                                      ("currency", right("\"USD\"")), ("country", right("\"US\"")),
                                      ("auto_capture", right(random.chance() ? "true" : "false")), ("note", right(Self.string(&random)))])
            let payment = object([("method", right("\"alipay\"")), ("indicator", right(Self.string(&random))),
                                  ("request_token", right("true")), ("token", right(Self.string(&random))),
                                  ("client", right("[\"desktop\",\"mobile_native\"]")), ("expiry", right(String(random.below(100_000)))),
                                  ("format", right(Self.string(&random))), ("nonce", right(Self.string(&random)))])
            let urls = object(["ipn", "success", "fail", "cancel"].map { ($0, right(Self.string(&random))) })
            if Self.agrees(CPayTransaction.self, transaction) { read += 1 }
            if Self.agrees(CPayPayment.self, payment) { read += 1 }
            if Self.agrees(CPayUrls.self, urls) { read += 1 }
        }
        #expect(read > 1000, "the fast reader read \(read) of 3 000")
        // Absent and null members are nil or the default, as JSONDecoder has them.
        #expect(Self.agrees(CPayUrls.self, #"{"ipn":null,"success":"https://shop.example/ok"}"#))
        #expect(Self.agrees(CPayPayment.self, #"{"method":"alipay","client":null,"token":null}"#))
    }
}

extension WireJSONTests.Random: RandomNumberGenerator {}
