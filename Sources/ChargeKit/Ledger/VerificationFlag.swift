import Foundation

/// Something the ledger noticed about an accepted callback that the app should look at.
public enum VerificationFlag: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The approved amount before tax and tip is lower than the amount asked
    /// (the user changed it in the payment app).
    case amountBelowRequested(requested: Money, approved: Money)
    /// The approved amount before tax and tip is higher than the amount asked.
    case amountAboveRequested(requested: Money, approved: Money)
    /// The callback carried no amount to compare with the one asked.
    case amountNotReported

    public var description: String {
        switch self {
        case .amountBelowRequested(let requested, let approved):
            return "approved amount \(approved) is below the \(requested) requested"
        case .amountAboveRequested(let requested, let approved):
            return "approved amount \(approved) is above the \(requested) requested"
        case .amountNotReported:
            return "the payment app reported no amount to compare with the request"
        }
    }
}
