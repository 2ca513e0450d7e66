import Foundation

/// How a payment app writes a card number masked, as its documentation shows it: what
/// ChargeKit turns a callback's card number into before anything stores or prints it.
public enum CardNumberMask: Sendable, Hashable {
    /// The last four digits after a run of `padding` (`XXXXXXXXXXXX1111`).
    case lastFour(padding: Character)
    /// The first six and the last four digits around a run of `padding`
    /// (`535686******1364`).
    case firstSixLastFour(padding: Character)

    /// How many digits the form shows.
    public var shownDigits: Int {
        switch self {
        case .lastFour: 4
        case .firstSixLastFour: 10
        }
    }

    /// `value` in this form, or `nil` when it shows no more digits than the form keeps
    /// (a value already masked passes unchanged).
    public func masked(_ value: String) -> String? {
        let digits = value.unicodeScalars.filter { $0.isASCII && ("0"..."9").contains($0) }.map(Character.init)
        guard digits.count > shownDigits else { return nil }
        switch self {
        case .lastFour(let padding):
            return String(repeating: padding, count: digits.count - 4) + String(digits.suffix(4))
        case .firstSixLastFour(let padding):
            return String(digits.prefix(6)) + String(repeating: padding, count: digits.count - 10) + String(digits.suffix(4))
        }
    }
}

/// A field of an app's answer that may carry a card number, and the app's masked form.
struct CardNumberField: Sendable {
    var name: String
    var mask: CardNumberMask

    /// `url` with every value of these fields in its query masked, or `nil` when none
    /// shows more digits than its app's form keeps. Everything else of the URL is kept
    /// byte for byte (the nonce, the extras, the app's other fields).
    ///
    /// The query is read as the callback parsers read it: by bytes (a `=` or `&` followed
    /// by a combining mark is one `Character` equal to neither, yet the byte is there),
    /// with each name's escapes decoded (`p%61n` is `pan`).
    static func masking(_ fields: [CardNumberField], in url: String) -> String? {
        let bytes = Array(url.utf8)
        guard !fields.isEmpty, let query = bytes.firstIndex(of: UInt8(ascii: "?")) else { return nil }
        // Cheap first: most answers carry no such field, nor an escape that could spell one.
        guard bytes.contains(UInt8(ascii: "%")) || fields.contains(where: { holds(bytes, Array($0.name.utf8)) }) else { return nil }
        let end = bytes[query...].firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        var changed = false
        let pairs = bytes[(query + 1)..<end].split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: false).map { pair -> [UInt8] in
            guard let equals = pair.firstIndex(of: UInt8(ascii: "=")) else { return Array(pair) }
            let name = (try? PercentEncoding.decode(pair[..<equals], field: "")) ?? String(decoding: pair[..<equals], as: UTF8.self)
            guard let field = fields.first(where: { $0.name == name }) else { return Array(pair) }
            let raw = pair[(equals + 1)...]
            let value = (try? PercentEncoding.decode(raw, field: "")) ?? String(decoding: raw, as: UTF8.self)
            guard let masked = field.mask.masked(value) else { return Array(pair) }
            changed = true
            return Array(pair[...equals]) + Array(masked.utf8)
        }
        guard changed else { return nil }
        let masked = Array(bytes[...query]) + Array(pairs.joined(separator: [UInt8(ascii: "&")])) + Array(bytes[end...])
        return String(decoding: masked, as: UTF8.self)
    }

    /// Whether `bytes` holds `name` anywhere (`Collection.firstRange(of:)` needs iOS 16).
    private static func holds(_ bytes: [UInt8], _ name: [UInt8]) -> Bool {
        guard !name.isEmpty, bytes.count >= name.count else { return false }
        return (0...(bytes.count - name.count)).contains { bytes[$0..<($0 + name.count)].elementsEqual(name) }
    }
}
