/// A parsed callback from any of the payment apps.
public enum PaymentCallback: Hashable, Sendable {
    case creditCardTerminal(CreditCardTerminal.ChargeResponse)
    case sumUp(SumUp.Callback)
    case zettle(Zettle.Callback)

    /// Parses a callback URL, for `provider` or, when `nil`, for the provider the URL's
    /// parameters name (`ifcc_` fields, `smp-status`, or Zettle's `errorCode`,
    /// payment info or ChargeKit's success/failure marker).
    /// - Throws: ``ChargeKitError/invalidURL(_:rule:)`` when the provider cannot be
    ///   told, or the provider parser's error.
    public static func parse(
        _ url: String, provider: PaymentProvider? = nil, maximumLength: Int = QueryURL.defaultMaximumLength
    ) throws(ChargeKitError) -> PaymentCallback {
        // The provider's parser reads the URL's bytes; the URL is split into items
        // first only when the provider must be told from its parameters.
        var known = provider
        if known == nil { known = detectProvider(try QueryURL(parsing: url, maximumLength: maximumLength)) }
        guard let provider = known else {
            throw .invalidURL("url", rule: "carries no ifcc_, smp- or Zettle callback fields; name the provider")
        }
        switch provider {
        case .creditCardTerminal: return .creditCardTerminal(try CreditCardTerminal.ChargeResponse(url: url, maximumLength: maximumLength))
        case .sumUp: return .sumUp(try SumUp.Callback(url: url, maximumLength: maximumLength))
        case .zettle: return .zettle(try Zettle.Callback(url: url, maximumLength: maximumLength))
        }
    }

    /// Parses an already split callback URL; see ``parse(_:provider:maximumLength:)``.
    public static func parse(_ split: QueryURL, provider: PaymentProvider? = nil) throws(ChargeKitError) -> PaymentCallback {
        try parse(split.string, provider: provider ?? detectProvider(split), maximumLength: .max)
    }

    /// The provider a callback's parameters name, if they name one: a guess from field
    /// names, used only when no ledger says which provider a charge went to.
    ///
    /// `ifcc_` fields win over everything (Credit Card Terminal passes the app's
    /// extras through, whatever their names), then `smp-status`, then Zettle's names.
    static func detectProvider(_ url: QueryURL) -> PaymentProvider? {
        if url.items.contains(where: { $0.fileMakerName.name.hasPrefix(CreditCardTerminal.responsePrefix) && $0.name != CreditCardTerminal.nonceField }) {
            return .creditCardTerminal
        }
        if url.items.contains(where: { $0.name == "smp-status" }) { return .sumUp }
        let zettleNames: Set<String> = Set(Zettle.PaymentInfo.fieldNames + ["errorCode", "errorMessage", ChargeKitParameter.callback])
        if url.items.contains(where: { zettleNames.contains($0.name) }) { return .zettle }
        return nil
    }

    /// The parsed callback of whichever app sent it: every provider-neutral question
    /// below is asked of it, so that each provider answers in one place.
    public var base: any ProviderCallback {
        switch self {
        case .creditCardTerminal(let response): return response
        case .sumUp(let callback): return callback
        case .zettle(let callback): return callback
        }
    }

    /// The app that sent it.
    public var provider: PaymentProvider { type(of: base).provider }

    /// The provider-neutral outcome.
    ///
    /// | provider | approved | declined | cancelled | failed |
    /// |---|---|---|---|---|
    /// | Credit Card Terminal | approved | declined | cancelled | error |
    /// | SumUp | success | failed | — | invalidstate |
    /// | Zettle 1.0 | success | — | CancelledByUser | any other errorCode |
    /// | Zettle api/ | success | — | — | errorMessage |
    public var outcome: ChargeOutcome { base.outcome }

    /// The provider's own status: `ifcc_responseType`, `smp-status`, or Zettle's
    /// `errorCode` (`success` on success, `failure` for an error with a message only).
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

    /// The echoed merchant reference (SumUp `foreign-tx-id`, Zettle `reference`).
    public var reference: String? { base.echoedReference }

    /// The human-readable message the app sent, if any: `ifcc_errorMessage`,
    /// `smp-message`, or Zettle's `errorMessage` (the message part of a structured one).
    public var message: String? { base.message }

    /// Parameters in the provider's own namespace that this version of ChargeKit does
    /// not know (Credit Card Terminal `ifcc_…`, SumUp `smp-…`): kept and reported,
    /// never a reason to refuse.
    public var unknownFields: [QueryItem] { base.unknownFields }

    /// The `chargekit-callback` marker the callback URL carried (Zettle), if any.
    public var callbackMarker: String? {
        if case .zettle(let callback) = self { return callback.callbackMarker }
        return nil
    }

    /// The wire name of the echoed reference.
    var referenceField: String { provider == .sumUp ? "foreign-tx-id" : "reference" }

    /// The amount reported (Credit Card Terminal only; tax and tip included).
    public var amount: Money? {
        if case .creditCardTerminal(let response) = self { return response.amount }
        return nil
    }
}

/// What every provider's parsed callback answers, so that ``PaymentCallback`` asks the
/// provider instead of switching on it for each question.
public protocol ProviderCallback: Sendable {
    /// The app whose callback this is.
    static var provider: PaymentProvider { get }
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
    /// What only this provider's callback can be checked for against the request it
    /// answers (after the ledger's own checks: nonce, callback URL, extras, reference),
    /// with the flags to report. Refuses with ``ChargeKitError/mismatch(field:rule:)``.
    func check(against charge: PendingCharge) throws(ChargeKitError) -> [VerificationFlag]
}

extension ProviderCallback {
    /// Nothing beyond the ledger's own checks.
    public func check(against charge: PendingCharge) throws(ChargeKitError) -> [VerificationFlag] { [] }
}

extension CreditCardTerminal.ChargeResponse: ProviderCallback {
    public static var provider: PaymentProvider { .creditCardTerminal }
    public var outcome: ChargeOutcome {
        switch responseCode {
        case .approved: return .approved
        case .declined: return .declined
        case .cancelled: return .cancelled
        case .error: return .failed
        }
    }
    public var providerStatus: String { responseCode.rawValue }
    public var callbackURL: String { returnURL }
    public var transactionID: String? { transactionId }
    public var echoedReference: String? { nil }
    public var message: String? { errorMessage }
}

extension SumUp.Callback: ProviderCallback {
    public static var provider: PaymentProvider { .sumUp }
    public var outcome: ChargeOutcome {
        switch status {
        case .success: return .approved
        case .failed: return .declined
        case .invalidState: return .failed
        }
    }
    public var providerStatus: String { status.rawValue }
    public var transactionID: String? { transactionCode }
    public var echoedReference: String? { foreignTransactionID }
}

extension Zettle.Callback: ProviderCallback {
    public static var provider: PaymentProvider { .zettle }
    public var outcome: ChargeOutcome {
        if succeeded { return .approved }
        return errorCode == .cancelledByUser ? .cancelled : .failed
    }
    public var providerStatus: String { succeeded ? "success" : errorCode?.wireValue ?? "failure" }
    public var transactionID: String? { paymentInfo.referenceNumber }
    public var echoedReference: String? { reference }
    public var message: String? { structuredError?.message ?? errorMessage }
    public var unknownFields: [QueryItem] { [] }
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
