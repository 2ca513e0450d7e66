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
        try parse(QueryURL(parsing: url, maximumLength: maximumLength), provider: provider)
    }

    /// Parses an already split callback URL; see ``parse(_:provider:maximumLength:)``.
    public static func parse(_ split: QueryURL, provider: PaymentProvider? = nil) throws(ChargeKitError) -> PaymentCallback {
        guard let provider = provider ?? detectProvider(split) else {
            throw .invalidURL("url", rule: "carries no ifcc_, smp- or Zettle callback fields; name the provider")
        }
        switch provider {
        case .creditCardTerminal: return .creditCardTerminal(try CreditCardTerminal.ChargeResponse(split))
        case .sumUp: return .sumUp(try SumUp.Callback(split))
        case .zettle: return .zettle(try Zettle.Callback(split))
        }
    }

    /// The provider a callback's parameters name, if they name one: a guess from field
    /// names, used only when no ledger says which provider a charge went to.
    ///
    /// `ifcc_` fields win over everything (Credit Card Terminal passes the app's
    /// extras through, whatever their names), then `smp-status`, then Zettle's names.
    public static func detectProvider(_ url: QueryURL) -> PaymentProvider? {
        if url.items.contains(where: { $0.fileMakerName.name.hasPrefix(CreditCardTerminal.responsePrefix) && $0.name != CreditCardTerminal.nonceField }) {
            return .creditCardTerminal
        }
        if url.items.contains(where: { $0.name == "smp-status" }) { return .sumUp }
        let zettleNames: Set<String> = Set(Zettle.PaymentInfo.fieldNames + ["errorCode", "errorMessage", ChargeKitParameter.callback])
        if url.items.contains(where: { zettleNames.contains($0.name) }) { return .zettle }
        return nil
    }

    /// The app that sent it.
    public var provider: PaymentProvider {
        switch self {
        case .creditCardTerminal: return .creditCardTerminal
        case .sumUp: return .sumUp
        case .zettle: return .zettle
        }
    }

    /// The provider-neutral outcome.
    ///
    /// | provider | approved | declined | cancelled | failed |
    /// |---|---|---|---|---|
    /// | Credit Card Terminal | approved | declined | cancelled | error |
    /// | SumUp | success | failed | — | invalidstate |
    /// | Zettle 1.0 | success | — | CancelledByUser | any other errorCode |
    /// | Zettle api/ | success | — | — | errorMessage |
    public var outcome: ChargeOutcome {
        switch self {
        case .creditCardTerminal(let response):
            switch response.responseCode {
            case .approved: return .approved
            case .declined: return .declined
            case .cancelled: return .cancelled
            case .error: return .failed
            }
        case .sumUp(let callback):
            switch callback.status {
            case .success: return .approved
            case .failed: return .declined
            case .invalidState: return .failed
            }
        case .zettle(let callback):
            if callback.succeeded { return .approved }
            return callback.errorCode == .cancelledByUser ? .cancelled : .failed
        }
    }

    /// The provider's own status: `ifcc_responseType`, `smp-status`, or Zettle's
    /// `errorCode` (`success` on success, `failure` for an error with a message only).
    public var providerStatus: String {
        switch self {
        case .creditCardTerminal(let response): return response.responseCode.rawValue
        case .sumUp(let callback): return callback.status.rawValue
        case .zettle(let callback):
            if callback.succeeded { return "success" }
            return callback.errorCode?.wireValue ?? "failure"
        }
    }

    /// The correlation nonce the callback carries.
    public var nonce: Nonce? {
        switch self {
        case .creditCardTerminal(let response): return response.nonce
        case .sumUp(let callback): return callback.nonce
        case .zettle(let callback): return callback.nonce
        }
    }

    /// The wire name of the nonce field for this provider.
    public var nonceField: String {
        provider == .creditCardTerminal ? CreditCardTerminal.nonceField : ChargeKitParameter.nonce
    }

    /// The URL opened, without its query.
    public var callbackURL: String {
        switch self {
        case .creditCardTerminal(let response): return response.returnURL
        case .sumUp(let callback): return callback.callbackURL
        case .zettle(let callback): return callback.callbackURL
        }
    }

    /// The parameters that are not the provider's: the app's extras.
    public var extraItems: [QueryItem] {
        switch self {
        case .creditCardTerminal(let response): return response.extraItems
        case .sumUp(let callback): return callback.extraItems
        case .zettle(let callback): return callback.extraItems
        }
    }

    /// The provider's transaction id, if it sent one.
    public var transactionID: String? {
        switch self {
        case .creditCardTerminal(let response): return response.transactionId
        case .sumUp(let callback): return callback.transactionCode
        case .zettle(let callback): return callback.paymentInfo.referenceNumber
        }
    }

    /// The echoed merchant reference (SumUp `foreign-tx-id`, Zettle `reference`).
    public var reference: String? {
        switch self {
        case .creditCardTerminal: return nil
        case .sumUp(let callback): return callback.foreignTransactionID
        case .zettle(let callback): return callback.reference
        }
    }

    /// The human-readable message the app sent, if any: `ifcc_errorMessage`,
    /// `smp-message`, or Zettle's `errorMessage` (the message part of a structured one).
    public var message: String? {
        switch self {
        case .creditCardTerminal(let response): return response.errorMessage
        case .sumUp(let callback): return callback.message
        case .zettle(let callback): return callback.structuredError?.message ?? callback.errorMessage
        }
    }

    /// Parameters in the provider's own namespace that this version of ChargeKit does
    /// not know (Credit Card Terminal `ifcc_…`, SumUp `smp-…`): kept and reported,
    /// never a reason to refuse.
    public var unknownFields: [QueryItem] {
        switch self {
        case .creditCardTerminal(let response): return response.unknownFields
        case .sumUp(let callback): return callback.unknownFields
        case .zettle: return []
        }
    }

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
