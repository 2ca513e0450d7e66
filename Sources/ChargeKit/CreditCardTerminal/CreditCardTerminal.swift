/// Inner Fence's Credit Card Terminal charge API 1.0.0: the URL scheme
/// `com-innerfence-ccterminal://charge/1.0.0/` and its `ifcc_` response.
///
/// - ``ChargeRequest`` builds and validates the request URL (IFChargeRequest).
/// - ``ChargeResponse`` parses and validates the callback (IFChargeResponse).
public enum CreditCardTerminal {
    /// The base URL every request starts with.
    public static let baseURL = "com-innerfence-ccterminal://charge/1.0.0/"
    /// The scheme to list under `LSApplicationQueriesSchemes`.
    public static let scheme = "com-innerfence-ccterminal"
    /// The name of the correlation parameter the client appends to the return URL.
    public static let nonceField = "ifcc_request_nonce"
    /// The prefix of every response field.
    public static let responsePrefix = "ifcc_"
}

extension CreditCardTerminal {
    /// A sales tax rate for the request: a percentage, or the user's preset default.
    public enum TaxRate: Hashable, Sendable, Codable, CustomStringConvertible {
        /// A rate from 0 to 99.999 percent with up to three decimals, kept as its text (`8.5`).
        case percent(String)
        /// The literal `default`: Credit Card Terminal applies the rate the user preset.
        case userDefault

        /// Parses `default` or a rate such as `8`, `8.5`, `8.25`, `8.125`.
        /// - Throws: ``ChargeKitError/invalidField(_:rule:)`` for anything else.
        public init(parsing text: String, field: String = "taxRate") throws(ChargeKitError) {
            if text == "default" {
                self = .userDefault
                return
            }
            guard CreditCardTerminal.isTaxRate(text) else {
                throw .invalidField(field, rule: "must be 'default' or 0 to 99.999 with up to 3 decimals (e.g. 8.25)")
            }
            self = .percent(text)
        }

        /// The wire text: the rate, or `default`.
        public var description: String {
            switch self {
            case .percent(let text): return text
            case .userDefault: return "default"
            }
        }
    }

    /// `^[0-9]{1,2}(\.[0-9]{1,3})?$`
    static func isTaxRate(_ text: String) -> Bool {
        text.withUTF8Span(isTaxRate)
    }

    /// The rule of `isTaxRate(_:)`, on the rate's UTF-8 bytes.
    static func isTaxRate(_ bytes: Span<UInt8>) -> Bool {
        guard bytes.count <= 6 else { return false }
        var index = 0
        while index < bytes.count, DecimalText.isDigit(bytes[index]) { index += 1 }
        guard (1...2).contains(index) else { return false }
        guard index < bytes.count else { return true }
        guard bytes[index] == 0x2E else { return false }
        let fraction = bytes.extracting((index + 1)...)
        return (1...3).contains(fraction.count) && fraction.allSatisfy(DecimalText.isDigit)
    }

    /// `^(0|[1-9][0-9]*)\.[0-9]{2}$`: the response's money pattern.
    static func isWireAmount(_ bytes: Span<UInt8>) -> Bool {
        let count = bytes.count
        guard count >= 4, bytes[count - 3] == 0x2E, DecimalText.isDigit(bytes[count - 2]), DecimalText.isDigit(bytes[count - 1]),
              count == 4 || bytes[0] != 0x30 else { return false }
        for index in 0..<(count - 3) where !DecimalText.isDigit(bytes[index]) { return false }
        return true
    }

    /// The card types Credit Card Terminal reports in `ifcc_cardType`.
    public enum CardType: OpenWireValue {
        /// `Visa`.
        case visa
        /// `MasterCard`.
        case masterCard
        /// `Amex` (American Express).
        case amex
        /// `Discover`.
        case discover
        /// `Maestro`.
        case maestro
        /// `Solo`.
        case solo
        /// The documented value `Unknown`.
        case unknown
        /// A value that matches the field's pattern but is not documented; kept as sent.
        case other(String)

        /// The documented values.
        public static let documented: [CardType] = [.visa, .masterCard, .amex, .discover, .maestro, .solo, .unknown]

        /// The wire value.
        public var rawValue: String {
            switch self {
            case .visa: return "Visa"
            case .masterCard: return "MasterCard"
            case .amex: return "Amex"
            case .discover: return "Discover"
            case .maestro: return "Maestro"
            case .solo: return "Solo"
            case .unknown: return "Unknown"
            case .other(let value): return value
            }
        }
    }
}
