/// Zettle as a payment app: its name, its callback's rules, its requests for the
/// ledger and its ``PaymentApp`` values.
extension Zettle: PaymentAppDefinition {

    static let identifier = "zettle"
    static let displayName = "Zettle"
    static let notice: String? = "legacy: Zettle deprecated its URL scheme (izettle://) in December 2017 and recommends its "
        + "SDK; its sample repository is archived. ChargeKit keeps the integration for apps that still use it."
    static let callbackRegistration = "the scheme of x-success / x-failure or successURL / failureURL"
    static let reservedCallbackFields: Set<String> = Set(["errorCode", "errorMessage", "reference"] + PaymentInfo.fieldNames)

    /// Zettle's `errorCode`, `errorMessage`, payment info, or ChargeKit's success/failure marker.
    static func recognises(_ url: QueryURL) -> Bool {
        let names: Set<String> = Set(PaymentInfo.fieldNames + ["errorCode", "errorMessage", ChargeKitParameter.callback])
        return url.items.contains { names.contains($0.name) }
    }
}

extension PaymentProvider {
    /// iZettle / Zettle (`izettle://`).
    public static let zettle = Zettle.provider
}

extension Zettle.Callback: ProviderCallback, ReadableCallback {
    public static var provider: PaymentProvider { .zettle }
    public var outcome: ChargeOutcome {
        if succeeded { return .approved }
        return errorCode == .cancelledByUser ? .cancelled : .failed
    }
    public var providerStatus: String { succeeded ? "success" : errorCode?.rawValue ?? "failure" }
    public var transactionID: String? { paymentInfo.referenceNumber }
    public var echoedReference: String? { reference }
    public var message: String? { structuredError?.message ?? errorMessage }
}

extension PaymentCallback {
    /// The Zettle callback, if Zettle sent it.
    public var zettle: Zettle.Callback? { details(as: Zettle.Callback.self) }
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

extension PaymentApp {
    /// iZettle, URL scheme version 1.0, answering on `callbackURL`.
    public static func zettle(apiKey: String, source: String, callbackURL: String) -> PaymentApp {
        PaymentApp(ZettleOrder(apiKey: apiKey, source: source, callbackURL: callbackURL))
    }

    /// Zettle's later `izettle://api/payment/charge`, answering on `callbackURL`.
    public static func zettleAPI(callbackURL: String) -> PaymentApp {
        PaymentApp(ZettleAPIOrder(callbackURL: callbackURL))
    }
}

private struct ZettleOrder: OrderHandoff {
    var apiKey: String
    var source: String
    var callbackURL: String
    var provider: PaymentProvider { .zettle }

    func handoff(for order: ChargeOrder, nonce: Nonce) throws(ChargeKitError) -> HandoffRequest {
        guard let title = order.description, !title.isEmpty else { throw .missingField("title") }
        let request = try Zettle.PaymentRequest(
            source: source, successURL: callbackURL, failureURL: callbackURL, apiKey: apiKey, price: order.amount, title: title,
            reference: order.reference
        )
        return try request.handoff(nonce: nonce, extras: order.extras)
    }
}

private struct ZettleAPIOrder: OrderHandoff {
    var callbackURL: String
    var provider: PaymentProvider { .zettle }

    func handoff(for order: ChargeOrder, nonce: Nonce) throws(ChargeKitError) -> HandoffRequest {
        let request = try Zettle.APIRequest(
            operation: .charge(amount: order.amount, reference: order.reference ?? nonce.value),
            successURL: callbackURL, failureURL: callbackURL
        )
        return try request.handoff(nonce: nonce, extras: order.extras)
    }
}

extension PaymentCoordinator {
    /// Submits an iZettle 1.0 payment and waits.
    public func submit(_ request: Zettle.PaymentRequest, extras: [QueryItem] = []) async throws(ChargeKitError) -> PaymentResult {
        try await submit { nonce throws(ChargeKitError) in try request.handoff(nonce: nonce, extras: extras) }
    }

    /// Submits a Zettle `izettle://api/` operation and waits.
    public func submit(_ request: Zettle.APIRequest, extras: [QueryItem] = []) async throws(ChargeKitError) -> PaymentResult {
        try await submit { nonce throws(ChargeKitError) in try request.handoff(nonce: nonce, extras: extras) }
    }

    /// Asks Zettle about an `izettle://api/payment/charge` hand-off that never came back
    /// (`izettle://api/payment/query` with its reference: itself a hand-off, answering
    /// on `callbackURL`) and settles it with the answer (``resolve(_:as:note:)``): a
    /// payment found is approved, Zettle's "no payment with that reference" (code 404)
    /// cancelled. Any other answer (not logged in, say) settles nothing and is thrown.
    /// - Throws: ``ChargeKitError/invalidField(_:rule:)`` naming `charge` for a hand-off
    ///   that is not a Zettle `api/` charge, ``ChargeKitError/mismatch(field:rule:)``
    ///   naming `query` when Zettle's answer does not tell, or what the query or the
    ///   settlement throws.
    @discardableResult
    public func resolveByQuery(_ charge: PendingCharge, callbackURL: String) async throws(ChargeKitError) -> PendingCharge {
        guard charge.provider == .zettle, charge.operation == .charge, charge.request.url.hasPrefix("izettle://api/payment/charge"),
              let reference = charge.request.reference else {
            throw .invalidField("charge", rule: "only a Zettle izettle://api/payment/charge hand-off can be asked about")
        }
        let answer = try await submit(Zettle.APIRequest(operation: .query(reference: reference), successURL: callbackURL, failureURL: callbackURL))
        if answer.outcome == .approved {
            let number = answer.callback.zettle?.paymentInfo.referenceNumber ?? "?"
            return try await resolve(charge.nonce, as: .approved, note: "Zettle payment/query: paid, referenceNumber \(number)")
        }
        if let error = answer.callback.zettle?.structuredError, error.code == 404 {
            return try await resolve(charge.nonce, as: .cancelled, note: "Zettle payment/query: \(error.message)")
        }
        throw .mismatch(field: "query", rule: "Zettle's answer does not tell whether \(reference) was paid: \(answer.callback.message ?? answer.providerStatus)")
    }
}
