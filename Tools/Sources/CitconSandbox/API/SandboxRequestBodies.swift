@_spi(Tools) import CitconUPI
import Foundation

// The request bodies of the operations served by the generated server: the sandbox's own
// types, which the generated code decodes through the configuration's `typeOverrides`
// (Tools/openapi/openapi-generator-config.yaml), each described by the schema named beside
// it; a refusal names the field as every body's does (``JSONBodyEdge``).

/// `POST /v1/access-tokens` (schema `AccessTokenRequest`).
package struct AccessTokenBody: Codable, Sendable, Hashable {
    /// `server` or `client`.
    package var tokenType: String

    package init(tokenType: String) { self.tokenType = tokenType }

    enum CodingKeys: String, CodingKey, CaseIterable { case tokenType = "token_type" }
}

/// `POST /sandbox/clock` (schema `ClockAdvanceRequest`): how far to move the clock.
package struct ClockAdvanceBody: Codable, Sendable, Hashable {
    /// Seconds, 1 to ``SandboxClock/maximumAdvance`` (checked by the operation, naming the field).
    package var advanceSeconds: Int64

    enum CodingKeys: String, CodingKey { case advanceSeconds = "advance_seconds" }
}

/// `POST /v1/ipn-events/{id}/forwards` (schema `IPNForwardReport`): how the URL a
/// listener forwarded an IPN to answered.
package struct IPNForwardBody: Codable, Sendable, Hashable {
    /// `HTTP 200`, `timed out`…: shown beside the IPN's attempts (checked by the operation).
    package var answer: String
    /// Whether the forward delivered it.
    package var delivered: Bool
}

/// `GET /v1/logs?after=` (schema `LogCursor`): the log's id after which to list, a whole
/// number from 0, refused naming the parameter and its range.
package struct LogCursorParameter: Codable, Sendable, Hashable {
    package var value: Int64

    package init(from decoder: any Decoder) throws {
        value = try QueryNumber.read("after", from: decoder, in: 0...Int64.max)
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
        value = try QueryNumber.read("limit", from: decoder, in: 1...500)
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
enum QueryNumber {
    static func read(_ name: String, from decoder: any Decoder, in range: ClosedRange<Int64>) throws -> Int64 {
        let container = try decoder.singleValueContainer()
        let text = (try? container.decode(String.self)) ?? (try? container.decode(Int64.self)).map(String.init) ?? ""
        guard let number = Int64(text), range.contains(number) else {
            throw APIError(.invalidRequest, "\(name): must be a whole number from \(range.lowerBound) to \(range.upperBound)")
        }
        return number
    }
}
