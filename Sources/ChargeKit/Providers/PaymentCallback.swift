/// A parsed callback from any of the payment apps.
///
/// The provider-neutral questions are answered here; the app's own details are in
/// ``base``, or through the typed accessor each app's folder adds, named for the app.
public struct PaymentCallback: Hashable, Sendable {
    /// The parsed callback of whichever app sent it.
    public let base: any ProviderCallback

    /// Wraps a parsed callback.
    public init(_ base: any ProviderCallback) { self.base = base }

    public static func == (lhs: PaymentCallback, rhs: PaymentCallback) -> Bool { AnyHashable(lhs.base) == AnyHashable(rhs.base) }
    public func hash(into hasher: inout Hasher) { hasher.combine(AnyHashable(base)) }

    /// Parses a callback URL, for `provider` or, when `nil`, for the provider the URL's
    /// parameters name (each registered app recognises its own fields, asked in the
    /// registry's order).
    /// - Throws: ``ChargeKitError/invalidURL(_:rule:)`` when the provider cannot be
    ///   told, or the provider parser's error.
    public static func parse(
        _ url: String, provider: PaymentProvider? = nil, maximumLength: Int = QueryURL.defaultMaximumLength
    ) throws(ChargeKitError) -> PaymentCallback {
        // The provider's parser reads the URL's bytes; the URL is split into items
        // first only when the provider must be told from its parameters.
        var known = provider
        if known == nil {
            do {
                known = detectProvider(try QueryURL(parsing: url, maximumLength: maximumLength))
            } catch {
                // An answer written unencoded is told by its escaped text, and only as an
                // app that writes so.
                guard let escaped = UnencodedAnswer.escaped(url), let app = UnencodedAnswer.app(answering: escaped, maximumLength: maximumLength)
                else { throw error }
                known = PaymentProvider(app)
            }
        }
        guard let provider = known else {
            throw .invalidURL("url", rule: "carries no field of a payment app's callback; name the provider")
        }
        return try provider.definition.parse(url, maximumLength: maximumLength)
    }

    /// Parses an already split callback URL; see ``parse(_:provider:maximumLength:)``.
    public static func parse(_ split: QueryURL, provider: PaymentProvider? = nil) throws(ChargeKitError) -> PaymentCallback {
        try parse(split.string, provider: provider ?? detectProvider(split), maximumLength: .max)
    }

    /// The provider a callback's parameters name, if they name one: a guess from field
    /// names, used only when no ledger says which provider a charge went to. Apps are
    /// asked in registration order.
    static func detectProvider(_ url: QueryURL) -> PaymentProvider? {
        RegisteredApps.all.first { $0.recognises(url) }.map(PaymentProvider.init)
    }

    /// The app's own callback type, if it is `type`.
    public func details<Callback: ProviderCallback>(as type: Callback.Type) -> Callback? { base as? Callback }

    /// The app that sent it.
    public var provider: PaymentProvider { type(of: base).provider }

    /// The provider-neutral outcome: each app maps its own statuses to it (its article
    /// says how).
    public var outcome: ChargeOutcome { base.outcome }

    /// The provider's own status, as its answer spells it (its article names the field).
    public var providerStatus: String { base.providerStatus }

    /// The correlation nonce the callback carries.
    public var nonce: Nonce? { base.nonce }

    /// The wire name of the nonce field for this provider.
    public var nonceField: String { provider.nonceField }

    /// The URL opened, without its query.
    public var callbackURL: String { base.callbackURL }

    /// The parameters that are not the provider's: the app's extras.
    public var extraItems: [QueryItem] { base.extraItems }

    /// The provider's transaction id, if it sent one.
    public var transactionID: String? { base.transactionID }

    /// The echoed merchant reference, from the field the app echoes it in.
    public var reference: String? { base.echoedReference }

    /// The human-readable message the app sent, if any (for a structured one, its
    /// message part).
    public var message: String? { base.message }

    /// Parameters in the provider's own namespace that this version of ChargeKit does
    /// not know (its field prefix, such as `ifcc_`): kept and reported, never a reason to
    /// refuse.
    public var unknownFields: [QueryItem] { base.unknownFields }

    /// The `chargekit-callback` marker the callback URL carried (apps with two callback URLs), if any.
    public var callbackMarker: String? { base.callbackMarker }

    /// The wire name of the echoed reference.
    var referenceField: String { type(of: base).referenceField }

    /// The amount reported (Credit Card Terminal only; tax and tip included).
    public var amount: Money? { base.reportedAmount }
}

/// What every provider's parsed callback answers, so that ``PaymentCallback`` asks the
/// provider instead of switching on it for each question.
public protocol ProviderCallback: Hashable, Sendable, Codable {
    /// The app whose callback this is.
    static var provider: PaymentProvider { get }
    /// The wire name of the echoed merchant reference (`reference` unless the app names it otherwise).
    static var referenceField: String { get }
    /// The provider-neutral outcome.
    var outcome: ChargeOutcome { get }
    /// The provider's own status word.
    var providerStatus: String { get }
    /// The correlation nonce, when present.
    var nonce: Nonce? { get }
    /// The URL opened, without its query.
    var callbackURL: String { get }
    /// The app's extras.
    var extraItems: [QueryItem] { get }
    /// The provider's transaction id, if it sent one.
    var transactionID: String? { get }
    /// The merchant reference the provider echoed, if any.
    var echoedReference: String? { get }
    /// The app's human-readable message, if any.
    var message: String? { get }
    /// Unknown parameters of the provider's own namespace.
    var unknownFields: [QueryItem] { get }
    /// The `chargekit-callback` marker the callback URL carried, if any.
    var callbackMarker: String? { get }
    /// The amount the app reported, tax and tip included, if it reports one.
    var reportedAmount: Money? { get }
}

/// How an app's parser reads its callback: from a URL, or from the fields of a URL
/// the caller already scanned (the ledger, which found the nonce in the same fields).
protocol ReadableCallback: ProviderCallback {
    /// Parses and validates a callback URL of at most `maximumLength` bytes.
    init(url: String, maximumLength: Int) throws(ChargeKitError)
    /// Reads the callback from a scanned URL's fields: the parser matches the names
    /// it takes (``FieldReader/match(_:)``) and reads, with no second scan.
    init(fields: inout FieldReader) throws(ChargeKitError)
}

extension ProviderCallback {
    public static var referenceField: String { "reference" }
    public var message: String? { nil }
    public var unknownFields: [QueryItem] { [] }
    public var callbackMarker: String? { nil }
    public var reportedAmount: Money? { nil }
}

/// A callback that the ledger matched to its request and consumed.
public struct PaymentResult: Hashable, Sendable {
    /// The parsed callback, with every provider-specific detail.
    public var callback: PaymentCallback
    /// The snapshot of the request it answers.
    public var charge: PendingCharge
    /// What the app should look at (e.g. an approved amount below the one asked).
    public var flags: [VerificationFlag]

    /// The provider.
    public var provider: PaymentProvider { callback.provider }
    /// What was asked: only ``HandoffOperation/charge`` is a sale.
    public var operation: HandoffOperation { charge.operation }
    /// Whether this is an approved sale: a charge (not a refund, query or open) whose
    /// outcome is approved.
    public var isApprovedSale: Bool { operation == .charge && outcome == .approved }
    /// The provider-neutral outcome.
    public var outcome: ChargeOutcome { callback.outcome }
    /// The provider's raw status.
    public var providerStatus: String { callback.providerStatus }
}
