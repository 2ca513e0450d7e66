/// Square Point of Sale as a payment app: its name, its callback's rules, its request
/// for the ledger and its ``PaymentApp``.
extension Square: PaymentAppDefinition {
    static let identifier = "square"
    static let displayName = "Square Point of Sale"
    static let callbackRegistration = "the scheme of callbackURL (e.g. my-app), also registered with Square for your application ID"
    /// The nonce comes back at the start of `state`, inside `data`.
    static let nonceField = "state"
    static let reservedCallbackFields: Set<String> = []

    /// A `data` parameter whose JSON has a `status`.
    static func recognises(_ url: QueryURL) -> Bool {
        let data = url.items.filter { $0.name == "data" }
        return data.count == 1 && string(.status, ofData: data.first?.value) != nil
    }

    /// The nonce at the start of `state`: the answer is read whole (its JSON once) and
    /// kept for the ledger; only an answer that does not read is looked into again,
    /// for its nonce alone, so that its error names the charge's field.
    static func findNonce(in fields: FieldReader) -> NonceFinding {
        var whole = fields
        if let callback = try? Callback(fields: &whole) {
            return NonceFinding(items: callback.nonce.map { [QueryItem(nonceField, $0.value)] } ?? [], callback: PaymentCallback(callback))
        }
        let data = fields.indices.filter { fields.name($0, is: "data") }
        guard data.count == 1, let index = data.first, let state = string(.state, ofData: fields.value(index)),
              let nonce = Nonce.leading(state).nonce else { return NonceFinding(items: []) }
        return NonceFinding(items: [QueryItem(nonceField, nonce.value)])
    }

    /// Your own `state` must come back exactly as sent (Point of Sale returns it
    /// unchanged); the answer carries no amount or currency to compare.
    static func check(_ callback: Callback, against charge: PendingCharge) throws(ChargeKitError) -> [VerificationFlag] {
        guard callback.state == charge.request.reference else {
            throw .mismatch(field: "state", rule: "must come back exactly as sent")
        }
        return []
    }
}

extension PaymentProvider {
    /// Square Point of Sale (`square-commerce-v1://`).
    public static let square = Square.provider
}

extension Square.Callback: ProviderCallback, ReadableCallback {
    public static var provider: PaymentProvider { .square }
    public static var referenceField: String { "state" }
    /// `ok` is approved, `payment_canceled` cancelled, every other code failed.
    public var outcome: ChargeOutcome {
        guard status == .error else { return .approved }
        return errorCode == .paymentCanceled ? .cancelled : .failed
    }
    /// `ok`, or the error code as sent.
    public var providerStatus: String { status == .ok ? "ok" : errorCode?.rawValue ?? "error" }
    public var echoedReference: String? { state }
    public var message: String? { errorCode?.message }
}

extension PaymentCallback {
    /// The Square Point of Sale answer, if Point of Sale sent it.
    public var square: Square.Callback? { details(as: Square.Callback.self) }
}

extension Square.PaymentRequest {
    /// The request with `nonce` at the start of `state`, and the facts its callback is
    /// checked against.
    public func handoff(nonce: Nonce) -> HandoffRequest {
        HandoffRequest(
            provider: .square, url: requestURL(nonce: nonce), amount: amount, currency: amount.currency, extras: [],
            callbackURLs: [Square.addingMarker(to: callbackURL)], reference: state
        )
    }
}

extension PaymentApp {
    /// Square Point of Sale with your application ID, answering on `callbackURL`.
    /// The order's description is sent as `notes` and its reference as `state`; Point
    /// of Sale returns nothing else, so an order with extras is refused.
    public static func square(
        clientID: String, callbackURL: String, locationID: String? = nil, customerID: String? = nil,
        options: Square.Options = .init()
    ) -> PaymentApp {
        PaymentApp(SquareOrder(clientID: clientID, callbackURL: callbackURL, locationID: locationID, customerID: customerID, options: options))
    }
}

private struct SquareOrder: OrderHandoff {
    var clientID: String
    var callbackURL: String
    var locationID: String?
    var customerID: String?
    var options: Square.Options
    var provider: PaymentProvider { .square }

    func handoff(for order: ChargeOrder, nonce: Nonce) throws(ChargeKitError) -> HandoffRequest {
        guard order.extras.isEmpty else {
            throw .invalidField("extras", rule: "Square Point of Sale returns only its data; put your reference in the order's reference (state)")
        }
        let request = try Square.PaymentRequest(
            clientID: clientID, amount: order.amount, callbackURL: callbackURL, state: order.reference, locationID: locationID,
            notes: order.description, customerID: customerID, options: options
        )
        return request.handoff(nonce: nonce)
    }
}

extension PaymentCoordinator {
    /// Submits a Square Point of Sale request (like `-[SCCAPIConnection performRequest:error:]`) and waits.
    public func submit(_ request: Square.PaymentRequest) async throws(ChargeKitError) -> PaymentResult {
        try await submit { nonce throws(ChargeKitError) in request.handoff(nonce: nonce) }
    }
}
