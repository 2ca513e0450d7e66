/// Percent-encoding as every ChargeKit protocol needs it: UTF-8 first, then every
/// byte outside RFC 3986's unreserved set (`A-Z a-z 0-9 - . _ ~`) becomes `%XX`
/// with upper-case hex. So the whole reserved set `:/?#[]@!$&'()*+,;=` is encoded,
/// and a space is `%20`, never `+`.
@_spi(Tools) public enum PercentEncoding {
    /// The upper-case hex digit of the low four bits of `nibble`.
    @inline(__always)
    static func hexDigit(_ nibble: UInt8) -> UInt8 {
        let value = nibble & 0x0F
        return value < 10 ? 0x30 + value : 0x41 - 10 + value
    }

    /// Encodes `text` for use as a query name or value.
    @_spi(Tools) public static func encode(_ text: String) -> String {
        String(unsafeUninitializedCapacity: 3 * text.utf8.count) { buffer in
            var writer = ByteWriter(buffer)
            writer.appendPercentEncoded(text)
            return writer.count
        }
    }

    /// Decodes `%XX` escapes strictly.
    ///
    /// `+` is kept as a literal plus (RFC 3986; ChargeKit encodes a space as `%20`).
    /// - Throws: ``ChargeKitError/malformedPercentEncoding(field:rule:)`` naming `field`
    ///   when an escape is not `%` and two hex digits, or when the bytes are not UTF-8.
    @_spi(Tools) public static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes, field: String) throws(ChargeKitError) -> String {
        if let decoded = bytes.withContiguousStorageIfAvailable({ buffer in Result { () throws(ChargeKitError) in
            try decode(buffer, field: field)
        } }) {
            return try decoded.get()
        }
        return try decode(Array(bytes), field: field)
    }

    /// Decodes contiguous bytes straight into the new string's own buffer (one
    /// allocation, none for a short result).
    private static func decode(_ bytes: UnsafeBufferPointer<UInt8>, field: @autoclosure () -> String) throws(ChargeKitError) -> String {
        var failure: ChargeKitError?
        let text = String(unsafeUninitializedCapacity: Swift.max(bytes.count, 1)) { out in
            guard let (count, ascii) = unescape(bytes, into: out) else {
                failure = .malformedPercentEncoding(field: field(), rule: malformedEscapeRule)
                return 0
            }
            // Bytes copied as they were came from a String: only escapes can break UTF-8.
            if !ascii, String(validating: UnsafeBufferPointer(rebasing: out[0..<count]), as: UTF8.self) == nil {
                failure = .malformedPercentEncoding(field: field(), rule: "decoded bytes are not valid UTF-8")
                return 0
            }
            return count
        }
        if let failure { throw failure }
        return text
    }

    /// Checks that `bytes` would decode (``decode(_:field:)-(Bytes,_)``'s rules and
    /// errors): every `%` followed by two hex digits, and the decoded bytes UTF-8.
    @inline(never)   // rare (escapes the scan could not vouch for): kept out of its caller
    static func check(_ bytes: UnsafeBufferPointer<UInt8>, field: @autoclosure () -> String) throws(ChargeKitError) {
        _ = try decode(bytes, field: field())
    }

    /// The one reading of `%XX` escapes, for ``decode(_:field:)-(Bytes,_)``,
    /// ``withDecodedChecked(_:_:)`` and Square's answer: copies `bytes` to `buffer`
    /// (which must hold `bytes.count` bytes) with each escape decoded.
    ///
    /// Plain bytes are copied eight at a time while eight are left, the first `%` of a
    /// word found with one subtraction (the output never gets ahead of the input, so
    /// a whole word always fits, and what it writes past the `%` is overwritten next).
    /// - Returns: the number of bytes written and whether every escape gave an ASCII
    ///   byte; `nil` at a `%` that is not followed by two hex digits (or when
    ///   `buffer` is too small).
    @inline(__always)
    static func unescape(_ bytes: UnsafeBufferPointer<UInt8>, into buffer: UnsafeMutableBufferPointer<UInt8>) -> (count: Int, ascii: Bool)? {
        guard let from = bytes.baseAddress else { return (0, true) }
        guard let out = buffer.baseAddress, buffer.count >= bytes.count else { return nil }
        let count = bytes.count
        // (Offsets stay below `count`, and `count` below Int.max - 8: `&+` cannot overflow.)
        var index = 0, written = 0, decodedBits: UInt8 = 0
        // (The table's buffer: no bounds check on a lookup whose index is below 128.)
        let finished = hexValues.withUnsafeBufferPointer { values -> Bool in
            while index < count {
                while index &+ 8 <= count {
                    let word = UnsafeRawPointer(from + index).loadUnaligned(as: UInt64.self)
                    UnsafeMutableRawPointer(out + written).storeBytes(of: word, as: UInt64.self)
                    // A zero byte of `word ^ %%%%%%%%` is a `%`: the lowest high bit marks the first.
                    let percents = UInt64(littleEndian: word) ^ 0x2525_2525_2525_2525
                    let first = (percents &- 0x0101_0101_0101_0101) & ~percents & 0x8080_8080_8080_8080
                    guard first == 0 else {
                        let plain = first.trailingZeroBitCount &>> 3
                        index &+= plain
                        written &+= plain
                        break
                    }
                    index &+= 8
                    written &+= 8
                }
                while index < count && from[index] != 0x25 {
                    out[written] = from[index]
                    index &+= 1
                    written &+= 1
                }
                // The escapes here, as many as come one after another (`%22%3A%22`).
                while index < count && from[index] == 0x25 {
                    guard index &+ 2 < count else { return false }
                    let high = from[index &+ 1], low = from[index &+ 2]
                    // A byte of 0x80 or more keeps its high bit, and so is refused with the rest.
                    let highValue = values[Int(high & 0x7F)] | high & 0x80, lowValue = values[Int(low & 0x7F)] | low & 0x80
                    guard highValue | lowValue < 0x10 else { return false }
                    let decoded = highValue &<< 4 | lowValue
                    decodedBits |= decoded
                    out[written] = decoded
                    written &+= 1
                    index &+= 3
                }
            }
            return true
        }
        guard finished else { return nil }
        return (written, decodedBits < 0x80)
    }

    /// Each ASCII byte's ``hexValue(_:)``, 0xFF for any other: in a run of escapes, one
    /// load instead of three comparisons.
    private static let hexValues: [UInt8] = (0..<128).map { hexValue(UInt8($0)) ?? 0xFF }

    private static let malformedEscapeRule = "'%' must be followed by two hex digits"

    /// The text of a value that ``check(_:field:)`` accepted: decoded when `escaped`,
    /// else as it is (a malformed escape is kept as it is rather than trapping).
    static func decodeChecked(_ bytes: UnsafeBufferPointer<UInt8>, escaped: Bool = true) -> String {
        guard escaped else { return String(decoding: bytes, as: UTF8.self) }
        do throws(ChargeKitError) {
            return try decode(bytes, field: "")
        } catch {
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// Runs `body` on the decoded bytes of a value that ``check(_:field:)`` accepted,
    /// decoded into temporary storage (a malformed escape is kept as it is rather than
    /// trapping).
    @inline(__always)
    static func withDecodedChecked<Result>(
        _ bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) throws(ChargeKitError) -> Result
    ) throws(ChargeKitError) -> Result {
        try withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count) { out throws(ChargeKitError) in
            guard let (count, _) = unescape(bytes, into: out) else { return try body(bytes) }
            return try body(UnsafeBufferPointer(rebasing: out[0..<count]))
        }
    }

    /// Decodes a string's `%XX` escapes strictly; see ``decode(_:field:)-(Bytes,_)``.
    @_spi(Tools) public static func decode(_ text: String, field: String) throws(ChargeKitError) -> String {
        try decode(text.utf8, field: field)
    }

    @inline(__always)
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E: return true
        default: return false
        }
    }

    /// Whether `%` followed by `high` and `low` is a well-formed escape of an ASCII byte
    /// (`%00`–`%7F`): one that decodes, and to UTF-8, whatever surrounds it.
    @inline(__always)
    static func isASCIIEscape(_ high: UInt8, _ low: UInt8) -> Bool {
        guard let high = hexValue(high), hexValue(low) != nil else { return false }
        return high < 8
    }

    /// A hex digit's value (`0`–`9`, `A`–`F`, `a`–`f`); also what `SquareJSON` reads a
    /// `\u` escape's digits with.
    @inline(__always)
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
