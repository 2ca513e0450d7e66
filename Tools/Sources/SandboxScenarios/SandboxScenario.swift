/// The outcomes a CI job can ask of the sandbox, per request, with the
/// `ChargeKit-Scenario` header (as Prism's `Prefer` and PayPal's `PayPal-Mock-Response`
/// pick an answer): on `POST /v1/charges` for the charge's life, on confirm to change
/// it, on a capture or a refund for that operation. The sandbox plays them;
/// `chargekit scenarios` lists them beside the payment apps'.
public enum SandboxScenario: String, CaseIterable, Sendable {
    /// Paid as usual (what a charge does without the header).
    case succeeds
    /// Paying it (the wallet's Pay, `upi pay`, the dashboard) declines it: `failed`, with its `charge.failed` IPN.
    case declined
    /// Paying it finds it expired: `expired`, with its IPN.
    case expires
    /// Paying it ends with the consumer's cancel: `canceled`, with its IPN.
    case canceled
    /// Paying it changes nothing: it stays `pending`, as a wallet that never answers leaves it.
    case staysPending = "stays-pending"
    /// It is authorized as usual, and its capture fails (HTTP 502, `5000`).
    case captureFails = "capture-fails"
    /// It is paid as usual, and a refund of it is declined (HTTP 406, `4202`).
    case refundDeclined = "refund-declined"

    /// The request header that picks one.
    public static let header = "ChargeKit-Scenario"

    /// The scenario named `name`, if there is one.
    public static func named(_ name: String) -> SandboxScenario? { SandboxScenario(rawValue: name.lowercased()) }

    /// Every name, for messages.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// The charge's status once paid (or once the operation is tried).
    public var outcome: String {
        switch self {
        case .succeeds, .refundDeclined: "succeeded"
        case .declined: "failed"
        case .expires: "expired"
        case .canceled: "canceled"
        case .staysPending: "pending"
        case .captureFails: "authorized"
        }
    }

    /// What it does, in words.
    public var description: String {
        switch self {
        case .succeeds: "paid as usual"
        case .declined: "paying it declines it: failed, with its charge.failed IPN"
        case .expires: "paying it finds it expired: expired, with its IPN"
        case .canceled: "paying it cancels it: canceled, with its IPN"
        case .staysPending: "paying it changes nothing: it stays pending"
        case .captureFails: "its capture fails (HTTP 502): it stays authorized"
        case .refundDeclined: "a refund of it is declined (HTTP 406, 4202)"
        }
    }
}
