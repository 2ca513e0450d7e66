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

    /// `4100`: `reference` was used before (every store refuses a taken reference with this).
    public static func duplicateReference(_ reference: String) -> APIError {
        APIError(.duplicateReference, "reference: '\(reference)' was used before (duplicate request)")
    }
}
