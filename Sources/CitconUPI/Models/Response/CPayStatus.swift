@_spi(Tools) import ChargeKit

/// A transaction status from the seed's "Status Returned to Client End" list. Values
/// this SDK does not know are kept in ``unknown(_:)``, never dropped.
public enum CPayStatus: OpenWireValue {
    /// The payment succeeded.
    case succeeded
    /// The payment failed (declined).
    case failed
    /// The transaction was created and not yet confirmed.
    case initiated
    /// The payment was authorized and awaits capture.
    case authorized
    /// The payment is waiting for the consumer or the wallet.
    case pending
    /// The payment was canceled.
    case canceled
    /// The payment expired unpaid.
    case expired
    /// A value this SDK does not know.
    case unknown(String)

    /// Every known status.
    public static let known: [CPayStatus] = [.succeeded, .failed, .initiated, .authorized, .pending, .canceled, .expired]

    /// The documented statuses.
    public static var documented: [CPayStatus] { known }

    /// A status this SDK does not know, kept as sent.
    public static func other(_ rawValue: String) -> CPayStatus { .unknown(rawValue) }

    /// The wire value.
    public var rawValue: String {
        switch self {
        case .succeeded: "succeeded"
        case .failed: "failed"
        case .initiated: "initiated"
        case .authorized: "authorized"
        case .pending: "pending"
        case .canceled: "canceled"
        case .expired: "expired"
        case .unknown(let value): value
        }
    }

    /// Whether no further payment step can change the outcome (captures and refunds aside).
    public var isFinal: Bool {
        switch self {
        case .succeeded, .failed, .canceled, .expired, .authorized: true
        case .initiated, .pending, .unknown: false
        }
    }
}
