@_spi(Tools) @testable import ChargeKit
import PropertyBased
import Testing

/// The callback parsers read the URL's bytes in place (``URLBytes``, ``FieldReader``):
/// names compared as bytes, escapes decoded only where they are. These cases hold them
/// to what a plain reading of strings gives.
@Suite("Reading callbacks on their bytes")
struct ByteReaderTests {
    static let approved = "app://r/?ifcc_responseType=approved&ifcc_amount=10.99&ifcc_currency=USD&ifcc_redactedCardNumber=XXXX1111"

    @Test("each parser's table of names spells every name at its slot, from its first slot on")
    func nameTablesMatchTheirSlots() {
        func check<Name: FieldName>(_: Name.Type, from first: Int, in table: [StaticString]) {
            #expect(Name.allCases.map(\.rawValue) == Array(first..<(first + Name.texts.count)))
            for name in Name.allCases {
                #expect(table[name.slot].description == name.text.description)
            }
        }
        let sumUp = SumUp.Callback.Fields.Name.texts
        check(SumUp.Callback.Fields.Name.self, from: 0, in: sumUp)
        #expect(SumUp.Callback.Fields.Name.transactionCode.text.description == "smp-tx-code")
        let zettle = Zettle.Callback.Name.texts + Zettle.PaymentInfo.Name.texts
        check(Zettle.Callback.Name.self, from: 0, in: zettle)
        check(Zettle.PaymentInfo.Name.self, from: Zettle.Callback.Name.allCases.count, in: zettle)
        #expect(Zettle.PaymentInfo.Name.aid.text.description == "AID")
    }

