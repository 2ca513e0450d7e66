/// A URL's UTF-8 bytes cut into its parts without copying: the one scanner under
/// ``QueryURL`` and every callback parser.
///
/// One pass checks the whole URL (no space or control character, a `scheme:`), finds
/// `?` and `#`, and cuts the query into its `name=value` pairs as byte ranges, noting
/// which part holds a `%` escape. Strings are made only by the caller, only for the
/// parts it keeps.
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
    /// The base's `:` `?` `#` and the query's `&` `=` `%` `#` cut the URL; in every
    /// part a space, a control character or DEL is refused and a non-ASCII byte kept.
    /// - Throws: ``ChargeKitError/invalidURL(_:rule:)`` for a space or control
    ///   character, or without a `scheme:`.
    init(_ bytes: Span<UInt8>, segment: (Segment) -> Void) throws(ChargeKitError) {
        let count = bytes.count
        var colon = -1, baseEnd = count, queryStart = count, queryEnd = count, fragmentStart = -1
        var index = 0
        base: while index < count {
            let byte = bytes[index]
            index += 1
            // Every byte that cuts a URL or is refused is below `@` or is DEL.
            if byte >= 0x40 && byte != 0x7F { continue }
            switch byte {
            case 0x3A:   // the scheme's `:` is the first one
                if colon < 0 { colon = index - 1 }
            case 0x3F:
                baseEnd = index - 1
                queryStart = index
                break base
            case 0x23:
                baseEnd = index - 1
                queryStart = index - 1
                queryEnd = index - 1
                fragmentStart = index
                break base
            default:
                try Self.refuseControl(byte)
            }
        }
        if queryStart < queryEnd {
            var pair = Pair(start: index)
            query: while index < count {
                let byte = bytes[index]
                if byte >= 0x40 && byte != 0x7F {
                    index += 1
                    continue
                }
                switch byte {
                case 0x3D:   // `=`: the first one ends the name
                    if pair.equals < 0 { pair.equals = index }
                case 0x25:   // `%`
                    if pair.firstPercent < 0 { pair.firstPercent = index }
                    pair.lastPercent = index
                    // Looked at here, so that most values need no second look.
                    if !(index + 2 < count && PercentEncoding.isASCIIEscape(bytes[index + 1], bytes[index + 2])) {
                        pair.plainEscapes = false
                    }
                case 0x26:   // `&` ends a pair
                    pair.give(end: index, segment)
                    pair = Pair(start: index + 1)
                case 0x23:   // `#` ends the query
                    queryEnd = index
                    fragmentStart = index + 1
                    break query
                default:   // `?`, `:` and non-ASCII bytes are plain in a query
                    try Self.refuseControl(byte)
                }
                index += 1
            }
            pair.give(end: queryEnd, segment)
        }
        if fragmentStart >= 0 {
            // Only checked: its bytes mean nothing to a callback.
            for index in fragmentStart..<count { try Self.refuseControl(bytes[index]) }
        }
        base = 0..<baseEnd
        query = queryStart..<queryEnd
        fragment = fragmentStart < 0 ? nil : fragmentStart..<count
        guard colon > 0, Self.isScheme(bytes.extracting(0..<colon)) else {
            throw .invalidURL("url", rule: "must start with a scheme such as 'my-app:'")
        }
    }

    /// A pair of the query being scanned.
    private struct Pair {
        var start: Int
        var equals = -1, firstPercent = -1, lastPercent = -1
        var plainEscapes = true

        /// Gives `segment` the pair, ending at `end` (nothing when it is empty).
        func give(end: Int, _ segment: (Segment) -> Void) {
            guard start < end else { return }
            let nameEnd = equals < 0 ? end : equals
            let valueStart = equals < 0 ? end : equals + 1
            segment(Segment(name: start..<nameEnd, value: valueStart..<end,
                            nameEscaped: firstPercent >= 0 && firstPercent < nameEnd, valueEscaped: lastPercent >= valueStart,
                            escapesPlain: plainEscapes))
        }
    }

    /// Refuses a space, a control character or DEL (a byte outside `!`…`~` that is
    /// not one of UTF-8's non-ASCII bytes).
    @inline(__always)
    private static func refuseControl(_ byte: UInt8) throws(ChargeKitError) {
        guard byte > 0x20 && byte != 0x7F else { throw .invalidURL("url", rule: "contains a space or control character") }
    }

    /// RFC 3986: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
    static func isScheme(_ bytes: Span<UInt8>) -> Bool {
        guard !bytes.isEmpty, isLetter(bytes[0]) else { return false }
        return bytes.allSatisfy { isLetter($0) || DecimalText.isDigit($0) || $0 == 0x2B || $0 == 0x2D || $0 == 0x2E }
    }

    @inline(__always)
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

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
