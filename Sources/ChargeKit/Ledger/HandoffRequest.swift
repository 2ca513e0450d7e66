import Foundation

/// What a provider's request builder hands the ledger: the request URL and the facts
/// a callback will be checked against.
public struct HandoffRequest: Hashable, Sendable {
    /// The provider.
    public var provider: PaymentProvider
    /// What is asked.
    public var operation: HandoffOperation
    /// The URL that opens the payment app, nonce included.
    public var url: String
    /// The amount asked, before tax and tip.
    public var amount: Money?
    /// Whether the amount may not be changed in the payment app.
    public var amountFixed: Bool
    /// The tax rate asked, as sent.
    public var taxRate: String?
    /// The currency asked.
    public var currency: Currency?
    /// Extra parameters that must come back untouched.
    public var extras: [QueryItem]
    /// The callback URLs as given (before extras and nonce were appended).
    public var callbackURLs: [String]
    /// The URL only failures may arrive on, when it differs from the success URL.
    public var failureURL: String?
    /// Whether the callback URLs carry `chargekit-callback` markers.
    public var marksCallbacks: Bool
    /// The provider's echoed reference, if any.
    public var reference: String?
    /// Whether a FileMaker-format answer was asked.
    public var fileMakerFormat: Bool

    /// Makes a hand-off description.
    public init(
        provider: PaymentProvider, operation: HandoffOperation = .charge, url: String, amount: Money?,
        amountFixed: Bool = false, taxRate: String? = nil, currency: Currency?, extras: [QueryItem],
        callbackURLs: [String], failureURL: String? = nil, marksCallbacks: Bool = false, reference: String? = nil,
        fileMakerFormat: Bool = false
    ) {
        self.provider = provider
        self.operation = operation
        self.url = url
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
    }
}
