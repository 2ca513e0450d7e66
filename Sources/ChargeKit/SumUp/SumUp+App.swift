/// SumUp as a payment app: its name, its callback's rules, its request for the ledger
/// and its ``PaymentApp``.
extension SumUp: PaymentAppDefinition {

    static let identifier = "sumup"
    static let displayName = "SumUp"
    static let callbackRegistration = "the scheme of callbacksuccess / callbackfail (e.g. samplepaymentapp)"
    static let reservedCallbackFields: Set<String> = ["smp-status", "smp-tx-code", "smp-message", "foreign-tx-id"]
    static let reservedCallbackPrefixes = ["smp-"]

    static func recognises(_ url: QueryURL) -> Bool { url.items.contains { $0.name == "smp-status" } }
}

extension PaymentProvider {
    /// SumUp (`sumupmerchant://`).
    public static let sumUp = SumUp.provider
}

extension SumUp.Callback: ProviderCallback, ReadableCallback {
    public static var provider: PaymentProvider { .sumUp }
    public static var referenceField: String { "foreign-tx-id" }
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

extension PaymentCallback {
    /// The SumUp callback, if SumUp sent it.
    public var sumUp: SumUp.Callback? { details(as: SumUp.Callback.self) }
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

extension PaymentApp {
    /// SumUp, answering on `callbackURL` for both success and failure; the receipt goes
    /// to `receiptEmail` or `receiptMobilePhone` when given (`receipt-email`,
    /// `receipt-mobilephone`), and `skipSuccessScreen` returns at once after a payment
    /// (`skip-screen-success`).
    public static func sumUp(
        affiliateKey: String, callbackURL: String, receiptEmail: String? = nil, receiptMobilePhone: String? = nil,
        skipSuccessScreen: Bool = false
    ) -> PaymentApp {
        PaymentApp(SumUpOrder(affiliateKey: affiliateKey, callbackURL: callbackURL, receiptEmail: receiptEmail,
                              receiptMobilePhone: receiptMobilePhone, skipSuccessScreen: skipSuccessScreen))
    }
}

private struct SumUpOrder: OrderHandoff {
    var affiliateKey: String
    var callbackURL: String
    var receiptEmail: String?
    var receiptMobilePhone: String?
    var skipSuccessScreen: Bool
    var provider: PaymentProvider { .sumUp }

    func handoff(for order: ChargeOrder, nonce: Nonce) throws(ChargeKitError) -> HandoffRequest {
        let request = try SumUp.PaymentRequest(
            amount: order.amount, title: order.description, affiliateKey: affiliateKey, callbackSuccess: callbackURL,
            callbackFailure: callbackURL, receiptEmail: receiptEmail, receiptMobilePhone: receiptMobilePhone,
            foreignTransactionID: order.reference, skipSuccessScreen: skipSuccessScreen
        )
        return try request.handoff(nonce: nonce, extras: order.extras)
    }
}

extension PaymentCoordinator {
    /// Submits a SumUp request (like `-[SMPPaymentRequest openSumUpMerchantApp]`) and waits.
    public func submit(_ request: SumUp.PaymentRequest, extras: [QueryItem] = []) async throws(ChargeKitError) -> PaymentResult {
        try await submit { nonce throws(ChargeKitError) in try request.handoff(nonce: nonce, extras: extras) }
    }
}
