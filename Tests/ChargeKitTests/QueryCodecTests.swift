@_spi(Tools) @testable import ChargeKit
import Testing

@Suite struct QueryCodecTests {
    @Test func encodesTheWholeReservedSet() {
        #expect(PercentEncoding.encode(":/?#[]@!$&'()*+,;=") == "%3A%2F%3F%23%5B%5D%40%21%24%26%27%28%29%2A%2B%2C%3B%3D")
        #expect(PercentEncoding.encode("a b") == "a%20b")
        #expect(PercentEncoding.encode("AZaz09-._~") == "AZaz09-._~")
        #expect(PercentEncoding.encode("é€") == "%C3%A9%E2%82%AC")
        #expect(PercentEncoding.encode("%") == "%25")
    }

    @Test func decodesStrictly() throws {
        #expect(try PercentEncoding.decode("a%20b+c", field: "x") == "a b+c")
        #expect(try PercentEncoding.decode("%c3%a9", field: "x") == "é")
        #expect(throws: ChargeKitError.malformedPercentEncoding(field: "x", rule: "'%' must be followed by two hex digits")) {
            try PercentEncoding.decode("100%", field: "x")
        }
        #expect(throws: ChargeKitError.malformedPercentEncoding(field: "x", rule: "'%' must be followed by two hex digits")) {
            try PercentEncoding.decode("%G1", field: "x")
        }
        #expect(throws: ChargeKitError.malformedPercentEncoding(field: "x", rule: "decoded bytes are not valid UTF-8")) {
            try PercentEncoding.decode("%FF%FE", field: "x")
        }
    }

    @Test func everyHexDigitAndNoOtherByte() throws {
        let digits = Array("0123456789ABCDEFabcdef".utf8)
        // Every ASCII pair (0 to 7, then any digit), as escapes one after another and
        // between plain bytes; letters as the first digit in UTF-8's escapes.
        #expect(try PercentEncoding.decode("%C3%A9%e2%82%Ac", field: "x") == "é€")
        var escaped: [UInt8] = [], expected: [UInt8] = []
        for high in digits.prefix(8) {
            for low in digits {
                escaped += [0x25, high, low] + (low == UInt8(ascii: "f") ? Array("plain".utf8) : [])
                expected.append(UInt8(String(decoding: [high, low], as: UTF8.self), radix: 16) ?? 0)
                if low == UInt8(ascii: "f") { expected += Array("plain".utf8) }
            }
        }
        #expect(Array(try PercentEncoding.decode(escaped, field: "x").utf8) == expected)
        // Any other byte in either place is refused, a byte of 0x80 or more among them
        // (0xB1 is "1" with the high bit set).
        for byte in (0...255).map(UInt8.init) where !digits.contains(byte) {
            #expect(throws: ChargeKitError.self) { try PercentEncoding.decode([0x25, byte, 0x31], field: "x") }
            #expect(throws: ChargeKitError.self) { try PercentEncoding.decode([0x25, 0x31, byte], field: "x") }
        }
    }

    @Test func parsesOrderedItems() throws {
        let url = try QueryURL(parsing: "my-app://path/?b=2&a=1&&flag&empty=&$ifcc_x=%24#frag")
        #expect(url.base == "my-app://path/")
        #expect(url.scheme == "my-app")
        #expect(url.fragment == "frag")
        #expect(url.items == [QueryItem("b", "2"), QueryItem("a", "1"), QueryItem("flag", ""), QueryItem("empty", ""), QueryItem("$ifcc_x", "$")])
        #expect(url.items[4].fileMakerName == ("ifcc_x", true))
    }

    @Test func malformedEscapeNamesTheItem() {
        #expect(throws: ChargeKitError.malformedPercentEncoding(field: "record_id", rule: "'%' must be followed by two hex digits")) {
            try QueryURL(parsing: "app://x?record_id=12%")
        }
    }

    @Test func boundsTheURL() {
        let long = "app://x?a=" + String(repeating: "b", count: 100)
        #expect(throws: ChargeKitError.urlTooLong(limit: 50)) { try QueryURL(parsing: long, maximumLength: 50) }
    }

    @Test(arguments: ["no-scheme", "://x", "1app://x", "app://x y", "app://x\n"])
    func refusesNonURLs(text: String) {
        #expect(throws: ChargeKitError.self) { try QueryURL(parsing: text) }
    }

    @Test func appendingKeepsExistingQueryAndFragment() {
        #expect(QueryURL.appending([QueryItem("a", "&=")], to: "app://x") == "app://x?a=%26%3D")
        #expect(QueryURL.appending([QueryItem("a", "1")], to: "app://x?y=2") == "app://x?y=2&a=1")
        #expect(QueryURL.appending([QueryItem("a", "1")], to: "app://x?y=2#f") == "app://x?y=2&a=1#f")
    }

    @Test func trickyValuesRoundTrip() throws {
        let values = ["a&b=c", "100%", "1+1", "two words", "naïve café 日本", "%20", "=", "?#/"]
        let items = values.enumerated().map { QueryItem("k\($0.offset)", $0.element) }
        let url = try QueryURL(parsing: "app://x?" + QueryURL.encode(items))
        #expect(url.items == items)
    }

    @Test func nonceShape() throws {
        let nonce = Nonce.random()
        #expect(nonce.value.count == 27)
        #expect(try Nonce(nonce.value, field: "n") == nonce)
        #expect(Nonce.random() != nonce)
        #expect(throws: ChargeKitError.self) { try Nonce("short", field: "n") }
        #expect(throws: ChargeKitError.self) { try Nonce(String(repeating: "+", count: 27), field: "n") }
    }
}
