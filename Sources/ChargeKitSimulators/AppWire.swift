@_spi(Tools) import ChargeKit
import Foundation

/// How the simulated payment apps read a URL: written here from the vendors'
/// documents and samples, independently of ChargeKit's own codec and validators, so
/// that a round trip through a simulator can catch a bug in either.
///
/// Reading is lenient where the real apps are (a raw `:`, `/`, `?` or `@` in a value,
/// as the vendors' samples send) and strict where they are (a broken `%` escape, a
/// field given twice).
struct AppURL: Sendable {
    /// Everything before the first `?` (or `#`).
    var base: String
    /// The query fields in order, decoded.
    var fields: [(name: String, value: String)]

    /// The most bytes a simulated app reads from a URL.
    static let maximumLength = 1 << 20

    init(_ url: String) throws(ChargeKitError) {
        guard url.utf8.count <= Self.maximumLength else {
            throw .urlTooLong(limit: Self.maximumLength)
        }
        var rest = Substring(url)
        if let hash = rest.firstIndex(of: "#") { rest = rest[..<hash] }
        guard let mark = rest.firstIndex(of: "?") else {
            base = String(rest)
            fields = []
            return
        }
        base = String(rest[..<mark])
        var fields: [(name: String, value: String)] = []
        for pair in rest[rest.index(after: mark)...].split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = try Self.decode(parts[0], field: "url")
            let value = try Self.decode(parts.count > 1 ? parts[1] : "", field: name)
            if fields.contains(where: { $0.name == name }) { throw .duplicateField(name) }
            fields.append((name, value))
        }
        self.fields = fields
    }

    /// The value of `name`, `nil` when absent.
    func value(_ name: String) -> String? { fields.first { $0.name == name }?.value }

    /// The value of `name` when present and not empty.
    func nonEmpty(_ name: String) -> String? { value(name).flatMap { $0.isEmpty ? nil : $0 } }

    /// What follows the first `.` of a value a merchant's SDK prefixed with its own
    /// token: the reference a person
    /// knows; `nil` without a `.`.
    static func reference(after text: String?) -> String? {
        text.flatMap { text in text.firstIndex(of: ".").map { String(text[text.index(after: $0)...]) } }
    }

    /// Percent-decodes as the apps do: `%XX` is a byte, `+` stays `+`, the bytes must be UTF-8.
    static func decode(_ text: Substring, field: String) throws(ChargeKitError) -> String {
        guard text.contains("%") else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw .invalidField(field, rule: "has a broken % escape")
            }
            bytes.append(high << 4 | low)
        }
        guard let decoded = String(validating: bytes, as: UTF8.self) else {
            throw .invalidField(field, rule: "is not UTF-8")
        }
        return decoded
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// Percent-encodes a value as the apps write their answers: everything but the
    /// RFC 3986 unreserved characters.
    static func encode(_ text: String) -> String {
        var out = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                 UInt8(ascii: "~"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                out.unicodeScalars.append("%")
                out.unicodeScalars.append(digits[Int(byte >> 4)])
                out.unicodeScalars.append(digits[Int(byte & 0x0F)])
            }
        }
        return out
    }

    /// `target` with `fields` added to its query, before any `#fragment` (the fragment
    /// is the caller's and is left where it was), as the real apps do.
    static func answer(_ target: String, _ fields: [(String, String)], namePrefix: String = "") -> String {
        guard !fields.isEmpty else { return target }
        var head = Substring(target)
        var fragment = Substring("")
        if let hash = head.firstIndex(of: "#") {
            fragment = head[hash...]
            head = head[..<hash]
        }
        let query = fields.map { namePrefix + encode($0.0) + "=" + encode($0.1) }.joined(separator: "&")
        let joiner = !head.contains("?") ? "?" : (head.hasSuffix("?") || head.hasSuffix("&") ? "" : "&")
        return head + joiner + query + fragment
    }
}

/// Amount grammars as the apps read them.
enum AppAmount {
    /// ISO 4217 minor units of the currencies that do not have two.
    static func minorUnits(_ currency: String) -> Int {
        switch currency {
        case "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF", "UGX", "UYI", "VND", "VUV",
             "XAF", "XOF", "XPF": 0
        case "BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND": 3
        case "CLF", "UYW": 4
        default: 2
        }
    }

    /// `digits[.fraction]` with at most `maximumDigits` digits in all and at most
    /// `maximumFraction` after the point; the value as a `Decimal`.
    static func parse(_ text: String, maximumDigits: Int = 15, maximumFraction: Int) -> Decimal? {
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let whole = parts[0], fraction = parts.count > 1 ? parts[1] : ""
        let isDigits = { (part: Substring) in part.utf8.allSatisfy { (0x30...0x39).contains($0) } }
        guard !whole.isEmpty, isDigits(whole), isDigits(fraction), parts.count == 1 || !fraction.isEmpty,
              fraction.count <= maximumFraction, whole.count + fraction.count <= maximumDigits
        else { return nil }
        return Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }

    /// `value` rounded half-up to `scale` decimals.
    static func rounded(_ value: Decimal, scale: Int) -> Decimal {
        var input = value
        var output = Decimal()
        NSDecimalRound(&output, &input, scale, .plain)
        return output
    }

    /// `value` written with exactly `scale` decimals.
    static func text(_ value: Decimal, scale: Int) -> String {
        let rounded = rounded(value, scale: scale)
        let plain = NSDecimalNumber(decimal: rounded).stringValue
        let parts = plain.split(separator: ".", maxSplits: 1)
        let fraction = parts.count > 1 ? String(parts[1]) : ""
        guard scale > 0 else { return String(parts[0]) }
        return parts[0] + "." + fraction + String(repeating: "0", count: max(0, scale - fraction.count))
    }
}

extension Character {
    var isASCIIDigitCharacter: Bool { isASCII && isNumber }
}
