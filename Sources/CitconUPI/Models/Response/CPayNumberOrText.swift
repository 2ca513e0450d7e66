@_spi(Tools) import ChargeKit

/// A JSON value the UPI server sends as a number or as a string (the seed's example
/// has `"time_canceled": ""` where its table says Int). Kept as sent.
public enum CPayNumberOrText: Sendable, Hashable, Codable {
    /// A number.
    case number(Int64)
    /// A string, possibly empty.
    case text(String)

    /// The number, or a string that holds only digits.
    public var integerValue: Int64? {
        switch self {
        case .number(let value): value
        case .text(let text): Int64(text)
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int64.self) {
            self = .number(number)
        } else {
            self = .text(try container.decode(String.self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .number(let value): try container.encode(value)
        case .text(let value): try container.encode(value)
        }
    }
}
