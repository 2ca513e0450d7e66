import CitconSandbox
@_spi(Tools) @testable import CitconUPI
import Foundation
import ProcessSupport
import Testing

/// IPN signatures as Citcon's guide defines them (protocol notes §5). The expected
/// signature is computed here independently: the string is built by hand and hashed
/// by the system's `sha256sum`, not by the code under test.
@Suite struct IPNSignatureTests {
    static let secret = "s3cr3t-merchant"

    /// SHA-256 of `text` by an independent implementation.
    func systemSHA256(_ text: String) throws -> String {
        let child = try Child("/usr/bin/env", ["sha256sum"], input: Data(text.utf8))
        _ = child.wait()
        let data = Data(child.stdout.utf8)
        return String(String(decoding: data, as: UTF8.self).prefix(64))
    }

    /// A genuine IPN: flat, with the signed fields named in `fields`, an empty
    /// `amount_refunded`, an amount as a JSON number.
    func genuine() throws -> (body: String, sign: String) {
        let fields = "id,transaction_type,reference,amount,currency,status,amount_refunded"
        let signedString = "amount=100&amount_refunded=&currency=USD&fields=\(fields)&id=8812345&reference=order-1"
            + "&status=success&transaction_type=charge&secret=\(Self.secret)"
        let sign = try systemSHA256(signedString)
        let body = #"{"id":"8812345","transaction_type":"charge","reference":"order-1","amount":100,"currency":"USD","status":"success","#
            + #""time_created":"2025-11-20T10:00:00Z","amount_refunded":"","fields":"\#(fields)","sign":"\#(sign)"}"#
        return (body, sign)
    }

    @Test func sha256KnownAnswers() {
        #expect(SHA256.hex("abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex("") == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(String(repeating: "a", count: 1000)) == (try? systemSHA256(String(repeating: "a", count: 1000))))
    }

    @Test("a member appended twice is refused, never read as the first or the last")
    func repeatedMemberIsRefused() throws {
        let (body, _) = try genuine()
        // Still signed; Foundation would keep one "status", other parsers the other.
        let doubled = String(body.dropLast()) + #","status":"pending"}"#
        #expect(throws: CPayIPNError.invalidField("status", rule: "appears more than once (a signed body names each field once)")) {
            try CPayIPN.verify(Data(doubled.utf8), secret: Self.secret)
        }
    }

    @Test("an empty secret is refused: anyone can sign with it")
    func emptySecretIsRefused() throws {
        let fields = CPayIPN.signed([("id", "1"), ("status", "success")], secret: "")
        let forged = try JSONEncoder().encode(fields)
        #expect(throws: CPayIPNError.emptySecret) { try CPayIPN.verify(forged, secret: "") }
        // Any non-empty secret is taken: a merchant's real secret is whatever Citcon issued.
        let short = try JSONEncoder().encode(CPayIPN.signed([("id", "1")], secret: "k"))
        #expect(try CPayIPN.verify(short, secret: "k").id == "1")
    }

    @Test func genuineIPNVerifies() throws {
        let (body, _) = try genuine()
        let ipn = try CPayIPN.verify(Data(body.utf8), secret: Self.secret)
        #expect(ipn.id == "8812345" && ipn.status == "success" && ipn.amount == "100" && ipn.fields["amount_refunded"] == "")
        #expect(ipn.unsignedKeys == ["time_created"], "present but not signed: reported, not trusted")
    }

    @Test(arguments: [("\"amount\":100", "\"amount\":10000"), ("order-1", "order-2"), ("\"status\":\"success\"", "\"status\":\"fail\""),
                      ("\"amount_refunded\":\"\"", "\"amount_refunded\":\"0\""), ("id,transaction_type", "transaction_type")])
    func anyChangeToASignedFieldFails(from: String, to: String) throws {
        let (body, _) = try genuine()
        let tampered = body.replacingOccurrences(of: from, with: to)
        #expect(tampered != body)
        #expect(throws: CPayIPNError.badSignature) { try CPayIPN.verify(Data(tampered.utf8), secret: Self.secret) }
    }

    @Test func wrongSecretMissingFieldsAndJunk() throws {
        let (body, _) = try genuine()
        #expect(throws: CPayIPNError.badSignature) { try CPayIPN.verify(Data(body.utf8), secret: "other") }
        let noReference = body.replacingOccurrences(of: #""reference":"order-1","#, with: "")
        #expect(throws: CPayIPNError.missingField("reference")) { try CPayIPN.verify(Data(noReference.utf8), secret: Self.secret) }
        #expect(throws: CPayIPNError.missingField("sign")) { try CPayIPN.verify(Data(#"{"fields":"id","id":"1"}"#.utf8), secret: "s") }
        #expect(throws: CPayIPNError.notJSON) { try CPayIPN.verify(Data("id=1".utf8), secret: "s") }
        #expect(throws: CPayIPNError.self) { try CPayIPN.verify(Data(#"{"fields":"id","id":[1],"sign":"x"}"#.utf8), secret: "s") }
    }

    @Test func signedRoundTrip() throws {
        let signed = CPayIPN.signed([("id", "1"), ("status", "captured"), ("amount_refunded", "")], secret: Self.secret)
        #expect(signed["fields"] == "id,status,amount_refunded")
        let expected = try systemSHA256("amount_refunded=&fields=id,status,amount_refunded&id=1&status=captured&secret=\(Self.secret)")
        #expect(signed["sign"] == expected)
        let body = try JSONEncoder().encode(signed)
        #expect(try CPayIPN.verify(body, secret: Self.secret).status == "captured")
    }
}
