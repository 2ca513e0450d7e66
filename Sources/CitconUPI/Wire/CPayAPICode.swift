import Foundation

/// The codes the API answers with. `4100`, `4010` and `4208` are Citcon's published
/// codes; the others are the sandbox's own and documented in the README.
public enum CPayAPICode: String, Sendable, CaseIterable {
    /// A field is missing, has the wrong type or an invalid value; the message names it.
    case invalidRequest = "4000"
    /// The body is not JSON.
    case malformedJSON = "4001"
    /// Unknown transaction, charge token or route.
    case notFound = "4004"
    /// Missing, unknown or expired token (HTTP 401).
    case unauthorized = "4010"
    /// A known path asked with another method (HTTP 405; the sandbox's own).
    case methodNotAllowed = "4050"
    /// The token lacks the permission the operation needs (HTTP 403).
    case forbidden = "4030"
    /// The transaction's status does not allow the operation (HTTP 409).
    case illegalState = "4090"
    /// The reference was used before (HTTP 400, as the live API answers).
    case duplicateReference = "4100"
    /// A gateway error upstream; worth retrying (seen live without a `version`).
    case gatewayError = "4107"
    /// The refund failed, such as refunding a charge never paid (HTTP 406).
    case refundFailed = "4202"
    /// The body is larger than the largest body (64 KiB) (HTTP 413).
    case bodyTooLarge = "4130"
    /// The amount exceeds what can be captured or refunded (HTTP 422).
    case amountExceeded = "4201"
    /// The method does not allow a partial refund (HTTP 422).
    case partialRefundIneligible = "4208"
    /// The charge expired unpaid (HTTP 410).
    case expired = "4410"
    /// Too many failed authentications from one client; wait and try again
    /// (HTTP 429; the sandbox's own).
    case tooManyRequests = "4290"
}
