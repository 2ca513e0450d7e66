@_spi(Tools) import ChargeKit

/// Why a Citcon UPI call failed. Field problems reuse ChargeKit's `ChargeKitError`,
/// which names the field (`transaction.amount`, `scheme`…).
///
/// Like `ChargeKitError`, this enum is not frozen: a minor release may add a case,
/// so keep a `default:` branch when you switch over it. The server's codes are open
/// by nature (``server(code:message:httpStatus:)`` carries any code); match the
/// documented ones through ``apiCode``, whose ``CPayAPICode`` also grows.
public enum CPayError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The order or argument is invalid; nothing was sent.
    case invalidOrder(ChargeKitError)
    /// No access token is set; call ``CPayManager/setAccessToken(_:)``.
    case missingAccessToken
    /// The server answered `4010` (HTTP 401): the token is missing, unknown or
    /// expired. Get a new one and call ``CPayManager/setAccessToken(_:)``.
    case unauthorized(message: String)
    /// The server answered with a `fail` envelope.
    case server(code: String, message: String, httpStatus: Int)
    /// The request did not complete (connection refused, DNS, TLS…).
    case transport(String)
    /// The request timed out.
    case timeout
    /// The answer was not the UPI JSON expected.
    case malformedResponse(String)
    /// The wallet could not be opened.
    case walletUnavailable(ChargeKitError)
    /// The pending-order store could not be read or written.
    case storage(String)
    /// The task waiting for the result was cancelled.
    case cancelled

    /// The code a ``CPayResult`` or ``CPayCheck`` carries for this error: the
    /// server's code, or `-1` (common error) for what happened on the device.
    public var code: String {
        switch self {
        case .unauthorized: CPayAPICode.unauthorized.rawValue
        case .server(let code, _, _): code
        default: CPayClientCode.commonError.rawValue
        }
    }

    /// The server's code as a known ``CPayAPICode``, for an exhaustive `switch`
    /// over what the API documents (`nil` for device-side errors and unknown codes).
    public var apiCode: CPayAPICode? {
        switch self {
        case .unauthorized: .unauthorized
        case .server(let code, _, _): CPayAPICode(rawValue: code)
        default: nil
        }
    }

    /// Whether the same request may be tried again: transport errors, timeouts,
    /// HTTP 5xx and `4107` (gateway error).
    public var isRetryable: Bool {
        switch self {
        case .transport, .timeout: true
        case .server(let code, _, let status): status >= 500 || code == CPayAPICode.gatewayError.rawValue
        default: false
        }
    }

    public var description: String {
        switch self {
        case .invalidOrder(let error): "invalid order: \(error.description)"
        case .missingAccessToken: "no access token: call setAccessToken(_:) first"
        case .unauthorized(let message): "4010 unauthorized: \(message)"
        case .server(let code, let message, let status): "\(code) (HTTP \(status)): \(message)"
        case .transport(let reason): "network: \(reason)"
        case .timeout: "network: the request timed out"
        case .malformedResponse(let reason): "unexpected answer from the UPI server: \(reason)"
        case .walletUnavailable(let error): "cannot open the wallet: \(error.description)"
        case .storage(let reason): "pending orders: \(reason)"
        case .cancelled: "the wait for the payment result was cancelled"
        }
    }
}
