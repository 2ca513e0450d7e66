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
