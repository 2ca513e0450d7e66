/// Viva.com Terminal as a payment app: its name, its answer's rules, its request for
/// the ledger and its ``PaymentApp``.
extension Viva: PaymentAppDefinition {
    static let identifier = "viva"
    static let displayName = "Viva.com Terminal"
    static let callbackRegistration = "the scheme of the callback URL (e.g. my-app for my-app://result)"
    /// The nonce comes back at the start of `clientTransactionId`.
    static let nonceField = "clientTransactionId"
    static let reservedCallbackFields: Set<String> = []
    static let answersUnencoded = true
    /// `accountNumber`, documented as `535686******1364`.
    static let cardNumberFields = [CardNumberField(name: "accountNumber", mask: .firstSixLastFour(padding: "*"))]

    /// A `status` of `success` or `fail` beside a `clientTransactionId`, or Viva's `User_cancel`.
    static func recognises(_ url: QueryURL) -> Bool {
        if url.items.contains(where: { $0.name == "action" && $0.value.lowercased() == "user_cancel" }) { return true }
        return url.items.contains { $0.name == "clientTransactionId" } && url.items.contains { $0.name == "status" && ($0.value == "success" || $0.value == "fail") }
    }

    static func findNonce(in fields: FieldReader) -> NonceFinding {
        NonceFinding(items: fields.indices.filter { fields.name($0, spells: nonceField) }.compactMap { index in
            Nonce.leading(fields.value(index)).nonce.map { QueryItem(nonceField, $0.value) }
        })
    }

    /// `clientTransactionId` must carry the nonce and the reference sent, the echoed
    /// action must be the one asked (or Viva's `User_cancel`), and an approved amount
    /// the amount asked.
    static func check(_ callback: Callback, against charge: PendingCharge) throws(ChargeKitError) -> [VerificationFlag] {
        // The nonce in clientTransactionId, as sent, and the reference after it when one was.
        try EchoedTransactionID(field: nonceField, app: displayName).check(nonce: callback.nonce, reference: callback.reference, against: charge)
        let asked = charge.request.operation == .refund ? Action.cancel.rawValue : Action.sale.rawValue
        if let action = callback.action, !callback.isUserCancel, action != asked, charge.request.operation != .open {
            throw .mismatch(field: "action", rule: "must echo the action asked (\(asked))")
        }
        if callback.outcome == .approved { try EchoedTransactionID.checkApproved(amount: callback.amountMinorUnits, field: "amount", against: charge) }
        return []
    }
}

extension PaymentProvider {
    /// Viva.com Terminal (`vivapayclient://`).
    public static let viva = Viva.provider
}

extension Viva.Callback: ProviderCallback, ReadableCallback {
    public static var provider: PaymentProvider { .viva }
    public static var referenceField: String { "clientTransactionId" }
    public var outcome: ChargeOutcome {
        if isUserCancel { return .cancelled }
        return status == "success" ? .approved : .failed
    }
    public var providerStatus: String { isUserCancel ? (action ?? status) : status }
    public var extraItems: [QueryItem] { [] }
    public var echoedReference: String? { reference }
}

extension PaymentCallback {
    /// The Viva.com Terminal answer, if Viva sent it.
    public var viva: Viva.Callback? { details(as: Viva.Callback.self) }
}

extension Viva.PaymentRequest {
    /// The request with `nonce` at the start of `clientTransactionId`, and the facts its
    /// answer is checked against.
    public func handoff(nonce: Nonce) -> HandoffRequest {
        let operation: HandoffOperation = switch action {
        case .sale: .charge
        case .cancel: .refund
        case .abort: .open
        }
        return HandoffRequest(
            provider: .viva, operation: operation, url: requestURL(nonce: nonce), amount: amount, currency: amount?.currency,
            extras: [], callbackURLs: [callbackURL], reference: reference
        )
    }
}

extension PaymentApp {
    /// Viva.com Terminal, answering on `callbackURL` (a URL such as `my-app://result`,
    /// without a query); `appID` is your app's id, such as its bundle id. The order's
    /// reference rides after the nonce in `clientTransactionId`; Viva returns nothing
    /// else, so an order with extras is refused.
    public static func viva(appID: String, callbackURL: String, screens: Viva.Screens = .init()) -> PaymentApp {
        PaymentApp(VivaOrder(appID: appID, callbackURL: callbackURL, screens: screens))
    }
}

private struct VivaOrder: OrderHandoff {
    var appID: String
    var callbackURL: String
    var screens: Viva.Screens
    var provider: PaymentProvider { .viva }

    func handoff(for order: ChargeOrder, nonce: Nonce) throws(ChargeKitError) -> HandoffRequest {
        guard order.extras.isEmpty else {
            throw .invalidField("extras", rule: "Viva.com Terminal returns only its own fields; put your reference in the order's reference")
        }
        let request = try Viva.PaymentRequest.sale(order.amount, appID: appID, callbackURL: callbackURL, reference: order.reference, screens: screens)
        return request.handoff(nonce: nonce)
    }
}

extension PaymentCoordinator {
    /// Submits a Viva.com Terminal request and waits for its answer (which commonly
    /// cold-launches the app: call ``pending()`` and ``handle(url:provider:)``
    /// at launch too).
    public func submit(_ request: Viva.PaymentRequest) async throws(ChargeKitError) -> PaymentResult {
        try await submit { nonce throws(ChargeKitError) in request.handoff(nonce: nonce) }
    }
}