    @Test("an escaped name is the name it decodes to, FileMaker's $ included")
    func escapedNames() throws {
        let plain = try CreditCardTerminal.ChargeResponse(url: Self.approved)
        let escaped = try CreditCardTerminal.ChargeResponse(url: Self.approved.replacingOccurrences(of: "ifcc_amount", with: "%69fcc_amount"))
        #expect(escaped.amount == plain.amount && escaped.extraItems.isEmpty)
        let fileMaker = try CreditCardTerminal.ChargeResponse(url: Self.approved.replacingOccurrences(of: "ifcc_", with: "%24ifcc_"))
        #expect(fileMaker.format == .fileMaker && fileMaker.amount == plain.amount)
        let sumUp = try SumUp.Callback(url: "app://r?smp%2Dstatus=success")
        #expect(sumUp.status == .success)
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

    @Test("the printable-ASCII rule agrees with a byte-by-byte reading at every length and edge byte")
    func printableASCIIEdges() {
        // Every edge byte at every position of runs up to 24 bytes, around the other edges.
        let edges: [UInt8] = [0x00, 0x1F, 0x20, 0x21, 0x7E, 0x7F, 0x80, 0xFF]
        for length in 0...24 {
            for position in 0..<Swift.max(length, 1) {
                for edge in edges {
                    for filler: UInt8 in [0x20, 0x41, 0x7E] {
                        var bytes = [UInt8](repeating: filler, count: length)
                        if length > 0 { bytes[position] = edge }
                        let want = bytes.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
                        let got = bytes.withSpan { FieldRules.isPrintableASCII($0) }
                        #expect(got == want, "\(bytes)")
                    }
                }
            }
        }
    }

    @Test("the card number rules agree with a byte-by-byte reading at every length and edge byte")
    func cardNumberRuleEdges() {
        func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
        // The bytes on each side of every byte a rule accepts, high bytes included.
        let edges: [UInt8] = [0x00, 0x1F, 0x20, 0x21, 0x29, 0x2A, 0x2B, 0x2F, 0x30, 0x39, 0x3A, 0x57, 0x58, 0x59, 0x7F, 0x80, 0xAA, 0xB0, 0xFF]
        for length in 0...24 {
            for position in 0..<Swift.max(length, 1) {
                for edge in edges {
                    for filler: UInt8 in [0x2A, 0x31, 0x58, 0x20] {
                        var bytes = [UInt8](repeating: filler, count: length)
                        if length > 0 { bytes[position] = edge }
                        // Digits in the last four places, as a valid number has them, then the edge.
                        var ending = bytes
                        for index in ending.indices.suffix(4) where index != position { ending[index] = 0x34 }
                        for sample in [bytes, ending] {
                            let masked = sample.allSatisfy { isDigit($0) || $0 == 0x2A || $0 == 0x20 } && sample.suffix(4).allSatisfy(isDigit)
                            let redacted = sample.count >= 4 && sample.suffix(4).allSatisfy(isDigit) && sample.dropLast(4).allSatisfy { $0 == 0x58 }
                            let got = sample.withSpan { (FieldRules.isMaskedCardNumber($0), FieldRules.isRedactedCardNumber($0)) }
                            #expect(got.0 == masked, "\(sample)")
                            #expect(got.1 == redacted, "\(sample)")
                        }
                    }
                }
            }
        }
    }

    @Test("percent-decoding agrees with a byte-by-byte reading at every length and position, in a string and in place")
    func decodingAgreesWithReference() {
        /// The rule read one byte at a time: `nil` for a malformed escape or bytes that are not UTF-8.
        func reference(_ bytes: [UInt8]) -> String? {
            var out: [UInt8] = [], index = 0
            func hex(_ byte: UInt8) -> UInt8? {
                switch byte {
                case 0x30...0x39: return byte - 0x30
                case 0x41...0x46, 0x61...0x66: return (byte | 0x20) - 0x61 + 10
                default: return nil
                }
            }
            while index < bytes.count {
                if bytes[index] != 0x25 { out.append(bytes[index]); index += 1; continue }
                guard index + 2 < bytes.count, let high = hex(bytes[index + 1]), let low = hex(bytes[index + 2]) else { return nil }
                out.append(high << 4 | low)
                index += 3
            }
            return String(validating: out, as: UTF8.self)
        }
        // Each piece at every position of runs up to 26 bytes, after and before plain bytes.
        let pieces: [[UInt8]] = [Array("%20".utf8), Array("%2".utf8), Array("%".utf8), Array("%C3%A9".utf8),
                                 Array("%FF".utf8), Array("%zz".utf8), Array("é".utf8), [0x25, 0x25]]
        for length in 0...26 {
            for position in 0...length {
                for piece in pieces {
                    var bytes = [UInt8](repeating: 0x61, count: length)
                    bytes.insert(contentsOf: piece, at: position)
                    let text = String(decoding: bytes, as: UTF8.self)
                    let got = try? PercentEncoding.decode(text, field: "x")
                    #expect(got == reference(Array(text.utf8)), "\(text)")
                    // The in-place reading used by the parsers gives the same bytes.
                    if let want = got {
                        let inPlace = try? Array(text.utf8).withSpan { buffer throws(ChargeKitError) in
                            try PercentEncoding.withDecodedChecked(buffer) { $0.string }
                        }
                        #expect(inPlace == want, "\(text)")
                    }
                }
            }
        }
        // Several pieces among runs of plain bytes of every length.
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<3_000 {
            var bytes: [UInt8] = []
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                bytes += [UInt8](repeating: UInt8.random(in: 0x61...0x7A, using: &generator), count: Int.random(in: 0...19, using: &generator))
                bytes += pieces.randomElement(using: &generator) ?? []
            }
            let text = String(decoding: bytes, as: UTF8.self)
            let got = try? PercentEncoding.decode(text, field: "x")
            #expect(got == reference(Array(text.utf8)), "\(text)")
            let inPlace = try? Array(text.utf8).withSpan { buffer throws(ChargeKitError) in
                try PercentEncoding.withDecodedChecked(buffer) { $0.string }
            }
            if let got { #expect(inPlace == got, "\(text)") }
        }
    }

    @Test("a name sent twice is refused however it is spelled")
    func duplicatesAcrossSpellings() throws {
        #expect(throws: ChargeKitError.duplicateField("smp-status")) {
            try SumUp.Callback(url: "app://r?smp-status=success&smp%2Dstatus=failed")
        }
        // The escaped spelling first: matched after the plain one (once decoded), still the same name.
        #expect(throws: ChargeKitError.duplicateField("smp-status")) {
            try SumUp.Callback(url: "app://r?smp%2Dstatus=failed&smp-status=success")
        }
        #expect(throws: ChargeKitError.duplicateField("reference")) {
            try Zettle.Callback(url: "app://r?x=1&refer%65nce=R2&y=2&reference=R1")
        }
        #expect(try Zettle.Callback(url: "app://r?x=1&refer%65nce=R2&y=2").reference == "R2")
        #expect(throws: ChargeKitError.duplicateField("ifcc_amount")) {
            try CreditCardTerminal.ChargeResponse(url: Self.approved + "&%69fcc_amount=1.00")
        }
        // Extras: pairwise below 33 fields, hashed above; both refuse the second.
        for count in [3, 40] {
            let extras = (0..<count).map { "x\($0)=1" }.joined(separator: "&")
            #expect(throws: ChargeKitError.duplicateField("x1")) {
                try CreditCardTerminal.ChargeResponse(url: Self.approved + "&" + extras + "&x1=2")
            }
            #expect(throws: ChargeKitError.duplicateField("x1")) {
                try Zettle.Callback(url: "app://r?reference=R1&" + extras + "&x1=2")
            }
        }
    }

    @Test("byte runs compare equal exactly when they are, at every length and every differing position")
    func byteRunsCompare() {
        for count in 0...40 {
            let base = (0..<count).map { UInt8(0x41 + $0 % 26) }
            base.withSpan { here in
                let same = here.equal(at: 0, to: here, at: 0, count: count)
                #expect(same)
                for position in 0..<count {
                    var other = base
                    other[position] ^= 0x20
                    other.withSpan { there in
                        let equal = here.equal(at: 0, to: there, at: 0, count: count)
                        #expect(!equal, "length \(count), position \(position)")
                    }
                }
            }
        }
    }

    @Test("names matched before parsing: the first field whose name came before is refused, known or not, however spelled")
    func duplicatesInFieldOrder() {
        // Known names (matched to slots up front), their escaped spellings, and extras
        // (compared pairwise): the error names the first field whose name came before,
        // as a plain in-order comparison of the decoded names finds it.
        let spellings: [(wire: String, name: String)] = [
            ("reference", "reference"), ("refer%65nce", "reference"), ("AID", "AID"), ("%41ID", "AID"),
            ("entryMode", "entryMode"), ("x1", "x1"), ("%781", "x1"), ("x2", "x2"), ("TSI", "TSI"), ("TVR", "TVR"),
        ]
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<400 {
            let picks = (0..<Int.random(in: 1...7, using: &generator)).map { _ in spellings.randomElement(using: &generator)! }
            var seen = Set<String>()
            let expected = picks.first { !seen.insert($0.name).inserted }?.name
            let query = picks.enumerated().map { "\($0.element.wire)=V\($0.offset)" }.joined(separator: "&")
            do {
                _ = try Zettle.Callback(url: "app://r?" + query)
                #expect(expected == nil, "\(query)")
            } catch {
                if let expected {
                    #expect(error == .duplicateField(expected), "\(query)")
                } else if case .duplicateField = error {
                    Issue.record("\(query): \(error)")
                }
            }
        }
    }

    @Test("every payment info field is found in any order (names sharing a bucket included)")
    func paymentInfoInAnyOrder() throws {
        let pairs = ["referenceNumber=R9", "entryMode=EMV", "obfuscatedPan=****%201111", "panHash=H1", "cardBrand=VISA",
                     "AID=A0000000031010", "TSI=E800", "TVR=0000008000", "applicationName=VISA%20CREDIT",
                     "numberOfInstallments=3", "installmentAmount=3.33", "authorizationCode=OK1", "reference=R1"]
        let reference = try Zettle.Callback(url: "app://r?" + pairs.joined(separator: "&")).paymentInfo
        #expect(reference.panHash == "H1" && reference.authorizationCode == "OK1" && reference.numberOfInstallments == 3)
        #expect(reference.applicationName == "VISA CREDIT" && reference.obfuscatedPan == "**** 1111")
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<50 {
            let shuffled = pairs.shuffled(using: &generator).joined(separator: "&")
            #expect(try Zettle.Callback(url: "app://r?" + shuffled).paymentInfo == reference, "\(shuffled)")
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
        #expect(throws: ChargeKitError.invalidURL("url", rule: "contains a space or control character")) {
            try SumUp.Callback(url: "app://r?smp-status=success#frag ment")
        }
        // Non-ASCII text is not a control character: kept as sent.
        let callback = try SumUp.Callback(url: "app://r?smp-status=success&smp-message=Paiement%20r%C3%A9ussi&note=été#é")
        #expect(callback.message == "Paiement réussi" && callback.extraItems == [QueryItem("note", "été")] && callback.fragment == "é")
    }

    @Test("random URLs are cut into base, query pairs and fragment as a byte-by-byte reading cuts them, wherever '?', '#' and controls fall")
    func partsAgreeWithReference() {
        /// The rules read one byte at a time: the parts, or the error the scan throws first.
        func reference(_ url: String) -> Result<QueryURL, ChargeKitError>? {
            let bytes = Array(url.utf8)
            if bytes.contains(where: { $0 < 0x21 || $0 == 0x7F }) {
                return .failure(.invalidURL("url", rule: "contains a space or control character"))
            }
            let baseEnd = bytes.firstIndex(where: { $0 == 0x3F || $0 == 0x23 }) ?? bytes.count
            let base = Array(bytes[..<baseEnd])
            let scheme = base.firstIndex(of: 0x3A).map { Array(base[..<$0]) } ?? []
            let schemeBytes = Set(Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.".utf8))
            guard let first = scheme.first, (first | 0x20) >= 0x61, (first | 0x20) <= 0x7A, scheme.allSatisfy(schemeBytes.contains) else {
                return .failure(.invalidURL("url", rule: "must start with a scheme such as 'my-app:'"))
            }
            var query: [UInt8] = [], fragment: [UInt8]?
            if baseEnd < bytes.count {
                let rest = Array(bytes[(baseEnd + 1)...])
                if bytes[baseEnd] == 0x23 {
                    fragment = rest
                } else if let hash = rest.firstIndex(of: 0x23) {
                    query = Array(rest[..<hash])
                    fragment = Array(rest[(hash + 1)...])
                } else {
                    query = rest
                }
            }
            var items: [QueryItem] = []
            for pair in query.split(separator: 0x26, omittingEmptySubsequences: true) {
                let equals = pair.firstIndex(of: 0x3D) ?? pair.endIndex
                guard let name = try? PercentEncoding.decode(pair[..<equals], field: "x"),
                      let value = try? PercentEncoding.decode(pair[equals...].dropFirst(), field: "x") else { return nil }
                items.append(QueryItem(name, value))
            }
            return .success(QueryURL(base: String(decoding: base, as: UTF8.self), items: items,
                                     fragment: fragment.map { String(decoding: $0, as: UTF8.self) }))
        }
        let pieces = ["app:", "x", "ab", "?", "#", "&", "=", ":", "%41", "%4", "é", " ", "\u{7F}", "\t", "-", "longer-run-of-bytes"]
        var generator = SystemRandomNumberGenerator()
        for round in 0..<6_000 {
            let count = Int.random(in: 0...24, using: &generator)
            let body = (0..<count).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
            let url = (round % 4 == 0 ? "" : "app:") + body
            let got = Result { () throws(ChargeKitError) in try QueryURL(parsing: url) }
            switch (reference(url), got) {
            case (.success(let want)?, .success(let parsed)):
                #expect(parsed == want, "\(url)")
            case (.failure(let want)?, .failure(let error)):
                #expect(error == want, "\(url)")
            case (nil, .failure(.malformedPercentEncoding)):
                break
            case (let want, let got):
                Issue.record("\(url): expected \(String(describing: want)), got \(got)")
            }
        }
    }

    @Test("escapes that decode to bytes that are not UTF-8 name the field")
    func invalidUTF8() {
        #expect(throws: ChargeKitError.malformedPercentEncoding(field: "smp-message", rule: "decoded bytes are not valid UTF-8")) {
            try SumUp.Callback(url: "app://r?smp-status=success&smp-message=%C3")
        }
        #expect(throws: ChargeKitError.malformedPercentEncoding(field: "query parameter name", rule: "'%' must be followed by two hex digits")) {
            try SumUp.Callback(url: "app://r?smp-status=success&a%2=1")
        }
    }

    @Test("a query of one-byte fields, as many as its length allows, is read whole, empty segments skipped")
    func mostFieldsAQueryHolds() throws {
        // A query of single-letter names is the most fields a query of that length can carry.
        for count in [1, 2, 7, 8, 9, 64, 500] {
            let names: [String] = (0..<count).map { (index: Int) -> String in
                let letter = String(UnicodeScalar(UInt8(0x61 + index % 26)))
                return index < 26 ? letter : letter + String(index)
            }
            let query = names.joined(separator: "&")
            let url = try QueryURL(parsing: "app://r?" + query, maximumLength: .max)
            #expect(url.items.map { $0.name } == names && url.items.allSatisfy { $0.value.isEmpty })
            // Trailing, leading and doubled `&` add places but no fields.
            let padded = try QueryURL(parsing: "app://r?&" + names.joined(separator: "&&") + "&", maximumLength: .max)
            #expect(padded.items.map { $0.name } == names)
        }
        let single = try QueryURL(parsing: "app://r?a")
        #expect(single.items == [QueryItem("a", "")])
        let extras = try Zettle.Callback(url: "app://r?reference=R1&" + (0..<300).map { "e\($0)" }.joined(separator: "&"))
        #expect(extras.extraItems.count == 300 && extras.extraItems.last == QueryItem("e299", ""))
    }

    @Test("the scheme's ':' counts only before '?' and '#', in the first word or later")
    func schemeColon() throws {
        for url in ["app?x=a:b", "app#frag:x", "?a=b:c", ":x?y=1", "1app://r?x=1", "a-very-long-scheme-name?x=1:2"] {
            #expect(throws: ChargeKitError.invalidURL("url", rule: "must start with a scheme such as 'my-app:'")) {
                try QueryURL(parsing: url)
            }
        }
        let long = try QueryURL(parsing: "a-very-long-scheme-name.v2+x://host/path?x=1:2#f:g")
        #expect(long.scheme == "a-very-long-scheme-name.v2+x" && long.items == [QueryItem("x", "1:2")] && long.fragment == "f:g")
        #expect(try QueryURL(parsing: "app:?x=1").base == "app:")
    }

    @Test("a malformed escape is refused before any field is read, even in an extra nobody takes")
    func escapesCheckedUpFront() {
        #expect(throws: ChargeKitError.malformedPercentEncoding(field: "note", rule: "'%' must be followed by two hex digits")) {
            try CreditCardTerminal.ChargeResponse(url: Self.approved + "&note=100%")
        }
        // The missing status would be the first field error: the escape comes first.
        #expect(throws: ChargeKitError.malformedPercentEncoding(field: "extra", rule: "'%' must be followed by two hex digits")) {
            try SumUp.Callback(url: "app://r?extra=%G1")
        }
        #expect(throws: ChargeKitError.malformedPercentEncoding(field: "memo", rule: "decoded bytes are not valid UTF-8")) {
            try Zettle.Callback(url: "app://r?reference=R1&memo=ok%20%FF")
        }
    }

    @Test("the split-URL entry points read the same as the string ones")
    func splitURLEntryPoints() throws {
        let urls = [Self.approved + "&x=a%26b&y=%3D#f", Self.approved.replacingOccurrences(of: "ifcc_", with: "$ifcc_") + "&note=a%20b"]
        for url in urls {
            #expect(try CreditCardTerminal.ChargeResponse(QueryURL(parsing: url)) == CreditCardTerminal.ChargeResponse(url: url))
        }
        let sumUp = "app://r?smp-status=failed&smp-failure-cause=invalid-param&smpprtag-a=1&ref=%2F#x"
        #expect(try SumUp.Callback(QueryURL(parsing: sumUp)) == SumUp.Callback(url: sumUp))
    }

    @Test("every ISO 4217 code ChargeKit lists is found, and only those")
    func currencyTable() throws {
        let all = Currency.all
        #expect(all.count > 150 && all.map(\.code) == all.map(\.code).sorted())
        for currency in all { #expect(try Currency(code: currency.code) == currency) }
        #expect(try Currency(code: "JPY").minorUnits == 0 && Currency(code: "BHD").minorUnits == 3 && Currency(code: "CLF").minorUnits == 4)
        #expect(throws: ChargeKitError.unknownCurrency("XXX")) { try Currency(code: "XXX") }
        #expect(throws: ChargeKitError.unknownCurrency("AAA")) { try Currency(code: "AAA") }
        #expect(throws: ChargeKitError.unknownCurrency("ZZZ")) { try Currency(code: "ZZZ") }
    }
}

