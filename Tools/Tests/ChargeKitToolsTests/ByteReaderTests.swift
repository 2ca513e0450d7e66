@_spi(Tools) @testable import ChargeKit
import PropertyBased
import Testing

/// The callback parsers read the URL's bytes in place (``URLBytes``, ``FieldReader``):
/// names compared as bytes, escapes decoded only where they are. These cases hold them
/// to what a plain reading of strings gives.
@Suite("Reading callbacks on their bytes")
struct ByteReaderTests {
    /// Each case of `Name` is at its slot of `table`, from `first` on.
    static func checkSlots<Name: FieldName>(_: Name.Type, from first: Int, in table: [StaticString]) {
        #expect(Name.allCases.map(\.rawValue) == Array(first..<(first + Name.texts.count)))
        for name in Name.allCases {
            #expect(table[name.slot].description == name.text.description)
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

    @Test("random callbacks: every registered app's parser reads the same raw and escaped")
    func rawAndEscapedAgree() async {
        await propertyCheck(count: 600, input: Self.url) { url in
            guard let split = try? QueryURL(parsing: url) else { return }
            for provider in PaymentProvider.allCases {
                #expect(Self.outcome { () throws(ChargeKitError) in try PaymentCallback.parse(url, provider: provider) }
                        == Self.outcome { () throws(ChargeKitError) in try PaymentCallback.parse(split, provider: provider) }, "\(provider): \(url)")
            }
        }
    }
}

private extension String {
    func leftPadding(to length: Int) -> String { String(repeating: "0", count: Swift.max(0, length - count)) + self }
}
