@_spi(Tools) import CitconUPI
import Foundation

/// The error the API answers with: a `fail` envelope with `data.code` and `data.message`.
public struct APIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The UPI code.
    public var code: CPayAPICode
    /// What went wrong; names the field.
    public var message: String

    /// Makes an error.
    public init(_ code: CPayAPICode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The HTTP status for the code, as the live API pairs them where it was seen
    /// (`4100` with 400, `4202` with 406; protocol notes §5).
    public var httpStatus: Int {
        switch code {
        case .invalidRequest, .malformedJSON, .duplicateReference: 400
        case .notFound: 404
        case .unauthorized: 401
        case .forbidden: 403
        case .methodNotAllowed: 405
        case .refundFailed: 406
        case .illegalState: 409
        case .gatewayError: 502
        case .bodyTooLarge: 413
        case .amountExceeded, .partialRefundIneligible: 422
        case .expired: 410
        case .tooManyRequests: 429
        }
    }

    public var description: String { "\(code.rawValue): \(message)" }

    /// `4130`: a body longer than `limit` bytes (answered with the connection closed).
    static func bodyTooLarge(limit: Int) -> APIError { APIError(.bodyTooLarge, "body: larger than \(limit) bytes") }

    /// `4001`: a body that could not be read (the client went away half-way).
    static let unreadableBody = APIError(.malformedJSON, "body: could not be read")

    /// `4001`: a JSON body is required and none came.
    static let bodyRequired = APIError(.malformedJSON, "body: a JSON object is required")

    /// `4000`: `name` appears more than once in a body or a form.
    static func repeated(_ name: String) -> APIError { APIError(.invalidRequest, "\(name): appears more than once") }

    /// `4100`: `reference` was used before (every store refuses a taken reference with this).
    public static func duplicateReference(_ reference: String) -> APIError {
        APIError(.duplicateReference, "reference: '\(reference)' was used before (duplicate request)")
    }
}