/// The parsers read a URL's bytes directly (`init(url:)`) or a split `QueryURL`
/// (`init(_:)`, which writes the items back with every reserved byte escaped): so
/// the same fields reach the reader raw in one path and escaped in the other. Both
/// must agree on every URL, accepted or refused.
@Suite("Reading callbacks: raw and escaped paths agree")
struct ByteReaderDifferentialTests {
    /// A query segment: a name a parser knows or any name, and a value that is valid
    /// for some field or any text; some bytes escaped, some segments repeated.
    static let segment = {
        let names = Gen<String?>.element(of: [
            "ifcc_responseType", "$ifcc_responseType", "ifcc_amount", "$ifcc_amount", "ifcc_currency", "ifcc_taxAmount",
            "ifcc_taxRate", "ifcc_tipAmount", "ifcc_redactedCardNumber", "ifcc_cardType", "ifcc_transactionId",
            "ifcc_errorMessage", "ifcc_newField", "ifcc_request_nonce", "smp-status", "smp-tx-code", "smp-message",
            "smp-receipt-sent", "smp-failure-cause", "smpprtag-a", "smp-new", "foreign-tx-id", "chargekit-nonce",
            "chargekit-callback", "reference", "referenceNumber", "entryMode", "obfuscatedPan", "cardBrand", "AID", "TSI",
            "errorCode", "errorMessage", "numberOfInstallments", "installmentAmount", "x", "note",
        ]).compactMap { $0 }
        let values = Gen<String?>.element(of: [
            "approved", "declined", "cancelled", "error", "10.99", "0.05", "1.0", "010.00", "USD", "JPY", "usd", "8.5",
            "XXXX1111", "XXXX111", "Visa", "Master Card", "success", "failed", "invalidstate", "true", "maybe",
            "EMV", "**** 1111", "ABCDEFGHIJKLMNOPQRSTUVWXYZa", "failure", "12", "0", "R-1", "",
        ]).compactMap { $0 }
        let value = Gen<String>.frequency((4, values), (1, Gens.text))
        return zip(names, value, Gen<Bool>.bool).map { name, value, escape in
            // Escape the name's first byte, or the value's, as `%XX`.
            func escaped(_ text: String) -> String {
                guard escape, let first = text.utf8.first else { return PercentEncoding.encode(text) }
                return "%" + String(first, radix: 16, uppercase: true).leftPadding(to: 2) + PercentEncoding.encode(String(text.dropFirst()))
            }
            return escaped(name) + "=" + (escape ? PercentEncoding.encode(value) : escaped(value))
        }
    }()

