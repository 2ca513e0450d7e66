/// A URL's UTF-8 bytes cut into its parts without copying: the one scanner under
/// ``QueryURL`` and every callback parser.
///
/// One pass, sixteen bytes at a time, checks the whole URL (no space or control
/// character, a `scheme:`), finds `?` and `#`, and cuts the query into its
/// `name=value` pairs as byte ranges, noting which part holds a `%` escape. Each
/// sixteen bytes give one exact bit per byte that needs a look (a delimiter of the part
/// the scan is in, or a byte outside `!`…`~`), and only those bytes are visited. Strings are made only by the
/// caller, only for the parts it keeps.
struct URLBytes {
    /// Everything before `?` (or before `#` without a query).
    let base: Range<Int>
    /// The query, after `?` and before `#`; empty without one.
    let query: Range<Int>
    /// The fragment after `#`, if there is one.
    let fragment: Range<Int>?

    /// Scans `bytes` and gives `segment` the query's pairs in order. Empty segments
    /// (`a=1&&b=2`, a trailing `&`) carry nothing and are skipped; a segment without
    /// `=` is a name with an empty value. The pairs are given as they are found, before
    /// the rest of the URL is checked: the caller must not act on them if this throws.
    ///
    /// Three loops, one per part of the URL, each looking only at the bytes that matter
    /// there: the base's `:` `?` `#`, the query's `&` `=` `%` `#`, and in every part a
    /// space, a control character or DEL (refused) or a non-ASCII byte (kept). A loop
    /// that meets the next part starts the next loop at the byte after it.
    /// - Throws: ``ChargeKitError/invalidURL(_:rule:)`` for a space or control
    ///   character, or without a `scheme:`.
    @inline(__always)
    init(_ bytes: UnsafeBufferPointer<UInt8>, segment: (Segment) -> Void) throws(ChargeKitError) {
        let count = bytes.count
        let start = bytes.baseAddress.unsafelyUnwrapped
        var colon = -1, baseEnd = count, queryStart = count, queryEnd = count, fragmentStart = -1
        var inQuery = false
        var chunk = try Self.visit(start, from: 0, count: count, Self.baseDelimiters) { index, byte throws(ChargeKitError) in
            switch byte {
            case 0x3A:   // the scheme's `:` is the first one
                if colon < 0 { colon = index }
            case 0x3F:
                baseEnd = index
                queryStart = index + 1
                inQuery = true
                return false
            case 0x23:
                baseEnd = index
                queryStart = index
                queryEnd = index
                fragmentStart = index + 1
                return false
            default:
                try Self.refuseControl(byte)
            }
            return true
        }
        if inQuery {
            var pairStart = chunk, equals = -1, firstPercent = -1, lastPercent = -1, plainEscapes = true
            chunk = try Self.visit(start, from: chunk, count: count, Self.queryDelimiters) { index, byte throws(ChargeKitError) in
                switch byte {
                case 0x3D:   // `=`: the first one ends the name
                    if equals < 0 { equals = index }
                case 0x25:   // `%`
                    if firstPercent < 0 { firstPercent = index }
                    lastPercent = index
                    // Looked at here, so that most values need no second look.
                    if !(index + 2 < count && PercentEncoding.isASCIIEscape(start[index + 1], start[index + 2])) { plainEscapes = false }
                case 0x26:   // `&` ends a pair
                    Self.pair(Range(uncheckedBounds: (pairStart, index)), equals: equals, firstPercent: firstPercent, lastPercent: lastPercent,
                              plainEscapes: plainEscapes, segment)
                    pairStart = index &+ 1
                    equals = -1
                    firstPercent = -1
                    lastPercent = -1
                    plainEscapes = true
                case 0x23:   // `#` ends the query
                    queryEnd = index
                    fragmentStart = index + 1
                    return false
                default:   // `?`, `:` and non-ASCII bytes are plain in a query
                    try Self.refuseControl(byte)
                }
                return true
            }
            Self.pair(Range(uncheckedBounds: (pairStart, queryEnd)), equals: equals, firstPercent: firstPercent, lastPercent: lastPercent,
                      plainEscapes: plainEscapes, segment)
        }
        if fragmentStart >= 0 {
            // Only checked: its bytes mean nothing to a callback.
            _ = try Self.visit(start, from: chunk, count: count, Self.noDelimiters) { _, byte throws(ChargeKitError) in
                try Self.refuseControl(byte)
                return true
            }
        }
        base = 0..<baseEnd
        query = queryStart..<queryEnd
        fragment = fragmentStart < 0 ? nil : fragmentStart..<count
        guard colon > 0, Self.isScheme(start, colon: colon, count: count) else {
            throw .invalidURL("url", rule: "must start with a scheme such as 'my-app:'")
        }
    }

