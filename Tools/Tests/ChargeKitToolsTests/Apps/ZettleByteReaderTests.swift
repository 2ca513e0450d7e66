@_spi(Tools) @testable import ChargeKit
import PropertyBased
import Testing

/// Zettle's callback read on its bytes (the reader's own rules: ByteReaderTests).
@Suite struct ZettleByteReaderTests {
    @Test("the name tables spell every name at its slot")
    func nameTablesMatchTheirSlots() {
        let zettle = Zettle.Callback.Name.texts + Zettle.PaymentInfo.Name.texts
        ByteReaderTests.checkSlots(Zettle.Callback.Name.self, from: 0, in: zettle)
        ByteReaderTests.checkSlots(Zettle.PaymentInfo.Name.self, from: Zettle.Callback.Name.allCases.count, in: zettle)
        #expect(Zettle.PaymentInfo.Name.aid.text.description == "AID")
    }

    @Test("a name sent twice is refused however it is spelled, and an extra sent twice however many fields")
    func duplicatesAcrossSpellings() throws {
        #expect(throws: ChargeKitError.duplicateField("reference")) {
            try Zettle.Callback(url: "app://r?x=1&refer%65nce=R2&y=2&reference=R1")
        }
        #expect(try Zettle.Callback(url: "app://r?x=1&refer%65nce=R2&y=2").reference == "R2")
        for count in [3, 40] {
            let extras = (0..<count).map { "x\($0)=1" }.joined(separator: "&")
            #expect(throws: ChargeKitError.duplicateField("x1")) {
                try Zettle.Callback(url: "app://r?reference=R1&" + extras + "&x1=2")
            }
        }
    }

    @Test("escapes that decode to bytes that are not UTF-8 are refused before any field is read")
    func escapesCheckedUpFront() {
        #expect(throws: ChargeKitError.malformedPercentEncoding(field: "memo", rule: "decoded bytes are not valid UTF-8")) {
            try Zettle.Callback(url: "app://r?reference=R1&memo=ok%20%FF")
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
}
