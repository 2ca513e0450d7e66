/// What the readers ask of a run of bytes, on `Span<UInt8>`: every index checked.
extension Span<UInt8> {
    /// Whether every byte passes `accepted`.
    @inline(__always)
    func allSatisfy(_ accepted: (UInt8) -> Bool) -> Bool {
        for index in indices where !accepted(self[index]) { return false }
        return true
    }

    /// Whether any byte is `byte`.
    @inline(__always)
    func contains(_ byte: UInt8) -> Bool { !allSatisfy { $0 != byte } }

    /// The bytes in `range` as a string (see ``Swift/String/init(utf8:)``).
    @inline(__always)
    func string(_ range: Range<Int>) -> String { String(utf8: extracting(range)) }

    /// The whole run as a string.
    @inline(__always)
    var string: String { String(utf8: self) }

    /// The bytes in `range`, percent-decoded when `escaped`.
    /// - Throws: the decoding error, naming `field`.
    @inline(__always)
    func decoded(_ range: Range<Int>, escaped: Bool, field: @autoclosure () -> String) throws(ChargeKitError) -> String {
        guard escaped else { return string(range) }
        return try PercentEncoding.decode(extracting(range), field: field())
    }

    /// Whether the bytes are `text`'s UTF-8.
    func spells(_ text: String) -> Bool {
        guard text.utf8.count == count else { return false }
        var index = 0
        for byte in text.utf8 {
            guard self[index] == byte else { return false }
            index += 1
        }
        return true
    }

    /// Whether the bytes in `range`, from `offset` on, are `expected`.
    @inline(__always)
    func matches(_ range: Range<Int>, _ expected: StaticString, from offset: Int = 0) -> Bool {
        range.count - offset == expected.utf8CodeUnitCount && hasPrefix(range, expected, from: offset)
    }

    /// Whether the whole run is `expected`.
    @inline(__always)
    func matches(_ expected: StaticString) -> Bool { matches(0..<count, expected) }

    /// Whether the bytes in `range`, from `offset` on, start with `prefix`.
    @inline(__always)
    func hasPrefix(_ range: Range<Int>, _ prefix: StaticString, from offset: Int = 0) -> Bool {
        guard range.count - offset >= prefix.utf8CodeUnitCount else { return false }
        return prefix.withSpan { prefix in equal(at: range.lowerBound + offset, to: prefix, at: 0, count: prefix.count) }
    }

    /// Whether the `count` bytes from `start` equal those of `other` from `otherStart`.
    @inline(__always)
    func equal(at start: Int, to other: Span<UInt8>, at otherStart: Int, count: Int) -> Bool {
        for offset in 0..<count where self[start + offset] != other[otherStart + offset] { return false }
        return true
    }
}
