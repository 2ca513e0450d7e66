import Foundation

/// An exact amount of money in one currency.
///
/// `Money` is held as an integer count of the currency's minor units (cents for USD,
/// yen for JPY, fils for BHD), so it is always exact, and is exposed as a `Decimal`
/// ``amount``. It is never a `Double`.
///
/// Text is parsed strictly (``init(parsing:currency:field:)``): plain digits with an
/// optional `.` and at most the currency's number of decimals; no sign, exponent,
/// thousands separator or locale. Text is formatted with exactly the currency's
/// number of decimals (``formatted``).
///
/// Rounding happens only where asked for, with a stated ``RoundingRule``
/// (``init(rounding:currency:rule:field:)``); the default everywhere in ChargeKit is
/// ``RoundingRule/halfUp`` (a half is rounded away from zero).
public struct Money: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The amount as a count of the currency's minor units.
    public let minorUnits: Int64
    /// The currency.
    public let currency: Currency

    /// The largest number of digits an amount may have, so that it fits exactly.
    public static let maximumDigits = 18

    /// Makes an amount from a count of minor units (1099 USD cents is 10.99 USD).
    public init(minorUnits: Int64, currency: Currency) {
        self.minorUnits = minorUnits
        self.currency = currency
    }

    /// Makes an amount from a `Decimal` that must already be exact in the currency.
    ///
    /// - Throws: ``ChargeKitError/invalidField(_:rule:)`` when `amount` has more
    ///   decimals than the currency allows or more than ``maximumDigits`` digits.
    public init(exactly amount: Decimal, currency: Currency, field: String = "amount") throws(ChargeKitError) {
        let digits = try DecimalDigits(amount, field: field)
        guard digits.fraction.count <= currency.minorUnits || digits.fraction.allSatisfy({ $0 == "0" }) else {
            throw .invalidField(field, rule: "has more than \(currency.minorUnits) decimal places for \(currency.code)")
        }
        self.init(minorUnits: try digits.scaled(to: currency.minorUnits, rule: .down, field: field), currency: currency)
    }

    /// Rounds a `Decimal` to the currency's minor unit with the given rule.
    public init(rounding amount: Decimal, currency: Currency, rule: RoundingRule = .halfUp, field: String = "amount") throws(ChargeKitError) {
        let digits = try DecimalDigits(amount, field: field)
        self.init(minorUnits: try digits.scaled(to: currency.minorUnits, rule: rule, field: field), currency: currency)
    }

    /// Parses a plain decimal string such as `10.99`, `1.00`, `0.90` or `10`.
    ///
    /// Accepted: `0` or digits without a leading zero, then optionally `.` and one to
    /// `currency.minorUnits` digits. Everything else (signs, exponents, spaces,
    /// separators, more decimals than the currency has) is refused with an error that
    /// names `field`.
    public init(parsing text: String, currency: Currency, field: String = "amount") throws(ChargeKitError) {
        self = try text.withUTF8Span { bytes throws(ChargeKitError) in try Money(parsing: bytes, currency: currency, field: field) }
    }

    /// Parses the UTF-8 bytes of a plain decimal; see ``init(parsing:currency:field:)``.
    /// One pass over the bytes, no intermediate strings: this runs for every amount of
    /// every callback. `field` is made only for an error.
    init(parsing bytes: Span<UInt8>, currency: Currency, field: @autoclosure () -> String) throws(ChargeKitError) {
        let scale = currency.minorUnits
        guard !bytes.isEmpty else { throw .invalidField(field(), rule: "is empty") }
        var index = 0
        var units: Int64 = 0
        var digits = 0
        while index < bytes.count, DecimalText.isDigit(bytes[index]) {
            units = units &* 10 &+ Int64(bytes[index] &- 0x30)
            if units != 0 || digits > 0 { digits += 1 }
            index += 1
        }
        guard index > 0 else { throw .invalidField(field(), rule: "must start with a digit") }
        guard index == 1 || bytes[0] != 0x30 else { throw .invalidField(field(), rule: "must not have a leading zero") }
        guard digits <= Money.maximumDigits else {
            throw .invalidField(field(), rule: "has more than \(Money.maximumDigits) digits")
        }
        var fractionCount = 0
        if index < bytes.count {
            guard bytes[index] == 0x2E else {
                throw .invalidField(field(), rule: "must be plain digits with an optional '.' decimal point")
            }
            index += 1
            while index < bytes.count, DecimalText.isDigit(bytes[index]) {
                fractionCount += 1
                guard fractionCount <= scale else {
                    throw .invalidField(field(), rule: "has more than \(scale) decimal places for \(currency.code)")
                }
                units = units &* 10 &+ Int64(bytes[index] &- 0x30)
                if units != 0 { digits += 1 }
                index += 1
            }
            guard fractionCount > 0, index == bytes.count else {
                throw .invalidField(field(), rule: "must have digits after the decimal point and nothing else")
            }
        }
        for _ in fractionCount..<scale {
            units = units &* 10
            if units != 0 { digits += 1 }
        }
        guard digits <= Money.maximumDigits else {
            throw .invalidField(field(), rule: "has more than \(Money.maximumDigits) digits")
        }
        self.init(minorUnits: units, currency: currency)
    }

    /// The amount as an exact `Decimal`.
    public var amount: Decimal {
        Decimal(sign: minorUnits < 0 ? .minus : .plus, exponent: -currency.minorUnits, significand: Decimal(minorUnits.magnitude))
    }

    /// The amount with exactly the currency's number of decimals and `.` as separator,
    /// such as `10.99`, `1000` (JPY) or `1.500` (BHD).
    public var formatted: String {
        // Written from the right: digits, the point, zeros.
        let length = (minorUnits < 0 ? 1 : 0) + digitCount + (currency.minorUnits > 0 ? 1 : 0)
        var out = [UInt8](repeating: 0x30, count: length)
        var index = length
        var rest = minorUnits.magnitude
        var written = 0
        while rest > 0 || written <= currency.minorUnits {
            if written == currency.minorUnits && currency.minorUnits > 0 {
                index -= 1
                out[index] = 0x2E
            }
            index -= 1
            out[index] = 0x30 + UInt8(rest % 10)
            rest /= 10
            written += 1
        }
        if minorUnits < 0 { out[0] = 0x2D }
        return String(decoding: out, as: UTF8.self)
    }

    /// The number of digits in ``formatted``.
    var digitCount: Int {
        var count = 0
        var rest = minorUnits.magnitude
        repeat {
            count += 1
            rest /= 10
        } while rest > 0
        return Swift.max(count, currency.minorUnits + 1)
    }

    /// `formatted` followed by the currency code, such as `10.99 USD`.
    public var description: String { "\(formatted) \(currency.code)" }

    /// Whether the amount is zero.
    public var isZero: Bool { minorUnits == 0 }

    public static func < (lhs: Money, rhs: Money) -> Bool {
        lhs.currency == rhs.currency ? lhs.minorUnits < rhs.minorUnits : lhs.currency.code < rhs.currency.code
    }

    /// Adds two amounts of the same currency; `nil` when the currencies differ or the sum overflows.
    public func adding(_ other: Money) -> Money? {
        guard currency == other.currency else { return nil }
        let (sum, overflow) = minorUnits.addingReportingOverflow(other.minorUnits)
        return overflow ? nil : Money(minorUnits: sum, currency: currency)
    }

    /// Subtracts an amount of the same currency; `nil` when the currencies differ or it overflows.
    public func subtracting(_ other: Money) -> Money? {
        guard currency == other.currency else { return nil }
        let (difference, overflow) = minorUnits.subtractingReportingOverflow(other.minorUnits)
        return overflow ? nil : Money(minorUnits: difference, currency: currency)
    }

    /// This amount times a percentage rate (`8.5` means 8.5 %), rounded to the minor
    /// unit with `rule`. Used for sales tax.
    public func percentage(_ rate: Decimal, rule: RoundingRule = .halfUp) throws(ChargeKitError) -> Money {
        try Money(rounding: amount * rate / 100, currency: currency, rule: rule)
    }
}

extension Money: Codable {
    private enum CodingKeys: String, CodingKey { case amount, currency }

    /// Decodes `{"amount": "10.99", "currency": "USD"}` strictly.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let currency = try container.decode(Currency.self, forKey: .currency)
        let text = try container.decode(String.self, forKey: .amount)
        do {
            try self.init(parsing: text, currency: currency)
        } catch {
            throw DecodingError.dataCorruptedError(forKey: .amount, in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(formatted, forKey: .amount)
        try container.encode(currency, forKey: .currency)
    }
}
