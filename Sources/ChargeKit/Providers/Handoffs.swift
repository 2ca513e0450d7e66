extension CreditCardTerminal.ChargeRequest {
    /// The request with `nonce` on its return URL, and the facts its callback is checked against.
    public func handoff(nonce: Nonce) throws(ChargeKitError) -> HandoffRequest {
        guard let returnURL, !returnURL.isEmpty else { throw .missingField("returnURL") }
        return HandoffRequest(
            provider: .creditCardTerminal, url: try requestURL(nonce: nonce), amount: amount, amountFixed: amountFixed,
            taxRate: taxRate?.description, currency: currency ?? amount?.currency, extras: extraParams,
            callbackURLs: [returnURL], fileMakerFormat: fileMakerFormat
        )
    }
}

extension SumUp.PaymentRequest {
    /// The request with `extras` and `nonce` on its callback URLs.
    public func handoff(nonce: Nonce, extras: [QueryItem] = []) throws(ChargeKitError) -> HandoffRequest {
        let callbacks = [callbackSuccess, callbackFailure].compactMap { $0 }
        guard !callbacks.isEmpty else { throw .missingField("callbacksuccess") }
        try CallbackExtras.validate(extras, on: callbacks)
        return HandoffRequest(
            provider: .sumUp, url: try requestURL(callbackItems: extras + [QueryItem(ChargeKitParameter.nonce, nonce.value)]),
            amount: amount, currency: amount.currency, extras: extras, callbackURLs: callbacks,
            failureURL: callbackFailure == callbackSuccess ? nil : callbackFailure, reference: foreignTransactionID
        )
    }
}

extension Zettle.PaymentRequest {
    /// The request with `extras` and `nonce` on both callback URLs.
    public func handoff(nonce: Nonce, extras: [QueryItem] = []) throws(ChargeKitError) -> HandoffRequest {
        try CallbackExtras.validate(extras, on: [successURL, failureURL])
        return HandoffRequest(
            provider: .zettle, url: try requestURL(callbackItems: extras + [QueryItem(ChargeKitParameter.nonce, nonce.value)]),
            amount: price, currency: price.currency, extras: extras, callbackURLs: [successURL, failureURL],
            failureURL: failureURL, marksCallbacks: true, reference: reference
        )
    }
}

extension Zettle.APIRequest {
    /// The request with `extras` and `nonce` on both callback URLs.
    public func handoff(nonce: Nonce, extras: [QueryItem] = []) throws(ChargeKitError) -> HandoffRequest {
        try CallbackExtras.validate(extras, on: [successURL, failureURL])
        var amount: Money?
        let kind: HandoffOperation
        switch operation {
        case .charge(let value, _): (amount, kind) = (value, .charge)
        case .refund(_, _, let value): (amount, kind) = (value, .refund)
        case .query: (amount, kind) = (nil, .query)
        case .open: (amount, kind) = (nil, .open)
        }
        return HandoffRequest(
            provider: .zettle, operation: kind,
            url: try requestURL(callbackItems: extras + [QueryItem(ChargeKitParameter.nonce, nonce.value)]),
            amount: amount, currency: amount?.currency, extras: extras, callbackURLs: [successURL, failureURL],
            failureURL: failureURL, marksCallbacks: true, reference: operation.reference
        )
    }
}

/// Rules for the app's extras on SumUp and Zettle callback URLs.
enum CallbackExtras {
    static let reserved: Set<String> = Set(
        ["smp-status", "smp-tx-code", "smp-message", "foreign-tx-id", "errorCode", "errorMessage", "reference",
         ChargeKitParameter.nonce, ChargeKitParameter.callback] + Zettle.PaymentInfo.fieldNames
    )

