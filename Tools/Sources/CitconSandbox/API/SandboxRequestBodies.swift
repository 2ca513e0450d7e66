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

    enum CodingKeys: String, CodingKey, CaseIterable { case advanceSeconds = "advance_seconds" }
}

/// `POST /v1/ipn-events/{id}/forwards` (schema `IPNForwardReport`): how the URL a
/// listener forwarded an IPN to answered.
package struct IPNForwardBody: Codable, Sendable, Hashable {
    /// `HTTP 200`, `timed out`…: shown beside the IPN's attempts (checked by the operation).
    package var answer: String
    /// Whether the forward delivered it.
    package var delivered: Bool

    enum CodingKeys: String, CodingKey, CaseIterable { case answer, delivered }
}
