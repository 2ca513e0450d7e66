/// A URL's UTF-8 bytes cut into its parts without copying: the one scanner under
/// ``QueryURL`` and every callback parser.
///
/// One pass checks the whole URL (no space or control character, a `scheme:`) and
/// finds `?` and `#`; ``segments()`` then walks the query's `name=value` pairs as byte
/// ranges, noting which part holds a `%` escape. Strings are made only by the caller,
/// only for the parts it keeps.
struct URLBytes {
    /// Everything before `?` (or before `#` without a query).
    let base: Range<Int>
    /// The query, after `?` and before `#`; empty without one.
    let query: Range<Int>
    /// The fragment after `#`, if there is one.
    let fragment: Range<Int>?
    private let bytes: UnsafeBufferPointer<UInt8>

    /// - Throws: ``ChargeKitError/invalidURL(_:rule:)`` for a space or control
    ///   character, or without a `scheme:`.
    init(_ bytes: UnsafeBufferPointer<UInt8>) throws(ChargeKitError) {
        self.bytes = bytes
        var colon = -1, question = -1, hash = -1
        var index = 0
        // Eight bytes at a time: a word none of whose bytes needs a look is passed over;
        // otherwise the scan goes to its first byte that does (the lowest flag is exact).
        // The scheme's `:` counts only before any `?` or `#`.
        let ones: UInt64 = 0x0101_0101_0101_0101
        while index < bytes.count {
            if index + 8 <= bytes.count {
                let word = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + index).loadUnaligned(as: UInt64.self)
                var flags = Self.outsidePrintable(word)
                if hash < 0 {
                    flags |= Self.zeroByte(word ^ (ones &* 0x23))
                    if question < 0 {
                        flags |= Self.zeroByte(word ^ (ones &* 0x3F))
                        if colon < 0 { flags |= Self.zeroByte(word ^ (ones &* 0x3A)) }
                    }
                }
                if flags == 0 {
                    index += 8
                    continue
                }
                index += flags.trailingZeroBitCount >> 3
            }
            let byte = bytes[index]
            guard byte > 0x20 && byte != 0x7F else { throw .invalidURL("url", rule: "contains a space or control character") }
            if hash < 0 {
                if byte == 0x23 {
                    hash = index
                } else if question < 0 {
                    if byte == 0x3F {
                        question = index
                    } else if byte == 0x3A && colon < 0 {
                        colon = index
                    }
                }
            }
            index += 1
        }
        guard colon > 0, QueryURL.isScheme(UnsafeBufferPointer(rebasing: bytes[0..<colon])) else {
            throw .invalidURL("url", rule: "must start with a scheme such as 'my-app:'")
        }
        let end = hash < 0 ? bytes.count : hash
        fragment = hash < 0 ? nil : hash + 1..<bytes.count
        base = 0..<(question < 0 ? end : question)
        query = question < 0 ? end..<end : question + 1..<end
    }

    /// The high bit of each of the eight bytes (little-endian order) outside `!`…`~`:
    /// a control character, a space, DEL, or a non-ASCII byte (looked at, then passed).
    /// Only the lowest flag, and "none", are exact.
    @inline(__always)
    private static func outsidePrintable(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        // A byte below 0x21 borrows; a byte of 0x7F or more carries into, or has, its high bit.
        return ((word &- ones &* 0x21) & ~word | (word &+ ones) | word) & highs
    }

    /// The high bit set in each zero byte of `word` (and possibly in a byte above a zero
    /// one, through the borrow: the lowest flag, and "none", are exact).
    @inline(__always)
    static func zeroByte(_ word: UInt64) -> UInt64 {
        (word &- 0x0101_0101_0101_0101) & ~word & 0x8080_8080_8080_8080
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
    }

    /// The query's pairs in order. Empty segments (`a=1&&b=2`, a trailing `&`) carry
    /// nothing and are skipped; a segment without `=` is a name with an empty value.
    func segments() -> Segments { Segments(bytes: bytes, index: query.lowerBound, end: query.upperBound) }

    /// Walks the query's pairs.
    struct Segments: IteratorProtocol {
        let bytes: UnsafeBufferPointer<UInt8>
        var index: Int
        let end: Int

        mutating func next() -> Segment? {
            let ones: UInt64 = 0x0101_0101_0101_0101
            while index < end {
                let start = index
                var equals = -1, firstPercent = -1, lastPercent = -1
                while index < end {
                    // Eight bytes at a time to the next `&`, `=` or `%`.
                    if index + 8 <= end {
                        let word = UnsafeRawPointer(bytes.baseAddress.unsafelyUnwrapped + index).loadUnaligned(as: UInt64.self)
                        let flags = URLBytes.zeroByte(word ^ (ones &* 0x26)) | URLBytes.zeroByte(word ^ (ones &* 0x3D))
                            | URLBytes.zeroByte(word ^ (ones &* 0x25))
                        if flags == 0 {
                            index += 8
                            continue
                        }
                        index += flags.trailingZeroBitCount >> 3
                    }
                    let byte = bytes[index]
                    if byte == 0x26 { break }
                    if byte == 0x3D && equals < 0 { equals = index }
                    if byte == 0x25 {
                        if firstPercent < 0 { firstPercent = index }
                        lastPercent = index
                    }
                    index += 1
                }
                let stop = index
                index += 1
                guard stop > start else { continue }
                let nameEnd = equals < 0 ? stop : equals
                let valueStart = equals < 0 ? stop : equals + 1
                return Segment(name: start..<nameEnd, value: valueStart..<stop,
                               nameEscaped: firstPercent >= 0 && firstPercent < nameEnd,
                               valueEscaped: lastPercent >= valueStart)
            }
            return nil
        }
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

    /// Whether the `count` bytes at `start` equal those at `other`, compared eight at a
    /// time. The caller has checked that both runs are in bounds.
    @inline(__always)
    func equal(at start: Int, to other: UnsafePointer<UInt8>, count: Int) -> Bool {
        let here = UnsafeRawPointer(baseAddress.unsafelyUnwrapped + start), there = UnsafeRawPointer(other)
        var offset = 0
        while offset + 8 <= count {
            guard here.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                    == there.loadUnaligned(fromByteOffset: offset, as: UInt64.self) else { return false }
            offset += 8
        }
        while offset < count {
            guard here.load(fromByteOffset: offset, as: UInt8.self) == there.load(fromByteOffset: offset, as: UInt8.self) else {
                return false
            }
            offset += 1
        }
        return true
    }
}
