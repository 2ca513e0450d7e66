import ChargeKit

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

    /// The documented statuses (``OpenWireValue``).
    public static var documented: [CPayStatus] { known }

    /// A status this SDK does not know, kept as sent.
    public static func other(_ wireValue: String) -> CPayStatus { .unknown(wireValue) }

    /// Reads a wire value.
    public init(rawValue: String) { self.init(wireValue: rawValue) }

    /// The wire value (``rawValue``).
    public var wireValue: String { rawValue }

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

/// The seed's "Codes returned to Client end" (`data.code`). Other codes are kept in
/// ``other(_:)``; server codes such as `4010` arrive there.
public enum CPayClientCode: OpenWireValue {
    /// `0`: success.
    case success
    /// `-1`: common error (bad request, failed to create the payment…).
    case commonError
    /// `-2`: cancelled by the user.
    case cancelled
    /// `6001`: cancelled in the wallet.
    case walletCancelled
    /// Any other code; see the message.
    case other(String)

    /// The documented codes (``OpenWireValue``).
    public static let documented: [CPayClientCode] = [.success, .commonError, .cancelled, .walletCancelled]

    /// Reads a wire value.
    public init(rawValue: String) { self.init(wireValue: rawValue) }

    /// The wire value (``rawValue``).
    public var wireValue: String { rawValue }

    /// The wire value.
    public var rawValue: String {
        switch self {
        case .success: "0"
        case .commonError: "-1"
        case .cancelled: "-2"
        case .walletCancelled: "6001"
        case .other(let value): value
        }
    }

    /// Whether the code means the user cancelled (`-2` or `6001`).
    public var isCancellation: Bool { self == .cancelled || self == .walletCancelled }
}

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
