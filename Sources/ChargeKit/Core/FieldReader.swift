/// Reads the fields of a decoded query the way every callback parser must:
/// a name that appears twice is refused, each known field is taken once, and what
/// is left (the app's own extra parameters) keeps its order.
struct FieldReader {
    private let items: [QueryItem]
    private var taken: [Bool]

    /// - Throws: ``ChargeKitError/duplicateField(_:)`` for a name seen twice.
    init(_ items: [QueryItem]) throws(ChargeKitError) {
        // Callbacks carry a dozen fields: comparing names pairwise beats hashing them.
        if items.count <= 32 {
            for index in items.indices {
                for earlier in 0..<index where items[earlier].name == items[index].name {
                    throw .duplicateField(items[index].name)
                }
            }
        } else {
            var seen = Set<String>(minimumCapacity: items.count)
            for item in items where !seen.insert(item.name).inserted { throw .duplicateField(item.name) }
        }
        self.items = items
        taken = [Bool](repeating: false, count: items.count)
    }

    private func index(of name: String) -> Int? { items.firstIndex { $0.name == name } }

    /// Whether a field of that name is present.
    func contains(_ name: String) -> Bool { index(of: name) != nil }

    /// Takes a field's value; `nil` when absent. An empty value counts as present.
    mutating func take(_ name: String) -> String? {
        guard let index = index(of: name) else { return nil }
        taken[index] = true
        return items[index].value
    }

    /// Takes a field that must be present and non-empty.
    mutating func require(_ name: String) throws(ChargeKitError) -> String {
        guard let value = take(name) else { throw .missingField(name) }
        guard !value.isEmpty else { throw .invalidField(name, rule: "must not be empty") }
        return value
    }

    /// The fields not taken, in their original order.
    var remaining: [QueryItem] { items.indices.filter { !taken[$0] }.map { items[$0] } }
}

/// Checks shared by every request builder and by the Citcon UPI SDK and sandbox. Each
/// throws a ``ChargeKitError`` that names `field`.
package enum FieldRules {
    /// A free-text field: no control characters, at most `limit` characters.
    package static func text(_ value: String, field: String, limit: Int) throws(ChargeKitError) {
        // Printable ASCII, the common case: one byte is one character and none is a control.
        if value.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            guard value.utf8.count <= limit else { throw .fieldTooLong(field, limit: limit) }
            return
        }
        guard value.count <= limit else { throw .fieldTooLong(field, limit: limit) }
        guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidField(field, rule: "must not contain control characters")
        }
    }

    /// Only printable ASCII (0x20–0x7E), at most `limit` characters.
    package static func printableASCII(_ value: String, field: String, limit: Int) throws(ChargeKitError) {
        guard value.utf8.count <= limit else { throw .fieldTooLong(field, limit: limit) }
        guard value.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
            throw .invalidField(field, rule: "must contain printable ASCII characters only")
        }
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
    package static func callbackURL(_ value: String, field: String, allowingFragment: Bool = false) throws(ChargeKitError) {
        guard value.utf8.count <= maximumCallbackURLLength else { throw .fieldTooLong(field, limit: maximumCallbackURLLength) }
        let url: QueryURL
        do {
            url = try QueryURL(parsing: value)
        } catch {
            switch error {
            case .urlTooLong(let limit): throw .fieldTooLong(field, limit: limit)
            case .invalidURL(_, let rule), .malformedPercentEncoding(_, let rule): throw .invalidURL(field, rule: rule)
            default: throw error
            }
        }
        guard allowingFragment || url.fragment == nil else { throw .invalidURL(field, rule: "must not have a #fragment") }
    }

    /// An identifier such as a reference, token or transaction id: 1 to `limit`
    /// characters from `A–Z a–z 0–9 . _ : -` (safe in a URL path without encoding).
    package static func identifier(_ value: String, field: String, limit: Int) throws(ChargeKitError) {
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
