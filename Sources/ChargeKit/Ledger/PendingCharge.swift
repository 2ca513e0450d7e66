import Foundation

/// What the ledger remembers of a charge it handed off: enough to recognise the one
/// callback that answers it, and to check that the answer fits what was asked.
public struct PendingCharge: Hashable, Sendable, Codable {
    /// The one-time correlation token carried on the callback URL.
    public var nonce: Nonce
    /// The payment app the charge went to.
    public var provider: PaymentProvider
    /// When the charge was handed off.
    public var createdAt: Date
    /// After this moment a callback for it is refused as expired.
    public var expiresAt: Date
    /// The amount asked (before tax and tip), if one was set.
    public var amount: Money?
    /// The currency asked, if one was set.
    public var currency: Currency?
    /// The app's extra parameters that must come back untouched.
    public var extras: [QueryItem]
    /// The URLs (as given, before extras and nonce) a callback may arrive on.
    public var callbackURLs: [String]
    /// The provider's echoed reference (SumUp `foreign-tx-id`, Zettle `reference`), if any.
    public var reference: String?
    /// Whether a FileMaker-format response was asked (Credit Card Terminal `fm=1`).
    public var fileMakerFormat: Bool
    /// When a valid callback consumed the nonce; `nil` while outstanding.
    public var consumedAt: Date?

    /// Makes a snapshot.
    public init(
        nonce: Nonce, provider: PaymentProvider, createdAt: Date, expiresAt: Date, amount: Money?,
        currency: Currency?, extras: [QueryItem], callbackURLs: [String], reference: String? = nil,
        fileMakerFormat: Bool = false, consumedAt: Date? = nil
    ) {
        self.nonce = nonce
        self.provider = provider
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.amount = amount
        self.currency = currency
        self.extras = extras
        self.callbackURLs = callbackURLs
        self.reference = reference
        self.fileMakerFormat = fileMakerFormat
        self.consumedAt = consumedAt
    }

    /// Whether it is still waiting for its callback at `date`.
    public func isOutstanding(at date: Date) -> Bool { consumedAt == nil && date < expiresAt }
}

/// What a provider's request builder hands the ledger: the request URL and the facts
/// a callback will be checked against.
public struct HandoffRequest: Hashable, Sendable {
    /// The provider.
    public var provider: PaymentProvider
    /// The URL that opens the payment app, nonce included.
    public var url: String
    /// The amount asked, before tax and tip.
    public var amount: Money?
    /// The currency asked.
    public var currency: Currency?
    /// Extra parameters that must come back untouched.
    public var extras: [QueryItem]
    /// The callback URLs as given (before extras and nonce were appended).
    public var callbackURLs: [String]
    /// The provider's echoed reference, if any.
    public var reference: String?
    /// Whether a FileMaker-format answer was asked.
    public var fileMakerFormat: Bool

    /// Makes a hand-off description.
    public init(
        provider: PaymentProvider, url: String, amount: Money?, currency: Currency?, extras: [QueryItem],
        callbackURLs: [String], reference: String? = nil, fileMakerFormat: Bool = false
    ) {
        self.provider = provider
        self.url = url
        self.amount = amount
        self.currency = currency
        self.extras = extras
        self.callbackURLs = callbackURLs
        self.reference = reference
        self.fileMakerFormat = fileMakerFormat
    }
}

/// Something the ledger noticed about an accepted callback that the app should look at.
public enum VerificationFlag: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The approved amount before tax and tip is lower than the amount asked
    /// (the user changed it in the payment app).
    case amountBelowRequested(requested: Money, approved: Money)
    /// The callback carried no amount to compare with the one asked.
    case amountNotReported

    public var description: String {
        switch self {
        case .amountBelowRequested(let requested, let approved):
            return "approved amount \(approved) is below the \(requested) requested"
        case .amountNotReported:
            return "the payment app reported no amount to compare with the request"
        }
    }
}
