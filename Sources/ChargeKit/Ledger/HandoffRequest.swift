import Foundation

/// What a payment app's request builder hands the ledger: the request URL and the
/// facts a callback will be checked against. Each app's `handoff(nonce:)` makes one;
/// the facts only one app checks are that app's, in ``appFacts``.
public struct HandoffRequest: Hashable, Sendable, Codable {
    /// The provider.
    public internal(set) var provider: PaymentProvider
    /// What is asked.
    public internal(set) var operation: HandoffOperation
    /// The URL that opens the payment app, nonce included.
    public internal(set) var url: String
    /// The amount asked, before tax and tip.
    public internal(set) var amount: Money?
    /// The currency asked (the amount's, when the request names none).
    public internal(set) var currency: Currency?
    /// Extra parameters that must come back untouched.
    public internal(set) var extras: [QueryItem]
    /// The callback URLs as given (before extras and nonce were appended).
    public internal(set) var callbackURLs: [String]
    /// The URL only failures may arrive on, when it differs from the success URL.
    public internal(set) var failureURL: String?
    /// Whether the callback URLs carry `chargekit-callback` markers.
    public internal(set) var marksCallbacks: Bool
    /// The provider's echoed reference, if any.
    public internal(set) var reference: String?
    /// What only the app checks its answer against, in the app's own names (Credit
    /// Card Terminal's tax rate, fixed amount and FileMaker format): written and read
    /// in the app's home.
    public internal(set) var appFacts: [String: String]

    /// Makes a hand-off description (each app's `handoff(nonce:)`).
    init(
        provider: PaymentProvider, operation: HandoffOperation = .charge, url: String, amount: Money?, currency: Currency?,
        extras: [QueryItem], callbackURLs: [String], failureURL: String? = nil, marksCallbacks: Bool = false,
        reference: String? = nil, appFacts: [String: String] = [:]
    ) {
        self.provider = provider
        self.operation = operation
        self.url = url
        self.amount = amount
        // The currency asked is the amount's when the app sends none.
        self.currency = currency ?? amount?.currency
        self.extras = extras
        self.callbackURLs = callbackURLs
        self.failureURL = failureURL
        self.marksCallbacks = marksCallbacks
        self.reference = reference
        self.appFacts = appFacts
    }

    /// The longest request URL a ledger keeps with a pending charge.
    public static let maximumKeptURLLength = 4096

    private enum CodingKeys: String, CodingKey {
        case provider, operation, url, amount, currency, extras, callbackURLs, failureURL, marksCallbacks, reference, appFacts
    }

    /// Where ledgers before 0.6 kept Credit Card Terminal's facts: at the top level, typed.
    private enum EarlierKeys: String, CodingKey {
        case amountFixed, taxRate, fileMakerFormat
    }

    /// Reads a request as a ledger keeps it; absent flags read as `false`, an absent
    /// operation as a charge and an absent URL as empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        provider = try container.decode(PaymentProvider.self, forKey: .provider)
        operation = try container.decodeIfPresent(HandoffOperation.self, forKey: .operation) ?? .charge
        url = try container.decodeIfPresent(String.self, forKey: .url) ?? ""
        amount = try container.decodeIfPresent(Money.self, forKey: .amount)
        currency = try container.decodeIfPresent(Currency.self, forKey: .currency)
        extras = try container.decode([QueryItem].self, forKey: .extras)
        callbackURLs = try container.decode([String].self, forKey: .callbackURLs)
        failureURL = try container.decodeIfPresent(String.self, forKey: .failureURL)
        marksCallbacks = try container.decodeIfPresent(Bool.self, forKey: .marksCallbacks) ?? false
        reference = try container.decodeIfPresent(String.self, forKey: .reference)
        if let facts = try container.decodeIfPresent([String: String].self, forKey: .appFacts) {
            appFacts = facts
        } else {
            // An earlier ledger's entry: its typed facts, as the app now names them.
            let earlier = try decoder.container(keyedBy: EarlierKeys.self)
            var facts: [String: String] = [:]
            if try earlier.decodeIfPresent(Bool.self, forKey: .amountFixed) == true { facts[EarlierKeys.amountFixed.rawValue] = "1" }
            if let rate = try earlier.decodeIfPresent(String.self, forKey: .taxRate) { facts[EarlierKeys.taxRate.rawValue] = rate }
            if try earlier.decodeIfPresent(Bool.self, forKey: .fileMakerFormat) == true { facts[EarlierKeys.fileMakerFormat.rawValue] = "1" }
            appFacts = facts
        }
    }

    /// Writes the request as a ledger keeps it: the URL only when it is at most
    /// ``maximumKeptURLLength`` bytes long.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(provider, forKey: .provider)
        try container.encode(operation, forKey: .operation)
        if url.utf8.count <= Self.maximumKeptURLLength { try container.encode(url, forKey: .url) }
        try container.encodeIfPresent(amount, forKey: .amount)
        try container.encodeIfPresent(currency, forKey: .currency)
        try container.encode(extras, forKey: .extras)
        try container.encode(callbackURLs, forKey: .callbackURLs)
        try container.encodeIfPresent(failureURL, forKey: .failureURL)
        try container.encode(marksCallbacks, forKey: .marksCallbacks)
        try container.encodeIfPresent(reference, forKey: .reference)
        if !appFacts.isEmpty { try container.encode(appFacts, forKey: .appFacts) }
    }
}