    /// The base and the value of a URL that is exactly `base?name=value`: a base with
    /// a `scheme:` and no `#`, one pair named `name` and nothing else, every byte in
    /// `!`…`~` (so no `&` or `#` after the `=`); `nil` for any other URL, which
    /// ``init(_:segment:)`` then reads. The bytes it accepts are those that reading
    /// splits the same way without an error.
    static func singlePair(_ bytes: UnsafeBufferPointer<UInt8>, named name: StaticString) -> (base: Range<Int>, value: Range<Int>)? {
        let count = bytes.count, nameLength = name.utf8CodeUnitCount
        guard let start = bytes.baseAddress else { return nil }
        var colon = -1, question = -1
        // (The closures throw nothing: `visit` is written for those that do.)
        do throws(ChargeKitError) {
            _ = try visit(start, from: 0, count: count, baseDelimiters) { index, byte in
                if byte == 0x3A {
                    if colon < 0 { colon = index }
                    return true
                }
                if byte == 0x3F { question = index }
                return false   // `?`, or what is left to the scan: `#`, a space, a non-ASCII byte
            }
            guard question >= 0, colon > 0, colon < question, isScheme(start, colon: colon, count: count),
                  question + nameLength + 1 < count,
                  UnsafeBufferPointer(start: start + question + 1, count: nameLength).matches(0..<nameLength, name),
                  start[question + nameLength + 1] == 0x3D else { return nil }
        } catch {
            return nil
        }
        let value = (question + nameLength + 2)..<count
        return anyMarked(start, in: value, Delimiters(0x26, 0x23, 0x23, 0x23)) ? nil : (0..<question, value)
    }

    /// Gives `visit` each byte from `chunk` on that ``flags(_:at:count:_:)`` marks, with
    /// its offset, in order, until it returns `false`.
    /// - Returns: the offset after the byte `visit` stopped at, or `count`.
    @inline(__always)
    private static func visit(
        _ start: UnsafePointer<UInt8>, from chunk: Int, count: Int, _ delimiters: Delimiters,
        _ visit: (Int, UInt8) throws(ChargeKitError) -> Bool
    ) throws(ChargeKitError) -> Int {
        // (Offsets stay below the URL's length plus sixteen: `&+` cannot overflow.)
        var chunk = chunk
        while chunk < count {
            var flags = Self.flags(start, at: chunk, count: count, delimiters)
            while flags != 0 {
                let index = chunk &+ flags.trailingZeroBitCount
                flags &= flags &- 1
                guard try visit(index, start[index]) else { return index &+ 1 }
            }
            chunk &+= 16
        }
        return count
    }

    /// Refuses a space, a control character or DEL (a byte outside `!`…`~` that is
    /// not one of UTF-8's non-ASCII bytes).
    @inline(__always)
    private static func refuseControl(_ byte: UInt8) throws(ChargeKitError) {
        guard byte >= 0x80 else { throw .invalidURL("url", rule: "contains a space or control character") }
    }

    /// Gives `segment` the pair in `range` (nothing when it is empty).
    @inline(__always)
    private static func pair(
        _ range: Range<Int>, equals: Int, firstPercent: Int, lastPercent: Int, plainEscapes: Bool, _ segment: (Segment) -> Void
    ) {
        guard !range.isEmpty else { return }
        let nameEnd = equals < 0 ? range.upperBound : equals
        let valueStart = equals < 0 ? range.upperBound : equals + 1
        // In order by construction (a pair's first `=` is inside it): no checks needed.
        segment(Segment(name: Range(uncheckedBounds: (range.lowerBound, nameEnd)),
                        value: Range(uncheckedBounds: (valueStart, range.upperBound)),
                        nameEscaped: firstPercent >= 0 && firstPercent < nameEnd, valueEscaped: lastPercent >= valueStart,
                        escapesPlain: plainEscapes))
    }

    private typealias Bytes16 = SIMD16<UInt8>

