@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI

/// What an IPN reports, as the outbox keeps it: the charge's new status, or its refund.
/// A stored value this version does not know is kept as read (`CPayStatus.unknown`),
/// never a reason to stop reading the outbox.
public enum NotificationStatus: OpenWireValue {
    /// The charge's new status.
    case charge(CPayStatus)
    /// A refund of the charge succeeded.
    case refunded

    /// Every status an IPN reports.
    public static var documented: [NotificationStatus] { CPayStatus.known.map(NotificationStatus.charge) + [.refunded] }

    /// A value not documented, kept as stored.
    public static func other(_ rawValue: String) -> NotificationStatus { .charge(.unknown(rawValue)) }

    /// The value as the outbox stores it and the dashboard shows it.
    public var rawValue: String {
        switch self {
        case .charge(let status): status.rawValue
        case .refunded: "refunded"
        }
    }

    /// The event a listener's stream names it by (`charge.succeeded`, `refund.succeeded`).
    public var event: String {
        switch self {
        case .charge(let status): "charge." + status.rawValue
        case .refunded: "refund.succeeded"
        }
    }
}
