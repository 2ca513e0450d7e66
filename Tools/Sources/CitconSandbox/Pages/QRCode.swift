/// A QR code (ISO/IEC 18004) for the sandbox's QR page: byte mode, error correction
/// level L, versions 1 to 5 (up to 106 bytes, enough for a wallet URL), mask pattern 0.
/// Any mask is valid for a reader; the spec's penalty rules only pick the prettiest.
struct QRCode {
    /// The modules, row by row; `true` is dark.
    let modules: [[Bool]]
    var size: Int { modules.count }

    /// Data codewords and error-correction codewords of versions 1–5 at level L (one block each).
    private static let layout: [(data: Int, ec: Int)] = [(19, 7), (34, 10), (55, 15), (80, 20), (108, 26)]

    /// Encodes `text` as UTF-8 bytes; `nil` when longer than version 5 holds.
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        guard let index = Self.layout.firstIndex(where: { ($0.data * 8 - 12) / 8 >= bytes.count }) else { return nil }
        let version = index + 1
        let (dataCount, ecCount) = Self.layout[index]
        let codewords = Self.dataCodewords(bytes, capacity: dataCount)
        let all = codewords + Self.errorCorrection(codewords, count: ecCount)
        var matrix = Matrix(size: 17 + 4 * version)
        matrix.placeFunctionPatterns(version: version)
        matrix.placeData(all)
        matrix.placeFormat(Self.formatBitsLevelLMask0)
        modules = matrix.dark
    }

    /// Mode 0100 (byte), an 8-bit count, the bytes, a terminator, then 0xEC 0x11 padding.
    static func dataCodewords(_ bytes: [UInt8], capacity: Int) -> [UInt8] {
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) { for shift in stride(from: count - 1, through: 0, by: -1) { bits.append(value >> shift & 1 == 1) } }
        append(0b0100, 4)
        append(bytes.count, 8)
        for byte in bytes { append(Int(byte), 8) }
        append(0, min(4, capacity * 8 - bits.count))
        while bits.count % 8 != 0 { bits.append(false) }
        var out: [UInt8] = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while out.count < capacity {
            out.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        return out
    }

    /// Reed–Solomon error-correction codewords over GF(256), polynomial 0x11D.
    static func errorCorrection(_ data: [UInt8], count: Int) -> [UInt8] {
        var exp = [UInt8](repeating: 0, count: 512), log = [Int](repeating: 0, count: 256)
        var x = 1
        for i in 0..<255 {
            exp[i] = UInt8(x)
            log[x] = i
            x <<= 1
            if x & 0x100 != 0 { x ^= 0x11D }
        }
        for i in 255..<512 { exp[i] = exp[i - 255] }
        func multiply(_ a: UInt8, _ b: UInt8) -> UInt8 { a == 0 || b == 0 ? 0 : exp[log[Int(a)] + log[Int(b)]] }
        // The generator (x − α^0)(x − α^1)…(x − α^(count−1)), highest degree first.
        var generator: [UInt8] = [1]
        for i in 0..<count {
            var next = [UInt8](repeating: 0, count: generator.count + 1)
            for (j, coefficient) in generator.enumerated() {
                next[j] ^= coefficient
                next[j + 1] ^= multiply(coefficient, exp[i])
            }
            generator = next
        }
        var remainder = data + [UInt8](repeating: 0, count: count)
        for i in 0..<data.count where remainder[i] != 0 {
            let factor = remainder[i]
            for (j, coefficient) in generator.enumerated() { remainder[i + j] ^= multiply(coefficient, factor) }
        }
        return Array(remainder.suffix(count))
    }

    /// Level L (01), mask 0 (000), BCH-protected and masked with 101010000010010.
    static let formatBitsLevelLMask0: [Bool] = "111011111000100".map { $0 == "1" }

    /// The module grid while it is built.
    struct Matrix {
        var dark: [[Bool]]
        var reserved: [[Bool]]
        let size: Int

        init(size: Int) {
            self.size = size
            dark = Array(repeating: Array(repeating: false, count: size), count: size)
            reserved = dark
        }

        mutating func set(_ row: Int, _ column: Int, _ value: Bool) {
            guard (0..<size).contains(row), (0..<size).contains(column) else { return }
            dark[row][column] = value
            reserved[row][column] = true
        }

        mutating func placeFunctionPatterns(version: Int) {
            for (row, column) in [(0, 0), (0, size - 7), (size - 7, 0)] {
                // The finder, and its white separator.
                for r in -1...7 {
                    for c in -1...7 {
                        let inside = (0...6).contains(r) && (0...6).contains(c)
                        let ring = r == 0 || r == 6 || c == 0 || c == 6
                        let core = (2...4).contains(r) && (2...4).contains(c)
                        set(row + r, column + c, inside && (ring || core))
                    }
                }
            }
            for i in 8..<(size - 8) {
                set(6, i, i % 2 == 0)
                set(i, 6, i % 2 == 0)
            }
            if version >= 2 {
                let center = size - 7
                for r in -2...2 {
                    for c in -2...2 { set(center + r, center + c, max(abs(r), abs(c)) != 1) }
                }
            }
            // Reserve the format areas (written last) and set the dark module.
            for i in 0...8 where i != 6 {  // row and column 6 are the timing patterns
                set(8, i, false)
                set(i, 8, false)
            }
            for i in 0..<8 {
                set(8, size - 1 - i, false)
                set(size - 1 - i, 8, false)
            }
            set(size - 8, 8, true)
        }

        /// Places the codewords in the zigzag, two columns at a time from the right,
        /// skipping the timing column, with mask 0 (`(row + column) % 2 == 0` flips).
        mutating func placeData(_ codewords: [UInt8]) {
            var bits: [Bool] = []
            for byte in codewords {
                for shift in (0..<8).reversed() { bits.append((byte >> UInt8(shift)) & 1 == 1) }
            }
            var index = 0
            var upward = true
            var right = size - 1
            while right > 0 {
                if right == 6 { right -= 1 }
                for step in 0..<size {
                    let row = upward ? size - 1 - step : step
                    for column in [right, right - 1] where !reserved[row][column] {
                        let bit = index < bits.count ? bits[index] : false
                        index += 1
                        dark[row][column] = bit != ((row + column) % 2 == 0)
                    }
                }
                upward.toggle()
                right -= 2
            }
        }

        /// Writes the 15 format bits in both copies.
        mutating func placeFormat(_ bits: [Bool]) {
            // Copy 1: around the top-left finder.
            let first: [(Int, Int)] = [(8, 0), (8, 1), (8, 2), (8, 3), (8, 4), (8, 5), (8, 7), (8, 8),
                                       (7, 8), (5, 8), (4, 8), (3, 8), (2, 8), (1, 8), (0, 8)]
            // Copy 2: below the top-right finder and beside the bottom-left one.
            let second: [(Int, Int)] = (0..<7).map { (size - 1 - $0, 8) } + (0..<8).map { (8, size - 8 + $0) }
            for (i, bit) in bits.enumerated() {
                dark[first[i].0][first[i].1] = bit
                dark[second[i].0][second[i].1] = bit
            }
        }
    }

    /// The code as an SVG image with a four-module quiet zone.
    var svg: String {
        let quiet = 4, scale = 8, side = (size + 2 * quiet) * scale
        var path = ""
        for (row, line) in modules.enumerated() {
            for (column, isDark) in line.enumerated() where isDark {
                path += "M\((column + quiet) * scale) \((row + quiet) * scale)h\(scale)v\(scale)h-\(scale)z"
            }
        }
        return """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(side)" height="\(side)" viewBox="0 0 \(side) \(side)">\
        <rect width="\(side)" height="\(side)" fill="#fff"/><path d="\(path)" fill="#000"/></svg>
        """
    }
}