    /// Whether the `colon` bytes before the scheme's `:` are a scheme (``isScheme(_:)``):
    /// sixteen at a time when the URL holds sixteen bytes and the scheme fits in them.
    @inline(__always)
    private static func isScheme(_ start: UnsafePointer<UInt8>, colon: Int, count: Int) -> Bool {
        guard colon <= 16 && count >= 16 else { return isScheme(UnsafeBufferPointer(start: start, count: colon)) }
        let word = UnsafeRawPointer(start).loadUnaligned(as: Bytes16.self)
        let lower: Bytes16 = word | Bytes16(repeating: 0x20)
        let letter: Bytes16 = lower &- Bytes16(repeating: 0x61), digit: Bytes16 = word &- Bytes16(repeating: 0x30)
        var allowed: SIMDMask<SIMD16<Int8>> = letter .< Bytes16(repeating: 26)
        allowed = allowed .| (digit .< Bytes16(repeating: 10))
        allowed = allowed .| (word .== Bytes16(repeating: 0x2B))
        allowed = allowed .| (word .== Bytes16(repeating: 0x2D))
        allowed = allowed .| (word .== Bytes16(repeating: 0x2E))
        let first = start[0] | 0x20
        return first >= 0x61 && first <= 0x7A && ~bits(allowed) & (1 << colon &- 1) == 0
    }

    /// RFC 3986: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`, a byte at a time.
    static func isScheme(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let first = bytes.first, (first | 0x20) >= 0x61 && (first | 0x20) <= 0x7A else { return false }
        // One bit per ASCII byte a scheme may hold: `+ - .` and digits below 64, letters above.
        let low: UInt64 = 1 << 0x2B | 1 << 0x2D | 1 << 0x2E | 0x3FF << 0x30
        let high: UInt64 = 0x3FF_FFFF << 1 | 0x3FF_FFFF << 33
        for byte in bytes {
            guard byte < 0x80, (byte < 0x40 ? low : high) >> (byte & 0x3F) & 1 != 0 else { return false }
        }
        return true
    }

    /// The bytes a part of the URL is cut at, four to a part (repeated to fill four).
    private typealias Delimiters = SIMD4<UInt8>
    /// The base's: the scheme's `:`, `?` and `#`.
    private static var baseDelimiters: Delimiters { Delimiters(0x3A, 0x3F, 0x23, 0x23) }
    /// The query's: `&`, `=`, `%` and `#`.
    private static var queryDelimiters: Delimiters { Delimiters(0x26, 0x3D, 0x25, 0x23) }
    /// The fragment's: none (a space, already looked at, fills the four).
    private static var noDelimiters: Delimiters { Delimiters(repeating: 0x20) }

    /// One bit per byte of the sixteen from `chunk` (fewer at the end of the URL, the
    /// first byte in bit 0) that needs a look: one outside `!`…`~` (a space, a control
    /// character, DEL or a non-ASCII byte) or one of `delimiters`.
    @inline(__always)
    private static func flags(_ start: UnsafePointer<UInt8>, at chunk: Int, count: Int, _ delimiters: Delimiters) -> UInt32 {
        if chunk + 16 <= count { return flags(UnsafeRawPointer(start + chunk).loadUnaligned(as: Bytes16.self), delimiters) }
        let left = count - chunk
        if count >= 16 {
            // The last sixteen bytes, shifted past those already looked at.
            return flags(UnsafeRawPointer(start + count - 16).loadUnaligned(as: Bytes16.self), delimiters) >> (16 - left)
        }
        // A URL shorter than sixteen bytes: copied, the rest of the lanes left out.
        var word = Bytes16(repeating: 0x41)
        withUnsafeMutableBytes(of: &word) { $0.copyMemory(from: UnsafeRawBufferPointer(start: start + chunk, count: left)) }
        return flags(word, delimiters) & (1 << left &- 1)
    }

    /// The bits of ``flags(_:at:count:_:)`` for sixteen bytes in a vector.
    @inline(__always)
    private static func flags(_ word: Bytes16, _ delimiters: Delimiters) -> UInt32 {
        bits(marks(word, delimiters))
    }

    /// The lanes of `word` that ``flags(_:at:count:_:)`` marks.
    @inline(__always)
    private static func marks(_ word: Bytes16, _ delimiters: Delimiters) -> SIMDMask<SIMD16<Int8>> {
        // Bytes below `!` wrap round to the top, so one unsigned comparison finds both ends.
        let shifted: Bytes16 = word &- Bytes16(repeating: 0x21)
        var marked: SIMDMask<SIMD16<Int8>> = shifted .> Bytes16(repeating: 0x7E - 0x21)
        // (One comparison per statement: a longer expression makes the compiler pick
        // the element-by-element generic operators.)
        marked = marked .| (word .== Bytes16(repeating: delimiters[0]))
        marked = marked .| (word .== Bytes16(repeating: delimiters[1]))
        marked = marked .| (word .== Bytes16(repeating: delimiters[2]))
        marked = marked .| (word .== Bytes16(repeating: delimiters[3]))
        return marked
    }

