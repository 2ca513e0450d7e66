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
        var writer = ByteWriter(capacity: 3 * text.utf8.count)
        writer.appendPercentEncoded(text)
        return writer.string
    }

    /// Decodes `%XX` escapes strictly.
    ///
    /// `+` is kept as a literal plus (RFC 3986; ChargeKit encodes a space as `%20`).
    /// - Throws: ``ChargeKitError/malformedPercentEncoding(field:rule:)`` naming `field`
    ///   when an escape is not `%` and two hex digits, or when the bytes are not UTF-8.
    @_spi(Tools) public static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes, field: String) throws(ChargeKitError) -> String {
        try Array(bytes).withSpan { bytes throws(ChargeKitError) in try decode(bytes, field: field) }
    }

    /// Decodes the escapes of `bytes`; see ``decode(_:field:)-(Bytes,_)``.
    static func decode(_ bytes: Span<UInt8>, field: @autoclosure () -> String) throws(ChargeKitError) -> String {
        guard let (decoded, ascii) = unescape(bytes) else {
            throw .malformedPercentEncoding(field: field(), rule: malformedEscapeRule)
        }
        // Bytes copied as they were came from a String: only escapes can break UTF-8.
        if ascii { return String(decoding: decoded, as: UTF8.self) }
        guard let text = String(validating: decoded, as: UTF8.self) else {
            throw .malformedPercentEncoding(field: field(), rule: "decoded bytes are not valid UTF-8")
        }
        return text
    }

    /// Checks that `bytes` would decode (``decode(_:field:)-(Bytes,_)``'s rules and
    /// errors): every `%` followed by two hex digits, and the decoded bytes UTF-8.
    static func check(_ bytes: Span<UInt8>, field: @autoclosure () -> String) throws(ChargeKitError) {
        _ = try decode(bytes, field: field())
    }

    /// The one reading of `%XX` escapes: `bytes` with each escape decoded, and whether
    /// every escape gave an ASCII byte; `nil` at a `%` that is not followed by two hex
    /// digits. (The copy is the SDK's busiest loop, so it is written with pointers,
    /// in `UnsafeBytes.swift`.)
    static func unescape(_ bytes: Span<UInt8>) -> (bytes: [UInt8], ascii: Bool)? { bytes.percentDecoded() }

    /// Each ASCII byte's ``hexValue(_:)``, 0xFF for any other: in a run of escapes, one
    /// load instead of three comparisons.
    static let hexValues: [UInt8] = (0..<128).map { hexValue(UInt8($0)) ?? 0xFF }

    private static let malformedEscapeRule = "'%' must be followed by two hex digits"

    /// The text of a value that ``check(_:field:)`` accepted: decoded when `escaped`,
    /// else as it is (a malformed escape is kept as it is rather than trapping).
    static func decodeChecked(_ bytes: Span<UInt8>, escaped: Bool = true) -> String {
        guard escaped else { return String(utf8: bytes) }
        do throws(ChargeKitError) {
            return try decode(bytes, field: "")
        } catch {
            return String(utf8: bytes)
        }
    }

    /// Runs `body` on the decoded bytes of a value that ``check(_:field:)`` accepted
    /// (a malformed escape is kept as it is rather than trapping).
    static func withDecodedChecked<Result>(
        _ bytes: Span<UInt8>, _ body: (Span<UInt8>) throws(ChargeKitError) -> Result
    ) throws(ChargeKitError) -> Result {
        guard let (decoded, _) = unescape(bytes) else { return try body(bytes) }
        return try decoded.withSpan(body)
    }

    /// Decodes a string's `%XX` escapes strictly; see ``decode(_:field:)-(Bytes,_)``.
    @_spi(Tools) public static func decode(_ text: String, field: String) throws(ChargeKitError) -> String {
        try text.withUTF8Span { bytes throws(ChargeKitError) in try decode(bytes, field: field) }
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
