import Foundation

/// What the ledger remembers of a charge it handed off: enough to recognise the one
/// callback that answers it, and to check that the answer fits what was asked.
///
/// Pending charges are made by ``ChargeLedger/issue(_:)`` from a ``HandoffRequest``;
/// an app reads them but cannot make one that the ledger would accept as its own.
public struct PendingCharge: Hashable, Sendable, Codable {
    /// The one-time correlation token carried on the callback URL.
    public internal(set) var nonce: Nonce
    /// The payment app the charge went to.
    public internal(set) var provider: PaymentProvider
    /// What was asked: a sale, a refund, a query or opening the app.
    public internal(set) var operation: HandoffOperation
    /// When the charge was handed off.
    public internal(set) var createdAt: Date
    /// After this moment a callback for it is refused as expired.
    public internal(set) var expiresAt: Date
    /// The amount asked (before tax and tip), if one was set.
    public internal(set) var amount: Money?
    /// Whether the amount was fixed (Credit Card Terminal `amountFixed=1`): an approval
    /// for another subtotal is then refused rather than flagged.
    public internal(set) var amountFixed: Bool
    /// The tax rate asked (Credit Card Terminal `taxRate`, `default` included), if any.
    public internal(set) var taxRate: String?
    /// The currency asked, if one was set.
    public internal(set) var currency: Currency?
    /// The app's extra parameters that must come back untouched.
    public internal(set) var extras: [QueryItem]
    /// The URLs (as given, before extras and nonce) a callback may arrive on.
    public internal(set) var callbackURLs: [String]
    /// The URL only failures may arrive on, when it differs from the success URL
    /// (SumUp `callbackfail`, Zettle `x-failure`/`failureURL`).
    public internal(set) var failureURL: String?
    /// Whether ChargeKit marked each callback URL with `chargekit-callback`
    /// (`success`/`failure`), so that a callback must carry the marker of the URL it
    /// was opened on.
    public internal(set) var marksCallbacks: Bool
    /// The provider's echoed reference (SumUp `foreign-tx-id`, Zettle `reference`), if any.
    public internal(set) var reference: String?
    /// Whether a FileMaker-format response was asked (Credit Card Terminal `fm=1`).
    public internal(set) var fileMakerFormat: Bool
    /// When a valid callback consumed the nonce; `nil` while outstanding.
    public internal(set) var consumedAt: Date?
    /// The callback URL that consumed the nonce (kept so that a coordinator of another
    /// ledger instance or process waiting for this charge can complete).
    public internal(set) var acceptedCallback: String?

    init(
        nonce: Nonce, provider: PaymentProvider, operation: HandoffOperation = .charge, createdAt: Date, expiresAt: Date,
        amount: Money?, amountFixed: Bool = false, taxRate: String? = nil, currency: Currency?, extras: [QueryItem],
        callbackURLs: [String], failureURL: String? = nil, marksCallbacks: Bool = false, reference: String? = nil,
        fileMakerFormat: Bool = false, consumedAt: Date? = nil
    ) {
        self.nonce = nonce
        self.provider = provider
        self.operation = operation
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.amount = amount
        self.amountFixed = amountFixed
        self.taxRate = taxRate
        self.currency = currency
        self.extras = extras
        self.callbackURLs = callbackURLs
        self.failureURL = failureURL
        self.marksCallbacks = marksCallbacks
        self.reference = reference
        self.fileMakerFormat = fileMakerFormat
        self.consumedAt = consumedAt
    }

    /// Records `request` as issued at `date`, waiting `timeToLive`.
    init(nonce: Nonce, request: HandoffRequest, createdAt date: Date, timeToLive: TimeInterval) {
        self.init(
            nonce: nonce, provider: request.provider, operation: request.operation, createdAt: date,
            expiresAt: Self.adding(timeToLive, to: date), amount: request.amount, amountFixed: request.amountFixed,
            taxRate: request.taxRate, currency: request.currency ?? request.amount?.currency, extras: request.extras,
            callbackURLs: request.callbackURLs, failureURL: request.failureURL, marksCallbacks: request.marksCallbacks,
            reference: request.reference, fileMakerFormat: request.fileMakerFormat
        )
    }

    /// `date + interval`, clamped to the far future (no overflow, no NaN).
    static func adding(_ interval: TimeInterval, to date: Date) -> Date {
        guard interval.isFinite, interval > 0 else { return date }
        return date.addingTimeInterval(min(interval, Date.distantFuture.timeIntervalSince(date)))
    }

    /// Whether it is still waiting for its callback at `date`.
    public func isOutstanding(at date: Date) -> Bool { consumedAt == nil && date < expiresAt }

    /// Whether it is done with (consumed or expired) at `date`, so that it may be pruned
    /// when space is needed.
    func isSettled(at date: Date) -> Bool { !isOutstanding(at: date) }

    /// The moment after which it is of no more use than reporting a late replay.
    var settledAt: Date { consumedAt ?? expiresAt }

    /// This entry consumed at `date`, keeping `callback` when it is short enough: what
    /// every store records when a nonce is used (the checks come before, in the store).
    /// A ``LedgerStore`` of your own calls it in its `consume`.
    public func consumed(at date: Date, callback: String?) -> PendingCharge {
        var charge = self
        charge.consumedAt = date
        if let callback, callback.utf8.count <= LedgerEntries.maximumKeptCallback { charge.acceptedCallback = callback }
        return charge
    }

    private enum CodingKeys: String, CodingKey {
        case nonce, provider, operation, createdAt, expiresAt, amount, amountFixed, taxRate, currency, extras
        case callbackURLs, failureURL, marksCallbacks, reference, fileMakerFormat, consumedAt, acceptedCallback
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        nonce = try container.decode(Nonce.self, forKey: .nonce)
        provider = try container.decode(PaymentProvider.self, forKey: .provider)
        operation = try container.decodeIfPresent(HandoffOperation.self, forKey: .operation) ?? .charge
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        expiresAt = try container.decode(Date.self, forKey: .expiresAt)
        amount = try container.decodeIfPresent(Money.self, forKey: .amount)
        amountFixed = try container.decodeIfPresent(Bool.self, forKey: .amountFixed) ?? false
        taxRate = try container.decodeIfPresent(String.self, forKey: .taxRate)
        currency = try container.decodeIfPresent(Currency.self, forKey: .currency)
        extras = try container.decode([QueryItem].self, forKey: .extras)
        callbackURLs = try container.decode([String].self, forKey: .callbackURLs)
        failureURL = try container.decodeIfPresent(String.self, forKey: .failureURL)
        marksCallbacks = try container.decodeIfPresent(Bool.self, forKey: .marksCallbacks) ?? false
        reference = try container.decodeIfPresent(String.self, forKey: .reference)
        fileMakerFormat = try container.decodeIfPresent(Bool.self, forKey: .fileMakerFormat) ?? false
        consumedAt = try container.decodeIfPresent(Date.self, forKey: .consumedAt)
        acceptedCallback = try container.decodeIfPresent(String.self, forKey: .acceptedCallback)
    }
}
