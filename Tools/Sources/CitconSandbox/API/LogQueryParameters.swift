import Foundation

/// `GET /v1/logs?after=` (schema `LogCursor`): the log's id after which to list, a whole
/// number from 0, refused naming the parameter and its range.
package struct LogCursorParameter: Codable, Sendable, Hashable {
    package var value: Int64

    package init(from decoder: any Decoder) throws {
        value = try wholeQueryNumber("after", from: decoder, in: 0...Int64.max)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// `GET /v1/logs?limit=` (schema `LogLimit`): how many requests to list, 1 to 500.
package struct LogLimitParameter: Codable, Sendable, Hashable {
    package var value: Int64

    package init(from decoder: any Decoder) throws {
        value = try wholeQueryNumber("limit", from: decoder, in: 1...500)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}

/// A whole number of a query parameter, read as the sandbox reads every one: from its
/// text, refused as `<name>: must be a whole number from <low> to <high>` (an
/// ``APIError``, which the generated server hands on as thrown: its decoder's own errors
/// carry no parameter's name).
func wholeQueryNumber(_ name: String, from decoder: any Decoder, in range: ClosedRange<Int64>) throws -> Int64 {
    let container = try decoder.singleValueContainer()
    let text = (try? container.decode(String.self)) ?? (try? container.decode(Int64.self)).map(String.init) ?? ""
    guard let number = Int64(text), range.contains(number) else {
        throw APIError(.invalidRequest, "\(name): must be a whole number from \(range.lowerBound) to \(range.upperBound)")
    }
    return number
}
