@testable import CitconSandbox
@_spi(Tools) import CitconUPI
import Foundation
import Testing

/// ``WireJSON`` writes an object's members sorted by their names' bytes, and skips the
/// sort when its builders already list them in that order; integers are spelt without
/// making a `String`. These hold the shortcuts to what they replace.
@Suite("Wire JSON: member order and integers")
struct WireJSONOrderTests {
    @Test("precedes(_:_:) orders names as their UTF-8 bytes do, for ASCII and non-ASCII names and prefixes")
    func byteOrder() {
        var random = WireJSONTests.Random(state: 0xC0FF_EE00_1234)
        let fixed = ["", "a", "A", "ab", "a_b", "aB", "é", "e\u{301}", "€", "😀", "amount", "amountCaptured", "auto_capture"]
        for first in fixed { for second in fixed {
            #expect(WireJSON.precedes(first, second) == first.utf8.lexicographicallyPrecedes(second.utf8), "\(first) \(second)")
        } }
        for _ in 0..<20_000 {
            let first = random.text(), second = random.chance() ? random.text() : first + random.text()
            #expect(WireJSON.precedes(first, second) == first.utf8.lexicographicallyPrecedes(second.utf8))
            #expect(WireJSON.precedes(second, first) == second.utf8.lexicographicallyPrecedes(first.utf8))
        }
    }

    @Test("members out of order are still written sorted, and in order they are written as listed")
    func unsortedMembersAreSorted() {
        let members: [(String, WireJSON)] = [("b", .integer(2)), ("a", .integer(1)), ("B", .null), ("a_", .bool(true))]
        #expect(!WireJSON.isSorted(members))
        #expect(String(decoding: WireJSON.object(members).data, as: UTF8.self) == #"{"B":null,"a":1,"a_":true,"b":2}"#)
        #expect(WireJSON.isSorted([]) && WireJSON.isSorted([("a", .null)]))
        #expect(!WireJSON.isSorted([("a", .null), ("a", .null)]))
    }

    @Test("integers as String(_:) spells them, at the edges and at random")
    func integers() {
        var random = WireJSONTests.Random(state: 0x1D1D_1D1D)
        var numbers: [Int64] = [0, 1, -1, 9, 10, -10, 99, 100, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1]
        numbers += (0..<5_000).map { _ in Int64(bitPattern: random.next()) >> Int64(random.below(63)) }
        for number in numbers {
            #expect(String(decoding: WireJSON.integer(number).data, as: UTF8.self) == String(number))
        }
    }

    /// Every object in `json`, nested ones too, lists its members in order.
    static func allSorted(_ json: WireJSON) -> Bool {
        switch json {
        case .object(let members): WireJSON.isSorted(members) && members.allSatisfy { allSorted($0.1) }
        case .array(let elements): elements.allSatisfy(allSorted)
        default: true
        }
    }

    @Test("the create answer, its envelope and the stored record are built in order: written without a sort")
    func buildersListInOrder() throws {
        var random = WireJSONTests.Random(state: 0x0DDB_A11)
        for _ in 0..<300 {
            var created = WireJSONTests.created(&random)
            created.exchange = nil
            let envelope = try #require(WireJSON(envelope: UPIWire.Envelope(data: created)))
            #expect(Self.allSorted(envelope))
            let record = WireJSONTests.record(&random)
            #expect(Self.allSorted(record.wireJSON))
        }
    }
}
