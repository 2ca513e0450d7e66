import Foundation

/// What a provider's request builder hands the ledger: the request URL and the facts
/// a callback will be checked against.
public struct HandoffRequest: Hashable, Sendable, Codable {
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

    /// The longest request URL a ledger keeps with a pending charge.
    public static let maximumKeptURLLength = 4096

    private enum CodingKeys: String, CodingKey {
        case provider, operation, url, amount, amountFixed, taxRate, currency, extras, callbackURLs, failureURL
        case marksCallbacks, reference, fileMakerFormat
    }

    /// Reads a request as a ledger keeps it; absent flags read as `false`, an absent
    /// operation as a charge and an absent URL as empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        provider = try container.decode(PaymentProvider.self, forKey: .provider)
        operation = try container.decodeIfPresent(HandoffOperation.self, forKey: .operation) ?? .charge
        url = try container.decodeIfPresent(String.self, forKey: .url) ?? ""
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
    }

    /// Writes the request as a ledger keeps it: the URL only when it is at most
    /// ``maximumKeptURLLength`` bytes long.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(provider, forKey: .provider)
        try container.encode(operation, forKey: .operation)
        if url.utf8.count <= Self.maximumKeptURLLength { try container.encode(url, forKey: .url) }
        try container.encodeIfPresent(amount, forKey: .amount)
        try container.encode(amountFixed, forKey: .amountFixed)
        try container.encodeIfPresent(taxRate, forKey: .taxRate)
        try container.encodeIfPresent(currency, forKey: .currency)
        try container.encode(extras, forKey: .extras)
        try container.encode(callbackURLs, forKey: .callbackURLs)
        try container.encodeIfPresent(failureURL, forKey: .failureURL)
        try container.encode(marksCallbacks, forKey: .marksCallbacks)
        try container.encodeIfPresent(reference, forKey: .reference)
        try container.encode(fileMakerFormat, forKey: .fileMakerFormat)
    }
}
