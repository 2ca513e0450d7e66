@testable import CitconSandbox
import Testing

/// The sandbox's QR encoder against published values (ISO/IEC 18004 and the widely
/// used worked example for "HELLO WORLD" 1-M), and the structure every reader needs.
@Suite struct QRCodeTests {
    @Test func reedSolomonMatchesThePublishedExample() {
        let data: [UInt8] = [32, 91, 11, 120, 209, 114, 220, 77, 67, 64, 236, 17, 236, 17, 236, 17]
        #expect(QRCode.errorCorrection(data, count: 10) == [196, 35, 39, 119, 235, 215, 231, 226, 93, 23])
    }

    @Test func byteModeCodewords() {
        // "hi": 0100 | 00000010 | 01101000 01101001 | 0000, then 0xEC 0x11 padding.
        let codewords = QRCode.dataCodewords(Array("hi".utf8), capacity: 19)
        #expect(Array(codewords.prefix(4)) == [0x40, 0x26, 0x86, 0x90])
        #expect(Array(codewords.suffix(15)) == (0..<15).map { $0 % 2 == 0 ? 0xEC : 0x11 })
    }

    @Test(arguments: [("hi", 21), (String(repeating: "x", count: 40), 29), ("http://127.0.0.1:8790/sandbox/wallet/1234567890123456789", 33)])
    func structure(text: String, size: Int) throws {
        let code = try #require(QRCode(text))
        #expect(code.size == size)
        let m = code.modules
        // Finder patterns: dark ring, light ring, dark 3×3 core, in three corners.
        for (row, column) in [(0, 0), (0, size - 7), (size - 7, 0)] {
            for r in 0..<7 {
                for c in 0..<7 {
                    let ring = r == 0 || r == 6 || c == 0 || c == 6
                    let core = (2...4).contains(r) && (2...4).contains(c)
                    #expect(m[row + r][column + c] == (ring || core))
                }
            }
        }
        // Timing patterns alternate, starting dark.
        for i in 8..<(size - 8) {
            #expect(m[6][i] == (i % 2 == 0) && m[i][6] == (i % 2 == 0))
        }
        // The dark module, and both copies of the format bits (level L, mask 0).
        #expect(m[size - 8][8])
        let format = "111011111000100".map { $0 == "1" }
        let firstCopy = [m[8][0], m[8][1], m[8][2], m[8][3], m[8][4], m[8][5], m[8][7], m[8][8],
                         m[7][8], m[5][8], m[4][8], m[3][8], m[2][8], m[1][8], m[0][8]]
        let secondCopy = (0..<7).map { m[size - 1 - $0][8] } + (0..<8).map { m[8][size - 8 + $0] }
        #expect(firstCopy == format && secondCopy == format)
    }

    @Test func tooLongIsRefused() {
        #expect(QRCode(String(repeating: "x", count: 107)) == nil)
        #expect(QRCode(String(repeating: "x", count: 106)) != nil)
    }
}

@Suite("Sandbox identifiers")
struct IdentifierTests {
    @Test("random hex is two lower-case hex digits per byte, whatever the count, and differs")
    func hexTokens() {
        for count in [0, 1, 7, 8, 9, 16, 24, 33] {
            let drawn = (0..<200).map { _ in randomHex(bytes: count) }
            #expect(drawn.allSatisfy { $0.utf8.count == 2 * count && $0.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) } },
                    "\(count) bytes")
            if count >= 8 { #expect(Set(drawn).count == drawn.count, "\(count) bytes") }
        }
        // Every hex digit about equally often (24 bytes × 500: 1 500 of each, give or take 200).
        var counts = [UInt8: Int]()
        for _ in 0..<500 { for digit in randomHex(bytes: 24).utf8 { counts[digit, default: 0] += 1 } }
        #expect(counts.count == 16 && counts.values.allSatisfy { abs($0 - 1500) < 200 })
    }

    @Test("transaction ids are 19 decimal digits, the first not zero, and differ")
    func transactionIDs() {
        let ids = (0..<2000).map { _ in randomDigits(19) }
        #expect(ids.allSatisfy { $0.utf8.count == 19 && $0.utf8.allSatisfy { (0x30...0x39).contains($0) } && $0.first != "0" })
        #expect(Set(ids).count == ids.count)
        #expect(Set(ids.map { $0.prefix(1) }).count == 9, "every leading digit 1-9 occurs")
        #expect(randomDigits(1).count == 1)
        // Every digit about equally often (36 000 digits after the first: 3 600 each,
        // give or take 60; the first: 222 each, give or take 15), far from either bound.
        var counts = [Int](repeating: 0, count: 10), firsts = [Int](repeating: 0, count: 10)
        for id in ids {
            for (index, byte) in id.utf8.enumerated() {
                if index == 0 { firsts[Int(byte - 0x30)] += 1 } else { counts[Int(byte - 0x30)] += 1 }
            }
        }
        #expect(counts.allSatisfy { (3200...4000).contains($0) }, "\(counts)")
        #expect(firsts[0] == 0 && firsts.dropFirst().allSatisfy { (122...322).contains($0) }, "\(firsts)")
    }
}
