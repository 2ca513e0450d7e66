/// An ISO 4217 currency: its alphabetic code and the number of minor-unit digits
/// (the exponent: JPY 0, USD 2, BHD 3, CLF 4).
///
/// A currency is a plain value (its code kept as three bytes, no string), so that
/// `Money` and everything holding one copy and compare without reference counting.
public struct Currency: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The code's three letters in one integer (see `key(_:_:_:)`).
    private let key: UInt32
    /// The number of digits after the decimal point in the currency's minor unit.
    public let minorUnits: Int

    /// The upper-case three-letter ISO 4217 code, such as `USD`.
    public var code: String {
        let letters = (UInt8(truncatingIfNeeded: key >> 16), UInt8(truncatingIfNeeded: key >> 8), UInt8(truncatingIfNeeded: key))
        return String(decoding: [letters.0, letters.1, letters.2], as: UTF8.self)
    }

    /// Looks up a currency by its ISO 4217 code.
    ///
    /// - Throws: ``ChargeKitError/invalidField(_:rule:)`` when `code` is not three
    ///   upper-case letters, ``ChargeKitError/unknownCurrency(_:)`` when it is not
    ///   in ChargeKit's ISO 4217 table.
    public init(code: String, field: String = "currency") throws(ChargeKitError) {
        self = try code.withUTF8Span { bytes throws(ChargeKitError) in try Currency(code: bytes, field: field) }
    }

    /// Looks up a currency by the UTF-8 bytes of its code; see ``init(code:field:)``.
    /// `field` is made only for an error.
    init(code bytes: Span<UInt8>, field: @autoclosure () -> String) throws(ChargeKitError) {
        guard bytes.count == 3, bytes.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else {
            throw .invalidField(field(), rule: "must be three upper-case letters (ISO 4217)")
        }
        let key = Currency.key(bytes[0], bytes[1], bytes[2])
        // Binary search of the sorted table: no hashing, no string.
        var low = 0, high = Currency.table.count
        while low < high {
            let middle = (low + high) / 2
            if Currency.table[middle].key < key { low = middle + 1 } else { high = middle }
        }
        guard low < Currency.table.count, Currency.table[low].key == key else {
            throw .unknownCurrency(bytes.string)
        }
        self.key = key
        self.minorUnits = Int(Currency.table[low].minorUnits)
    }

    /// A code's three letters in one integer, ordered as the codes are.
    private static func key(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt32 { UInt32(a) << 16 | UInt32(b) << 8 | UInt32(c) }

    /// US dollar, the Credit Card Terminal default.
    public static let usd = Currency(key: key(0x55, 0x53, 0x44), minorUnits: 2)
    /// Euro.
    public static let eur = Currency(key: key(0x45, 0x55, 0x52), minorUnits: 2)

    private init(key: UInt32, minorUnits: Int) {
        self.key = key
        self.minorUnits = minorUnits
    }

    /// Every currency ChargeKit knows, sorted by code.
    public static var all: [Currency] {
        table.map { Currency(key: $0.key, minorUnits: Int($0.minorUnits)) }
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

    /// ISO 4217 active codes and their minor units (list of 2024), sorted by code.
    static let table: [(key: UInt32, minorUnits: UInt8)] = {
        var table: [(key: UInt32, minorUnits: UInt8)] = []
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
        for (list, digits) in [(zero, 0), (two, 2), (three, 3), (four, 4)] as [(String, UInt8)] {
            for code in list.split(separator: " ") {
                let letters = Array(code.utf8)
                table.append((key(letters[0], letters[1], letters[2]), digits))
            }
        }
        return table.sorted { $0.key < $1.key }
    }()
}
