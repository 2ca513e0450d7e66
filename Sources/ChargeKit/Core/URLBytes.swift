/// A URL's UTF-8 bytes cut into its parts without copying: the one scanner under
/// ``QueryURL`` and every callback parser.
///
/// One pass, eight bytes at a time, checks the whole URL (no space or control
/// character, a `scheme:`), finds `?` and `#`, and cuts the query into its
/// `name=value` pairs as byte ranges, noting which part holds a `%` escape. Strings
/// are made only by the caller, only for the parts it keeps.
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
    /// - Throws: ``ChargeKitError/invalidURL(_:rule:)`` for a space or control
    ///   character, or without a `scheme:`.
    @inline(__always)
    init(_ bytes: UnsafeBufferPointer<UInt8>, segment: (Segment) -> Void) throws(ChargeKitError) {
        let count = bytes.count
        let start = bytes.baseAddress.unsafelyUnwrapped
        var index = 0
        // The base: up to `?` or `#`; the scheme's `:` is the first one.
        var colon = -1
        let stops = Self.stops(colon: true), stopsAfterColon = Self.stops(colon: false)
        while let stop = try Self.nextStop(start, &index, count, colon < 0 ? stops : stopsAfterColon), stop == 0x3A {
            colon = index
            index += 1
        }
        base = 0..<index
        // The query, pair by pair, up to `#`.
        if index < count && start[index] == 0x3F {
            index += 1
            let queryStart = index
            let pairStops = Self.pairStops
            var pairStart = index, equals = -1, firstPercent = -1, lastPercent = -1
            while true {
                let stop = try Self.nextStop(start, &index, count, pairStops)
                if let byte = stop, byte != 0x26 && byte != 0x23 {
                    if byte == 0x3D && equals < 0 { equals = index }
                    if byte == 0x25 {
                        if firstPercent < 0 { firstPercent = index }
                        lastPercent = index
                    }
                    index += 1
                    continue
                }
                // The pair ends at `&`, `#` or the end of the URL.
                if index > pairStart {
                    let nameEnd = equals < 0 ? index : equals
                    let valueStart = equals < 0 ? index : equals + 1
                    segment(Segment(name: pairStart..<nameEnd, value: valueStart..<index,
                                    nameEscaped: firstPercent >= 0 && firstPercent < nameEnd,
                                    valueEscaped: lastPercent >= valueStart))
                }
                guard stop == 0x26 else { break }
                index += 1
                pairStart = index
                equals = -1
                firstPercent = -1
                lastPercent = -1
            }
            query = queryStart..<index
        } else {
            query = index..<index
        }
        // The fragment, after the `#` the scan stopped at: only checked (it has no
        // stops, so this only throws at a control character).
        if index < count {
            index += 1
            fragment = index..<count
            _ = try Self.nextStop(start, &index, count, Self.fragmentStops)
        } else {
            fragment = nil
        }
        guard colon > 0, QueryURL.isScheme(UnsafeBufferPointer(start: start, count: colon)) else {
            throw .invalidURL("url", rule: "must start with a scheme such as 'my-app:'")
        }
    }

    /// The delimiters a part of the URL stops at, each repeated in every byte of a word.
    private struct Stops {
        var first: UInt64, second: UInt64, third: UInt64, fourth: UInt64
    }

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    /// A byte that cannot be a delimiter, for the unused slots of ``Stops`` (DEL is
    /// flagged as a control character anyway).
    private static let unused: UInt64 = ones &* 0x7F

    /// The base stops at `?` and `#` (and at `:` until the scheme's is found).
    @inline(__always)
    private static func stops(colon: Bool) -> Stops {
        Stops(first: ones &* 0x3F, second: ones &* 0x23, third: colon ? ones &* 0x3A : unused, fourth: unused)
    }
    /// A pair stops at `&`, `=`, `%` and `#`.
    private static var pairStops: Stops { Stops(first: ones &* 0x26, second: ones &* 0x3D, third: ones &* 0x25, fourth: ones &* 0x23) }
    /// The fragment stops only at bytes outside `!`…`~`.
    private static var fragmentStops: Stops { Stops(first: unused, second: unused, third: unused, fourth: unused) }

    /// Moves `index` to the next byte that is one of `stops` and returns it; `nil` (with
    /// `index` at `count`) when there is none. Bytes outside `!`…`~` are looked at on
    /// the way: a non-ASCII byte passes, a space or control character is refused. Eight
    /// bytes at a time: a word none of whose bytes needs a look is passed over;
    /// otherwise the lowest flag, which is exact, gives the byte.
    /// - Throws: ``ChargeKitError/invalidURL(_:rule:)`` at a space or control character.
    @inline(__always)
    private static func nextStop(_ start: UnsafePointer<UInt8>, _ index: inout Int, _ count: Int, _ stops: Stops) throws(ChargeKitError) -> UInt8? {
        while index < count {
            let byte: UInt8
            if index + 8 <= count {
                let word = UnsafeRawPointer(start + index).loadUnaligned(as: UInt64.self)
                let flags = outsidePrintable(word) | zeroByte(word ^ stops.first) | zeroByte(word ^ stops.second)
                    | zeroByte(word ^ stops.third) | zeroByte(word ^ stops.fourth)
                guard flags != 0 else {
                    index += 8
                    continue
                }
                index += flags.trailingZeroBitCount >> 3
                byte = start[index]
            } else {
                byte = start[index]
                guard byte <= 0x20 || byte >= 0x7F || UInt64(byte) &* ones == stops.first || UInt64(byte) &* ones == stops.second
                        || UInt64(byte) &* ones == stops.third || UInt64(byte) &* ones == stops.fourth
                else {
                    index += 1
                    continue
                }
            }
            guard byte > 0x20 && byte != 0x7F else { throw .invalidURL("url", rule: "contains a space or control character") }
            guard byte >= 0x80 else { return byte }
            index += 1   // a non-ASCII byte, which passes
        }
        return nil
    }

    /// The high bit of each of the eight bytes (little-endian order) outside `!`…`~`:
    /// a control character, a space, DEL, or a non-ASCII byte (looked at, then passed).
    /// Only the lowest flag, and "none", are exact.
    @inline(__always)
    private static func outsidePrintable(_ word: UInt64) -> UInt64 {
        let highs: UInt64 = 0x8080_8080_8080_8080
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
