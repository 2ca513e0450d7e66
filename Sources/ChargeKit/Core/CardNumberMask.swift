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
    static func masking(_ fields: [CardNumberField], in url: String) -> String? {
        guard !fields.isEmpty, let query = url.firstIndex(of: "?") else { return nil }
        // Cheap first: most answers carry no such field, or carry it masked.
        guard fields.contains(where: { url.contains($0.name + "=") }) else { return nil }
        let end = url[query...].firstIndex(of: "#") ?? url.endIndex
        var changed = false
        let pairs = url[url.index(after: query)..<end].split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
            guard let equals = pair.firstIndex(of: "="),
                  let field = fields.first(where: { $0.name == pair[..<equals] }) else { return String(pair) }
            let raw = String(pair[pair.index(after: equals)...])
            guard let masked = field.mask.masked(raw.removingPercentEncoding ?? raw) else { return String(pair) }
            changed = true
            return String(pair[...equals]) + masked
        }
        guard changed else { return nil }
        return String(url[...query]) + pairs.joined(separator: "&") + String(url[end...])
    }
}
