/// Nexi POS as a payment app: its name, its answer's rules, its request for the ledger
/// and its ``PaymentApp``.
extension Nexi: PaymentAppDefinition {
    static let identifier = "nexi"
    static let displayName = "Nexi POS"
    static let callbackRegistration = "the scheme of the uri (e.g. my-app for my-app://payment)"
    /// The nonce comes back at the start of `callerTrxId`.
    static let nonceField = "callerTrxId"
    static let reservedCallbackFields: Set<String> = []
    /// `pan`, documented as `************5938`.
    static let cardNumberFields = [CardNumberField(name: "pan", mask: .lastFour(padding: "*"))]

    /// A `callerTrxId` beside a `result` and an `operationType`.
    static func recognises(_ url: QueryURL) -> Bool {
        ["callerTrxId", "result", "operationType"].allSatisfy { name in url.items.contains { $0.name == name } }
    }

    static func findNonce(in fields: FieldReader) -> NonceFinding {
        NonceFinding(items: fields.indices.filter { fields.name($0, spells: nonceField) }.compactMap { index in
            Nonce.leading(fields.value(index)).nonce.map { QueryItem(nonceField, $0.value) }
        })
    }

    /// `callerTrxId` must carry the nonce and the reference sent, `operationType` the
    /// operation asked, and an approved amount the amount asked.
    static func check(_ callback: Callback, against charge: PendingCharge) throws(ChargeKitError) -> [VerificationFlag] {
        try EchoedTransactionID(field: nonceField, app: displayName).check(nonce: callback.nonce, reference: callback.reference, against: charge)
        let asked = (charge.request.operation == .refund ? Operation.reversal : Operation.payment).answerName
        guard callback.operationType.uppercased() == asked else {
            throw .mismatch(field: "operationType", rule: "must name the operation asked (\(asked))")
        }
        if callback.outcome == .approved { try EchoedTransactionID.checkApproved(amount: callback.amountMinorUnits, field: "amount", against: charge) }
        return []
    }
}

extension PaymentProvider {
    /// Nexi POS (`neximpos://`).
    public static let nexi = Nexi.provider
}

extension Nexi.Callback: ProviderCallback, ReadableCallback {
    public static var provider: PaymentProvider { .nexi }
    public static var referenceField: String { "callerTrxId" }
    public var providerStatus: String { result }
    public var extraItems: [QueryItem] { [] }
    public var echoedReference: String? { reference }
    public var transactionID: String? { operationNumber }
    public var message: String? { resultDescription }
}

extension PaymentCallback {
    /// The Nexi POS answer, if Nexi sent it.
    public var nexi: Nexi.Callback? { details(as: Nexi.Callback.self) }
}

extension Nexi.PaymentRequest {
    /// The request with `nonce` at the start of `callerTrxId`, and the facts its answer
    /// is checked against.
    public func handoff(nonce: Nonce) -> HandoffRequest {
        HandoffRequest(
            provider: .nexi, operation: operation == .reversal ? .refund : .charge, url: requestURL(nonce: nonce), amount: amount,
            currency: amount.currency, extras: [], callbackURLs: [callbackURL], reference: reference
        )
    }
}

extension PaymentApp {
    /// Nexi POS, answering on `callbackURL` (a URL such as `my-app://payment`, without a
    /// query); `callerName` labels Nexi's button back to your app. The order's reference
    /// rides after the nonce in `callerTrxId`; Nexi returns nothing else, so an order
    /// with extras is refused. Orders are in euro.
    public static func nexi(callerName: String, callbackURL: String, screens: Nexi.Screens = .init()) -> PaymentApp {
        PaymentApp(NexiOrder(callerName: callerName, callbackURL: callbackURL, screens: screens))
    }
}

private struct NexiOrder: OrderHandoff {
    var callerName: String
    var callbackURL: String
    var screens: Nexi.Screens
    var provider: PaymentProvider { .nexi }

    func handoff(for order: ChargeOrder, nonce: Nonce) throws(ChargeKitError) -> HandoffRequest {
        guard order.extras.isEmpty else {
            throw .invalidField("extras", rule: "Nexi POS returns only its own fields; put your reference in the order's reference")
        }
        let request = try Nexi.PaymentRequest.payment(order.amount, callerName: callerName, callbackURL: callbackURL,
                                                      reference: order.reference, screens: screens)
        return request.handoff(nonce: nonce)
    }
}

extension PaymentCoordinator {
    /// Submits a Nexi POS request and waits for its answer (which may cold-launch the
    /// app: call ``pending()`` and ``handle(url:provider:)`` at launch too).
    public func submit(_ request: Nexi.PaymentRequest) async throws(ChargeKitError) -> PaymentResult {
        try await submit { nonce throws(ChargeKitError) in request.handoff(nonce: nonce) }
    }
}
