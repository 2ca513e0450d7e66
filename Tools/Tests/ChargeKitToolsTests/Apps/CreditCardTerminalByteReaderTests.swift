@_spi(Tools) @testable import ChargeKit
import PropertyBased
import Testing

/// CreditCardTerminal's callback read on its bytes (the reader's own rules: ByteReaderTests).
@Suite struct CreditCardTerminalByteReaderTests {
    static let approved = "app://r/?ifcc_responseType=approved&ifcc_amount=10.99&ifcc_currency=USD&ifcc_redactedCardNumber=XXXX1111"

    @Test("an escaped name is the name it decodes to, FileMaker's $ included")
    func escapedNames() throws {
        let plain = try CreditCardTerminal.ChargeResponse(url: Self.approved)
        let escaped = try CreditCardTerminal.ChargeResponse(url: Self.approved.replacingOccurrences(of: "ifcc_amount", with: "%69fcc_amount"))
        #expect(escaped.amount == plain.amount && escaped.extraItems.isEmpty)
        let fileMaker = try CreditCardTerminal.ChargeResponse(url: Self.approved.replacingOccurrences(of: "ifcc_", with: "%24ifcc_"))
        #expect(fileMaker.format == .fileMaker && fileMaker.amount == plain.amount)
    }

    @Test("a name sent twice is refused however it is spelled, and an extra sent twice however many fields")
    func duplicatesAcrossSpellings() throws {
        #expect(throws: ChargeKitError.duplicateField("ifcc_amount")) {
            try CreditCardTerminal.ChargeResponse(url: Self.approved + "&%69fcc_amount=1.00")
        }
        // Extras: pairwise below 33 fields, hashed above; both refuse the second.
        for count in [3, 40] {
            let extras = (0..<count).map { "x\($0)=1" }.joined(separator: "&")
            #expect(throws: ChargeKitError.duplicateField("x1")) {
                try CreditCardTerminal.ChargeResponse(url: Self.approved + "&" + extras + "&x1=2")
            }
        }
    }

    @Test("a space, control character or DEL is refused wherever it is, at every position")
    func controlCharactersAnywhere() throws {
        for position in 6..<Self.approved.utf8.count {
            for bad: UInt8 in [0x20, 0x09, 0x00, 0x7F] {
                var bytes = Array(Self.approved.utf8)
                bytes[position] = bad
                let url = String(decoding: bytes, as: UTF8.self)
                #expect(throws: ChargeKitError.invalidURL("url", rule: "contains a space or control character")) {
                    try CreditCardTerminal.ChargeResponse(url: url)
                }
            }
        }
    }

    @Test("a malformed escape is refused before any field is read, even in an extra nobody takes")
    func escapesCheckedUpFront() {
        #expect(throws: ChargeKitError.malformedPercentEncoding(field: "note", rule: "'%' must be followed by two hex digits")) {
            try CreditCardTerminal.ChargeResponse(url: Self.approved + "&note=100%")
        }
    }

    @Test("the split-URL entry points read the same as the string ones")
    func splitURLEntryPoints() throws {
        let urls = [Self.approved + "&x=a%26b&y=%3D#f", Self.approved.replacingOccurrences(of: "ifcc_", with: "$ifcc_") + "&note=a%20b"]
        for url in urls {
            #expect(try CreditCardTerminal.ChargeResponse(QueryURL(parsing: url)) == CreditCardTerminal.ChargeResponse(url: url))
        }
    }

    @Test("an escaped value is checked as it decodes: amounts, currencies, card numbers")
    func escapedValues() throws {
        let response = try CreditCardTerminal.ChargeResponse(url: Self.approved.replacingOccurrences(of: "10.99", with: "10%2E99")
            .replacingOccurrences(of: "USD", with: "%55SD"))
        #expect(response.amount == Money(minorUnits: 1099, currency: .usd))
        #expect(throws: ChargeKitError.invalidField("ifcc_amount", rule: "must match ^(0|[1-9][0-9]*)\\.[0-9]{2}$")) {
            try CreditCardTerminal.ChargeResponse(url: Self.approved.replacingOccurrences(of: "10.99", with: "10%2E9%39%39"))
        }
    }
}