    /// Checks `extras` against the reserved names and against the names already in
    /// each callback URL's own query (a clash would make the callback carry a name
    /// twice, which every parser refuses, so the charge could never complete).
    static func validate(_ extras: [QueryItem], on callbackURLs: [String]) throws(ChargeKitError) {
        for url in callbackURLs.isEmpty ? [""] : callbackURLs {
            let existing = (try? QueryURL(parsing: url).items) ?? []
            try FieldRules.extras(extras, field: "extras", alreadyOn: existing) { item in
                reserved.contains(item.name) || item.name.hasPrefix("smp-")
                    ? "is a name the payment app or ChargeKit uses on the callback" : nil
            }
        }
    }
}

/// A charge described once, the same way for every payment app.
public struct ChargeOrder: Hashable, Sendable {
    /// What to charge.
    public var amount: Money
    /// What is sold: Credit Card Terminal `description`, SumUp `title`, Zettle `title`.
    public var description: String?
    /// Your merchant reference: Credit Card Terminal `invoiceNumber`, SumUp
    /// `foreign-tx-id`, Zettle `reference` (for the `izettle://api/` charge a
    /// reference is required; the nonce is used when you give none).
    public var reference: String?
    /// Your parameters, returned untouched on the callback.
    public var extras: [QueryItem]

    /// Makes an order.
    public init(amount: Money, description: String? = nil, reference: String? = nil, extras: [QueryItem] = []) {
        self.amount = amount
        self.description = description
        self.reference = reference
        self.extras = extras
    }
}

/// The one value by which an app chooses its payment app; everything else is the
/// same code for all of them.
public enum PaymentApp: Hashable, Sendable {
    /// Credit Card Terminal, answering on `returnURL`. `template` supplies any other
    /// field (tax rate, customer, `fm`, ...); amount, description, invoice number,
    /// return URL and extras come from the order.
    case creditCardTerminal(returnURL: String, template: CreditCardTerminal.ChargeRequest = .init())
    /// SumUp, answering on `callbackURL` for both success and failure.
    case sumUp(affiliateKey: String, callbackURL: String)
    /// iZettle, URL scheme version 1.0, answering on `callbackURL`.
    case zettle(apiKey: String, source: String, callbackURL: String)
    /// Zettle's later `izettle://api/payment/charge`, answering on `callbackURL`.
    case zettleAPI(callbackURL: String)

    /// The provider behind it.
    public var provider: PaymentProvider {
        switch self {
        case .creditCardTerminal: return .creditCardTerminal
        case .sumUp: return .sumUp
        case .zettle, .zettleAPI: return .zettle
        }
    }

    /// Builds this app's request for `order`, carrying `nonce`.
    public func handoff(for order: ChargeOrder, nonce: Nonce) throws(ChargeKitError) -> HandoffRequest {
        switch self {
        case .creditCardTerminal(let returnURL, var request):
            request.setReturnURL(returnURL, extraParams: order.extras)
            request.amount = order.amount
            request.currency = order.amount.currency
            request.description = order.description ?? request.description
            request.invoiceNumber = order.reference ?? request.invoiceNumber
            return try request.handoff(nonce: nonce)
        case .sumUp(let affiliateKey, let callbackURL):
            var request = SumUp.PaymentRequest(amount: order.amount, title: order.description, affiliateKey: affiliateKey)
            request.callbackSuccess = callbackURL
            request.callbackFailure = callbackURL
            request.foreignTransactionID = order.reference
            return try request.handoff(nonce: nonce, extras: order.extras)
        case .zettle(let apiKey, let source, let callbackURL):
            guard let title = order.description, !title.isEmpty else { throw .missingField("title") }
            var request = Zettle.PaymentRequest(
                source: source, successURL: callbackURL, failureURL: callbackURL, apiKey: apiKey, price: order.amount, title: title
            )
            request.reference = order.reference
            return try request.handoff(nonce: nonce, extras: order.extras)
        case .zettleAPI(let callbackURL):
            let request = Zettle.APIRequest(
                operation: .charge(amount: order.amount, reference: order.reference ?? nonce.value),
                successURL: callbackURL, failureURL: callbackURL
            )
            return try request.handoff(nonce: nonce, extras: order.extras)
        }
    }
}