    static let url = zip(segment.array(of: 1...8), Gen<Bool>.bool).map { segments, fragment in
        "app://done/?" + segments.joined(separator: "&") + (fragment ? "#f" : "")
    }

    /// The outcome of a parse, for comparing.
    static func outcome<T: Equatable>(_ parse: () throws(ChargeKitError) -> T) -> Result<T, ChargeKitError> {
        do throws(ChargeKitError) { return .success(try parse()) } catch { return .failure(error) }
    }

    @Test("random callbacks: ChargeResponse, SumUp.Callback and Zettle.Callback read the same raw and escaped")
    func rawAndEscapedAgree() async {
        await propertyCheck(count: 600, input: Self.url) { url in
            guard let split = try? QueryURL(parsing: url) else { return }
            #expect(Self.outcome { () throws(ChargeKitError) in try CreditCardTerminal.ChargeResponse(url: url) }
                    == Self.outcome { () throws(ChargeKitError) in try CreditCardTerminal.ChargeResponse(split) }, "\(url)")
            #expect(Self.outcome { () throws(ChargeKitError) in try SumUp.Callback(url: url) }
                    == Self.outcome { () throws(ChargeKitError) in try SumUp.Callback(split) }, "\(url)")
            #expect(Self.outcome { () throws(ChargeKitError) in try Zettle.Callback(url: url) }
                    == Self.outcome { () throws(ChargeKitError) in try Zettle.Callback(split) }, "\(url)")
        }
    }
}

private extension String {
    func leftPadding(to length: Int) -> String { String(repeating: "0", count: Swift.max(0, length - count)) + self }
}
