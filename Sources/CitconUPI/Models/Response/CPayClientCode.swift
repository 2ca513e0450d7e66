@_spi(Tools) import ChargeKit

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

    /// The documented codes.
    public static let documented: [CPayClientCode] = [.success, .commonError, .cancelled, .walletCancelled]

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