    /// Whether ``flags(_:at:count:_:)`` marks any byte in `range`: the marks of its
    /// chunks gathered into one vector, looked at once (where they are is not needed).
    @inline(__always)
    private static func anyMarked(_ start: UnsafePointer<UInt8>, in range: Range<Int>, _ delimiters: Delimiters) -> Bool {
        var marked = SIMDMask<SIMD16<Int8>>(repeating: false), chunk = range.lowerBound
        while chunk &+ 16 <= range.upperBound {
            marked = marked .| marks(UnsafeRawPointer(start + chunk).loadUnaligned(as: Bytes16.self), delimiters)
            chunk &+= 16
        }
        return any(marked) || chunk < range.upperBound && flags(start, at: chunk, count: range.upperBound, delimiters) != 0
    }

    /// One bit per lane of `mask`, the first lane in bit 0.
    @inline(__always)
    private static func bits(_ mask: SIMDMask<SIMD16<Int8>>) -> UInt32 {
        // Each marked lane is all ones; gather the high bit of each lane of each half
        // into one byte (the multiplication moves bit 8i+7 to bit 56+i, without carries).
        let halves = unsafeBitCast(mask, to: SIMD2<UInt64>.self)
        let highs: UInt64 = 0x8080_8080_8080_8080, gather: UInt64 = 0x0002_0408_1020_4081
        let low = ((halves[0] & highs) &* gather) >> 56, high = ((halves[1] & highs) &* gather) >> 56
        return UInt32(truncatingIfNeeded: low | high << 8)
    }

    /// One `name=value` pair of the query, as byte ranges.
    struct Segment {
        /// The name's bytes.
        var name: Range<Int>
        /// The value's bytes, empty for a bare `name` or `name=`.
        var value: Range<Int>
        /// Whether the name holds a `%` escape.
        var nameEscaped: Bool
        /// Whether the value holds a `%` escape.
        var valueEscaped: Bool
        /// Whether every `%` of the pair is followed by two hex digits that give an
        /// ASCII byte: its escapes then decode, and to UTF-8, with no further check.
        var escapesPlain: Bool
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// The bytes in `range` as a string. They were cut from a Swift string at ASCII
    /// delimiters, so they are valid UTF-8.
    @inline(__always)
    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: self[range]), as: UTF8.self)
    }

    /// The bytes in `range`, percent-decoded when `escaped`.
    /// - Throws: the decoding error, naming `field`.
    @inline(__always)
    func decoded(_ range: Range<Int>, escaped: Bool, field: @autoclosure () -> String) throws(ChargeKitError) -> String {
        guard escaped else { return string(range) }
        return try PercentEncoding.decode(UnsafeBufferPointer(rebasing: self[range]), field: field())
    }

    /// Whether the bytes are `text`'s UTF-8 (a literal's, say), compared eight at a time.
    @inline(__always)
    func spells(_ text: String) -> Bool {
        guard text.utf8.count == count else { return false }
        return text.utf8.withContiguousStorageIfAvailable { other in
            guard let start = other.baseAddress else { return true }
            return equal(at: 0, to: start, count: count)
        } ?? text.utf8.elementsEqual(self)
    }

    /// Whether the bytes in `range`, from `offset` on, are `expected`.
    @inline(__always)
    func matches(_ range: Range<Int>, _ expected: StaticString, from offset: Int = 0) -> Bool {
        let count = expected.utf8CodeUnitCount
        return range.count - offset == count && equal(at: range.lowerBound + offset, to: expected.utf8Start, count: count)
    }

    /// Whether the bytes in `range`, from `offset` on, start with `prefix`.
    @inline(__always)
    func hasPrefix(_ range: Range<Int>, _ prefix: StaticString, from offset: Int = 0) -> Bool {
        let count = prefix.utf8CodeUnitCount
        return range.count - offset >= count && equal(at: range.lowerBound + offset, to: prefix.utf8Start, count: count)
    }

    /// Whether the `count` bytes at `start` equal those at `other`: eight at a time, the
    /// last eight (or four) overlapping those already compared rather than one by one
    /// (names are short). The caller has checked that both runs are in bounds.
    @inline(__always)
    func equal(at start: Int, to other: UnsafePointer<UInt8>, count: Int) -> Bool {
        let here = UnsafeRawPointer(baseAddress.unsafelyUnwrapped + start), there = UnsafeRawPointer(other)
        if count >= 8 {
            var offset = 0
            while offset + 8 < count {
                guard here.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                        == there.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
                offset += 8
            }
            return here.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                == there.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
        }
        if count >= 4 {
            return here.loadUnaligned(as: UInt32.self) == there.loadUnaligned(as: UInt32.self)
                && here.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
                == there.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)
        }
        for offset in 0..<count where here.load(fromByteOffset: offset, as: UInt8.self) != there.load(fromByteOffset: offset, as: UInt8.self) {
            return false
        }
        return true
    }
}
