@_spi(Tools) @testable import ChargeKit
import PropertyBased
import Testing

/// SumUp's callback read on its bytes (the reader's own rules: ByteReaderTests).
@Suite struct SumUpByteReaderTests {
    @Test("the name table spells every name at its slot")
    func nameTableMatchesItsSlots() {
        ByteReaderTests.checkSlots(SumUp.Callback.Fields.Name.self, from: 0, in: SumUp.Callback.Fields.Name.texts)
        #expect(SumUp.Callback.Fields.Name.transactionCode.text.description == "smp-tx-code")
    }

    @Test("an escaped name is the name it decodes to")
    func escapedNames() throws {
        let sumUp = try SumUp.Callback(url: "app://r?smp%2Dstatus=success")
        #expect(sumUp.status == .success)
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
    }

    @Test("a space or control character is refused in the fragment; non-ASCII text is kept as sent")
    func controlCharacters() throws {
        #expect(throws: ChargeKitError.invalidURL("url", rule: "contains a space or control character")) {
            try SumUp.Callback(url: "app://r?smp-status=success#frag ment")
        }
        // Non-ASCII text is not a control character: kept as sent.
        let callback = try SumUp.Callback(url: "app://r?smp-status=success&smp-message=Paiement%20r%C3%A9ussi&note=été#é")
        #expect(callback.message == "Paiement réussi" && callback.extraItems == [QueryItem("note", "été")] && callback.fragment == "é")
    }

    @Test("a malformed escape is refused before the missing status")
    func escapesCheckedUpFront() {
        // The missing status would be the first field error: the escape comes first.
        #expect(throws: ChargeKitError.malformedPercentEncoding(field: "extra", rule: "'%' must be followed by two hex digits")) {
            try SumUp.Callback(url: "app://r?extra=%G1")
        }
    }

    @Test("the split-URL entry point reads the same as the string one")
    func splitURLEntryPoint() throws {
        let sumUp = "app://r?smp-status=failed&smp-failure-cause=invalid-param&smpprtag-a=1&ref=%2F#x"
        #expect(try SumUp.Callback(QueryURL(parsing: sumUp)) == SumUp.Callback(url: sumUp))
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
}
