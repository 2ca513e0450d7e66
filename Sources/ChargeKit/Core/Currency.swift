/// An ISO 4217 currency: its alphabetic code and the number of minor-unit digits
/// (the exponent: JPY 0, USD 2, BHD 3, CLF 4).
public struct Currency: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The upper-case three-letter ISO 4217 code, such as `USD`.
    public let code: String
    /// The number of digits after the decimal point in the currency's minor unit.
    public let minorUnits: Int

    /// Looks up a currency by its ISO 4217 code.
    ///
    /// - Throws: ``ChargeKitError/invalidField(_:rule:)`` when `code` is not three
    ///   upper-case letters, ``ChargeKitError/unknownCurrency(_:)`` when it is not
    ///   in ChargeKit's ISO 4217 table.
    public init(code: String, field: String = "currency") throws(ChargeKitError) {
        guard code.utf8.count == 3, code.utf8.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else {
            throw .invalidField(field, rule: "must be three upper-case letters (ISO 4217)")
        }
        guard let digits = Currency.table[code] else { throw .unknownCurrency(code) }
        self.code = code
        self.minorUnits = digits
    }

    /// US dollar, the Credit Card Terminal default.
    public static let usd = Currency(uncheckedCode: "USD", minorUnits: 2)
    /// Euro.
    public static let eur = Currency(uncheckedCode: "EUR", minorUnits: 2)

    private init(uncheckedCode: String, minorUnits: Int) {
        self.code = uncheckedCode
        self.minorUnits = minorUnits
    }

    /// Every currency ChargeKit knows, sorted by code.
    public static var all: [Currency] {
        table.keys.sorted().map { Currency(uncheckedCode: $0, minorUnits: table[$0] ?? 2) }
    }

    public var description: String { code }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let code = try container.decode(String.self)
        do {
            try self.init(code: code)
        } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(code)
    }

    /// ISO 4217 active codes and their minor units (list of 2024).
    static let table: [String: Int] = {
        var table: [String: Int] = [:]
        let zero = "BIF CLP DJF GNF ISK JPY KMF KRW PYG RWF UGX UYI VND VUV XAF XOF XPF"
        let three = "BHD IQD JOD KWD LYD OMR TND"
        let four = "CLF UYW"
        let two = """
            AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BMD BND BOB BOV BRL BSD BTN BWP \
            BYN BZD CAD CDF CHE CHF CHW CNY COP COU CRC CUC CUP CVE CZK DKK DOP DZD EGP ERN ETB EUR \
            FJD FKP GBP GEL GHS GIP GMD GTQ GYD HKD HNL HTG HUF IDR ILS INR IRR JMD KES KGS KHR KPW \
            KYD KZT LAK LBP LKR LRD LSL MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MXV MYR MZN \
            NAD NGN NIO NOK NPR NZD PAB PEN PGK PHP PKR PLN QAR RON RSD RUB SAR SBD SCR SDG SEK SGD \
            SHP SLE SLL SOS SRD SSP STN SVC SYP SZL THB TJS TMT TOP TRY TTD TWD TZS UAH USD USN UYU \
            UZS VED VES WST XCD YER ZAR ZMW ZWL
            """
        for (list, digits) in [(zero, 0), (two, 2), (three, 3), (four, 4)] {
            for code in list.split(separator: " ") { table[String(code)] = digits }
        }
        return table
    }()
}
