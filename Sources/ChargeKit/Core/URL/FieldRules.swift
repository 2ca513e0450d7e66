/// Checks shared by every request builder and by the Citcon UPI SDK and sandbox. Each
/// throws a ``ChargeKitError`` that names `field`.
@_spi(Tools) public enum FieldRules {
    /// Whether `text` is a URL scheme by RFC 3986 (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`,
    /// ASCII only): the rule the URL scanner applies, for callers that hold a scheme alone.
    @_spi(Tools) public static func isScheme(_ text: some StringProtocol) -> Bool {
        String(text).withUTF8Span(URLBytes.isScheme)
    }

    /// A free-text field: no control characters, at most `limit` characters.
    @_spi(Tools) public static func text(_ value: String, field: @autoclosure () -> String, limit: Int) throws(ChargeKitError) {
        // Printable ASCII, the common case: one byte is one character and none is a control.
        if value.utf8.allSatisfy(isPrintableASCII) {
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
    static func text(_ bytes: Span<UInt8>, field: @autoclosure () -> String, limit: Int) throws(ChargeKitError) {
        if isPrintableASCII(bytes) {
            guard bytes.count <= limit else { throw .fieldTooLong(field(), limit: limit) }
            return
        }
        try text(bytes.string, field: field(), limit: limit)
    }

    /// Only printable ASCII (0x20–0x7E), at most `limit` characters.
    package static func printableASCII(_ value: String, field: @autoclosure () -> String, limit: Int) throws(ChargeKitError) {
        try value.withUTF8Span { bytes throws(ChargeKitError) in try printableASCII(bytes, field: field(), limit: limit) }
    }

    /// The rule of `printableASCII(_:field:limit:)`, on a value's UTF-8 bytes.
    static func printableASCII(_ bytes: Span<UInt8>, field: @autoclosure () -> String, limit: Int) throws(ChargeKitError) {
        guard bytes.count <= limit else { throw .fieldTooLong(field(), limit: limit) }
        guard isPrintableASCII(bytes) else { throw .invalidField(field(), rule: "must contain printable ASCII characters only") }
    }

    /// Refuses an empty value.
    @inline(__always)
    static func nonEmpty(_ bytes: Span<UInt8>, field: @autoclosure () -> String) throws(ChargeKitError) {
        guard !bytes.isEmpty else { throw .invalidField(field(), rule: "must not be empty") }
    }

    /// Whether every byte is printable ASCII (0x20–0x7E).
    static func isPrintableASCII(_ bytes: Span<UInt8>) -> Bool { bytes.allSatisfy(isPrintableASCII) }

    /// Whether `byte` is printable ASCII (0x20–0x7E).
    @inline(__always)
    static func isPrintableASCII(_ byte: UInt8) -> Bool { byte >= 0x20 && byte < 0x7F }

    /// A masked card number in groups (`**** **** **** 1111`): digits, `*` and
    /// spaces, the last four (or all, when fewer) digits.
    static func isMaskedCardNumber(_ bytes: Span<UInt8>) -> Bool {
        endsInFourDigits(bytes) && bytes.allSatisfy { DecimalText.isDigit($0) || $0 == 0x2A || $0 == 0x20 }
    }

    /// A redacted card number as Credit Card Terminal sends it: `^X*[0-9]{4}$`.
    static func isRedactedCardNumber(_ bytes: Span<UInt8>) -> Bool {
        bytes.count >= 4 && endsInFourDigits(bytes) && bytes.extracting(droppingLast: 4).allSatisfy { $0 == 0x58 }
    }

    /// Whether the last four bytes (all of them, when fewer) are ASCII digits.
    private static func endsInFourDigits(_ bytes: Span<UInt8>) -> Bool {
        bytes.extracting(last: 4).allSatisfy(DecimalText.isDigit)
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
    /// insert its answer before one (`allowingFragment`).
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
