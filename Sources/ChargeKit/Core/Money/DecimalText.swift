import Foundation

/// Strict grammar of a plain decimal text: `0|[1-9][0-9]*` then optionally `.[0-9]+`.
enum DecimalText {
    struct Parts { var integer: String; var fraction: String }

    static func parse(_ text: String, field: String) throws(ChargeKitError) -> Parts {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty else { throw .invalidField(field, rule: "is empty") }
        var index = 0
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
        let integerCount = index
        guard integerCount > 0 else { throw .invalidField(field, rule: "must start with a digit") }
        guard integerCount == 1 || bytes[0] != 0x30 else {
            throw .invalidField(field, rule: "must not have a leading zero")
        }
        var fractionCount = 0
        if index < bytes.count {
            guard bytes[index] == 0x2E else {
                throw .invalidField(field, rule: "must be plain digits with an optional '.' decimal point")
            }
            index += 1
            while index < bytes.count, isDigit(bytes[index]) { index += 1; fractionCount += 1 }
            guard fractionCount > 0, index == bytes.count else {
                throw .invalidField(field, rule: "must have digits after the decimal point and nothing else")
            }
        }
        let integer = String(decoding: bytes[0..<integerCount], as: UTF8.self)
        let fraction = String(decoding: bytes[(bytes.count - fractionCount)...], as: UTF8.self)
        return Parts(integer: integer, fraction: fraction)
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
}

/// The digits of a `Decimal`, read from its plain-text description, for exact rounding.
struct DecimalDigits {
    var negative: Bool
    var integer: String
    var fraction: String

    init(_ value: Decimal, field: String) throws(ChargeKitError) {
        guard !value.isNaN else { throw .invalidField(field, rule: "is not a number") }
        var text = value.description
        negative = text.hasPrefix("-")
        if negative { text.removeFirst() }
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard pieces.count <= 2, let first = pieces.first, !first.isEmpty,
              pieces.allSatisfy({ $0.utf8.allSatisfy(DecimalText.isDigit) })
        else { throw .invalidField(field, rule: "is not a plain decimal number") }
        integer = String(first)
        fraction = pieces.count == 2 ? String(pieces[1]) : ""
    }

    /// The value times 10^scale as an integer, rounded with `rule`.
    func scaled(to scale: Int, rule: RoundingRule, field: String) throws(ChargeKitError) -> Int64 {
        let kept = fraction.prefix(scale)
        let digits = (integer + kept + String(repeating: "0", count: scale - kept.count))
            .drop(while: { $0 == "0" })
        guard digits.count <= Money.maximumDigits, var units = Int64(digits.isEmpty ? "0" : String(digits)) else {
            throw .invalidField(field, rule: "has more than \(Money.maximumDigits) digits")
        }
        let rest = fraction.dropFirst(scale)
        let first = rest.first.map { Int($0.asciiValue ?? 0x30) - 0x30 } ?? 0
        let beyondHalf = rest.dropFirst().contains { $0 != "0" }
        let increment: Bool
        switch rule {
        case .down: increment = false
        case .up: increment = rest.contains { $0 != "0" }
        case .halfUp: increment = first >= 5
        case .halfEven: increment = first > 5 || (first == 5 && (beyondHalf || units % 2 == 1))
        }
        if increment { units += 1 }
        return negative ? -units : units
    }
}
