/// Checks shared by every request builder and by the Citcon UPI SDK and sandbox. Each
/// throws a ``ChargeKitError`` that names `field`.
@_spi(Tools) public enum FieldRules {
    /// Whether `text` is a URL scheme by RFC 3986 (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`,
    /// ASCII only): the rule the URL scanner applies, for callers that hold a scheme alone.
    @_spi(Tools) public static func isScheme(_ text: some StringProtocol) -> Bool {
        var text = String(text)
        return text.withUTF8(URLBytes.isScheme)
    }

    /// A free-text field: no control characters, at most `limit` characters.
    @_spi(Tools) public static func text(_ value: String, field: @autoclosure () -> String, limit: Int) throws(ChargeKitError) {
        // Printable ASCII, the common case: one byte is one character and none is a control.
        if value.utf8.withContiguousStorageIfAvailable(isPrintableASCII) ?? false {
            guard value.utf8.count <= limit else { throw .fieldTooLong(field(), limit: limit) }
            return
        }
        guard value.count <= limit else { throw .fieldTooLong(field(), limit: limit) }
        guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidField(field(), rule: "must not contain control characters")
        }
    }

    /// The rule of `text(_:field:limit:)`, on a value's UTF-8 bytes: a string is made
    /// only when they are not all printable ASCII (characters are then counted).
    static func text(_ bytes: UnsafeBufferPointer<UInt8>, field: @autoclosure () -> String, limit: Int) throws(ChargeKitError) {
        if isPrintableASCII(bytes) {
            guard bytes.count <= limit else { throw .fieldTooLong(field(), limit: limit) }
            return
        }
        try text(String(decoding: bytes, as: UTF8.self), field: field(), limit: limit)
    }

    /// Only printable ASCII (0x20–0x7E), at most `limit` characters.
    package static func printableASCII(_ value: String, field: @autoclosure () -> String, limit: Int) throws(ChargeKitError) {
        try value.withUTF8Bytes { bytes throws(ChargeKitError) in try printableASCII(bytes, field: field(), limit: limit) }
    }

    /// The rule of `printableASCII(_:field:limit:)`, on a value's UTF-8 bytes.
    static func printableASCII(_ bytes: UnsafeBufferPointer<UInt8>, field: @autoclosure () -> String, limit: Int) throws(ChargeKitError) {
        guard bytes.count <= limit else { throw .fieldTooLong(field(), limit: limit) }
        guard isPrintableASCII(bytes) else { throw .invalidField(field(), rule: "must contain printable ASCII characters only") }
    }

    /// Refuses an empty value.
    @inline(__always)
    static func nonEmpty(_ bytes: UnsafeBufferPointer<UInt8>, field: @autoclosure () -> String) throws(ChargeKitError) {
        guard !bytes.isEmpty else { throw .invalidField(field(), rule: "must not be empty") }
    }

    /// Whether every byte is printable ASCII (0x20–0x7E), eight at a time (``all(_:_:)``).
    /// (Called, not inlined: inlined into each field's check it left the callers too
    /// large for the compiler to inline their field lookups.)
    @inline(never)
    static func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        all(bytes) { word in
            // A byte below 0x20 borrows into its high bit, one of 0x7F or more carries
            // into it or has it: "any flagged" is exact (a false flag sits only above a true one).
            ~((word &- ByteWord.ones &* 0x20) | (word &+ ByteWord.ones) | word) & ByteWord.highs
        }
    }

    /// A masked card number as Zettle sends it (`**** **** **** 1111`): digits, `*` and
    /// spaces, the last four (or all, when fewer) digits.
    static func isMaskedCardNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        endsInFourDigits(bytes) && all(bytes) { ByteWord.digits($0) | ByteWord.equal($0, 0x2A) | ByteWord.equal($0, 0x20) }
    }

    /// A redacted card number as Credit Card Terminal sends it: `^X*[0-9]{4}$`.
    static func isRedactedCardNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 4 && endsInFourDigits(bytes) && all(UnsafeBufferPointer(rebasing: bytes.dropLast(4))) { ByteWord.equal($0, 0x58) }
    }

    /// Whether the last four bytes (all of them, when fewer) are ASCII digits: four in
    /// one 32-bit word.
    @inline(__always)
    private static func endsInFourDigits(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 4, let start = bytes.baseAddress else { return all(bytes, ByteWord.digits) }
        let word = UInt64(UInt32(littleEndian: UnsafeRawPointer(start + bytes.count - 4).loadUnaligned(as: UInt32.self)))
        let four: UInt64 = 0x8080_8080
        return word & four == 0 && ByteWord.digits(word) & four == four
    }

    /// Whether every byte passes `accepted`, a test of eight bytes at once that sets the
    /// high bit of each byte it accepts (``ByteWord``; it sees ASCII bytes only: a byte
    /// of 0x80 or more is refused before it). Eight at a time, the last eight (or four)
    /// overlapping those already tested, fewer than four in one word padded with zeros.
    @inline(__always)
    static func all(_ bytes: UnsafeBufferPointer<UInt8>, _ accepted: (UInt64) -> UInt64) -> Bool {
        guard let start = bytes.baseAddress else { return true }
        let count = bytes.count
        let raw = UnsafeRawPointer(start)
        /// Whether every byte of `word` is ASCII and accepted, in the bytes `mask` marks.
        func test(_ word: UInt64, _ mask: UInt64 = ByteWord.highs) -> Bool {
            word & ByteWord.highs == 0 && accepted(word) & mask == mask
        }
        if count >= 8 {
            var index = 0
            while index + 8 <= count {
                guard test(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))) else { return false }
                index += 8
            }
            return index == count || test(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)))
        }
        if count >= 4 {
            let low = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
            let high = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)))
            return test(low | high << 32)
        }
        var word: UInt64 = 0
        for index in 0..<count { word |= UInt64(start[index]) << (8 * index) }
        return test(word, ByteWord.highs & (1 << (8 * count) &- 1))
    }

    /// The app's extra parameters: non-empty names, none reserved, none twice (counting
    /// the names already on the URL they are appended to).
    /// - Parameter reservedRule: the rule a reserved name breaks, or `nil` when it is free.
    static func extras(
        _ extras: [QueryItem], field: String, alreadyOn existing: [QueryItem] = [], reservedRule: (QueryItem) -> String?
    ) throws(ChargeKitError) {
        var seen = Set(existing.map(\.name))
        var size = 0
        for item in extras {
            size += item.encoded.utf8.count + 1
            guard size <= maximumExtrasBytes else { throw .fieldTooLong(field, limit: maximumExtrasBytes) }
            if item.name == ChargeKitParameter.nonce || item.name == ChargeKitParameter.callback {
                throw .invalidField(item.name, rule: "is a name ChargeKit uses on the callback")
            }
            guard !item.name.isEmpty else { throw .invalidField(field, rule: "a parameter name must not be empty") }
            if let rule = reservedRule(item) { throw .invalidField(item.name, rule: rule) }
            guard seen.insert(item.name).inserted else { throw .duplicateField(item.name) }
        }
    }

    /// The most bytes the app's extra parameters may take, percent-encoded, so that a
    /// pending charge (and the ledger that holds it) stays small.
    package static let maximumExtrasBytes = 4096

    /// The longest callback URL a payment app takes, extras and nonce included.
    package static let maximumCallbackURLLength = 2048

    /// A URL an app opens us back on: must have a scheme and be at most
    /// ``maximumCallbackURLLength`` bytes long; no fragment unless the app is known to
    /// insert its answer before one (`allowingFragment`, SumUp).
    @_spi(Tools) public static func callbackURL(_ value: String, field: String, allowingFragment: Bool = false) throws(ChargeKitError) {
        guard value.utf8.count <= maximumCallbackURLLength else { throw .fieldTooLong(field, limit: maximumCallbackURLLength) }
        // QueryURL's checks (the scanner, every escape decoded), without an item array.
        let hasFragment: Bool
        do {
            hasFragment = try FieldReader.read(value, maximumLength: maximumCallbackURLLength) { $0.hasFragment }
        } catch {
            switch error {
            case .invalidURL(_, let rule), .malformedPercentEncoding(_, let rule): throw .invalidURL(field, rule: rule)
            default: throw error
            }
        }
        guard allowingFragment || !hasFragment else { throw .invalidURL(field, rule: "must not have a #fragment") }
    }

    /// An identifier such as a reference, token or transaction id: 1 to `limit`
    /// characters from `A–Z a–z 0–9 . _ : -` (safe in a URL path without encoding).
    @_spi(Tools) public static func identifier(_ value: String, field: String, limit: Int) throws(ChargeKitError) {
        guard !value.isEmpty else { throw .missingField(field) }
        guard value.utf8.count <= limit else { throw .fieldTooLong(field, limit: limit) }
        guard value.utf8.allSatisfy({ isIdentifierByte($0) }) else {
            throw .invalidField(field, rule: "may contain only letters, digits, '.', '_', ':' and '-'")
        }
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"),
             UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}
