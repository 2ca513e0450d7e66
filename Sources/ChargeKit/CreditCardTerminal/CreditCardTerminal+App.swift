/// Credit Card Terminal as a payment app: its name, its callback's rules, its request
/// for the ledger and its ``PaymentApp``.
extension CreditCardTerminal: PaymentAppDefinition {
    typealias Callback = ChargeResponse

    static let identifier = "ccterminal"
    static let displayName = "Credit Card Terminal"
    /// `ifcc_redactedCardNumber` (`$ifcc_` in FileMaker's form), documented as `XXXXXXXXXXXX1111`.
    static let cardNumberFields = ["ifcc_redactedCardNumber", "$ifcc_redactedCardNumber"].map {
        CardNumberField(name: $0, mask: .lastFour(padding: "X"))
    }
    static let callbackRegistration = "the scheme of returnURL (e.g. com-innerfence-ChargeDemo)"
    static var reservedCallbackFields: Set<String> { [nonceField] }

    /// `ifcc_` fields other than the nonce (Credit Card Terminal passes an app's
    /// extras through, whatever their names).
    static func recognises(_ url: QueryURL) -> Bool {
        url.items.contains { $0.fileMakerName.name.hasPrefix(responsePrefix) && $0.name != nonceField }
    }

    static func check(_ callback: ChargeResponse, against charge: PendingCharge) throws(ChargeKitError) -> [VerificationFlag] {
        try callback.check(against: charge)
    }
}

extension PaymentProvider {
    /// Inner Fence Credit Card Terminal (`com-innerfence-ccterminal://`).
    public static let creditCardTerminal = CreditCardTerminal.provider
}

extension CreditCardTerminal.ChargeResponse: ProviderCallback, ReadableCallback {
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
    public var reportedAmount: Money? { amount }
}

extension PaymentCallback {
    /// The Credit Card Terminal response, if Credit Card Terminal sent it.
    public var creditCardTerminal: CreditCardTerminal.ChargeResponse? { details(as: CreditCardTerminal.ChargeResponse.self) }
}

extension CreditCardTerminal.ChargeRequest {
    /// The request with `nonce` on its return URL, and the facts its callback is checked against.
    public func handoff(nonce: Nonce) throws(ChargeKitError) -> HandoffRequest {
        guard let returnURL = fields.returnURL, !returnURL.isEmpty else { throw .missingField("returnURL") }
        var facts: [String: String] = [:]
        if fields.amountFixed { facts[CreditCardTerminal.Fact.amountFixed] = "1" }
        if let rate = fields.taxRate { facts[CreditCardTerminal.Fact.taxRate] = rate.description }
        if fields.fileMakerFormat { facts[CreditCardTerminal.Fact.fileMakerFormat] = "1" }
        return HandoffRequest(
            provider: .creditCardTerminal, url: try requestURL(nonce: nonce), amount: fields.amount,
            currency: fields.currency ?? fields.amount?.currency, extras: fields.extraParams, callbackURLs: [returnURL], appFacts: facts
        )
    }
}

extension CreditCardTerminal {
    /// The names of the facts a hand-off keeps for Credit Card Terminal's checks
    /// (``HandoffRequest/appFacts``).
    enum Fact {
        /// Present (`1`) when the amount may not be changed in the app.
        static let amountFixed = "amountFixed"
        /// The tax rate sent, as sent.
        static let taxRate = "taxRate"
        /// Present (`1`) when FileMaker names were asked.
        static let fileMakerFormat = "fileMakerFormat"
    }
}

extension PaymentApp {
    /// Credit Card Terminal, answering on `returnURL`. `template` supplies any other
    /// field (tax rate, customer, `fm`, ...); amount, description, invoice number,
    /// return URL and extras come from the order.
    public static func creditCardTerminal(returnURL: String, template: CreditCardTerminal.ChargeRequest.Fields = .init()) -> PaymentApp {
        PaymentApp(CreditCardTerminalOrder(returnURL: returnURL, template: template))
    }
}

private struct CreditCardTerminalOrder: OrderHandoff {
    var returnURL: String
    var template: CreditCardTerminal.ChargeRequest.Fields
    var provider: PaymentProvider { .creditCardTerminal }

    func handoff(for order: ChargeOrder, nonce: Nonce) throws(ChargeKitError) -> HandoffRequest {
        var fields = template
        fields.setReturnURL(returnURL, extraParams: order.extras)
        fields.amount = order.amount
        fields.currency = order.amount.currency
        fields.description = order.description ?? fields.description
        fields.invoiceNumber = order.reference ?? fields.invoiceNumber
        return try CreditCardTerminal.ChargeRequest(fields).handoff(nonce: nonce)
    }
}

extension PaymentCoordinator {
    /// Submits a Credit Card Terminal request (like `-[IFChargeRequest submit]`) and waits.
    public func submit(_ request: CreditCardTerminal.ChargeRequest) async throws(ChargeKitError) -> PaymentResult {
        try await submit { nonce throws(ChargeKitError) in try request.handoff(nonce: nonce) }
    }
}
