@_spi(Tools) import ChargeKit

/// Plays the SumUp app: reads `sumupmerchant://pay/1.0` as the app does and answers
/// on the callback URL with what the real app sends: `smp-status`, `smp-tx-code`,
/// `smp-receipt-sent`, `foreign-tx-id` (echoed when sent), `smp-message`, and on
/// failure `smp-failure-cause`.
///
/// Both dialects of the scheme are read: the iOS one (`affiliate-key`, `amount`,
/// `callbacksuccess`/`callbackfail`) and the Android/web one (`app-id`, `total` or its
/// deprecated twin `amount`, one `callback`), also mixed in one URL. The test scheme
/// `sumupmerchanttest://` is answered the same way.
///
/// A request with a missing mandatory parameter, an invalid amount or foreign id is
/// answered `failed` with `smp-failure-cause=invalid-param`; a currency other than the
/// logged-in merchant's `failed` with `transaction-failed`; an app that is not ready
/// `invalidstate`. SumUp has no "cancelled" status: a cancelled payment is `failed`.
/// The answer goes into the callback URL's query, before any `#fragment`.
public struct SumUpSimulator: Sendable {
    /// The currency of the merchant logged into the app.
    public var merchantCurrency: String
    /// Whether the app is ready to take payments (logged in, reader paired).
    public var isReady: Bool
    /// Whether the customer asked for a receipt (`smp-receipt-sent`).
    public var sendsReceipt: Bool

    /// Makes a simulator.
    public init(merchantCurrency: String = "EUR", isReady: Bool = true, sendsReceipt: Bool = false) {
        self.merchantCurrency = merchantCurrency
        self.isReady = isReady
        self.sendsReceipt = sendsReceipt
    }

    /// Answers a request with the callback URL the app would open.
    /// - Throws: when the request cannot be answered at all (not a SumUp URL, or no callback URL).
    public func respond(to requestURL: String, outcome: ChargeOutcome, transactionCode: String? = nil) throws(ChargeKitError) -> String {
        let request = try AppURL(requestURL)
        let base = request.base.lowercased()
        guard base == "sumupmerchant://pay/1.0" || base == "sumupmerchanttest://pay/1.0" else {
            throw .invalidURL("url", rule: "must be sumupmerchant://pay/1.0")
        }
        let single = request.nonEmpty("callback")
        let success = request.nonEmpty("callbacksuccess") ?? single
        let failure = request.nonEmpty("callbackfail") ?? single

        let amount = request.nonEmpty("total") ?? request.nonEmpty("amount")
        let foreignID = request.value("foreign-tx-id")
        let foreignIDIsValid = foreignID.map { id in
            !id.isEmpty && id.utf8.count <= 128 && id.utf8.allSatisfy { (0x20...0x7E).contains($0) }
        } ?? true
        var status: String
        var message: String
        var cause: String?
        var cardWasCharged = false
        if amount == nil || request.nonEmpty("currency") == nil
            || (request.nonEmpty("affiliate-key") == nil && request.nonEmpty("app-id") == nil) {
            let missing = amount == nil ? "amount" : request.nonEmpty("currency") == nil ? "currency" : "affiliate-key"
            (status, message, cause) = ("failed", "Missing parameter: \(missing)", "invalid-param")
        } else if !isReady {
            (status, message, cause) = ("invalidstate", "Please open the SumUp app and log in.", nil)
        } else if request.value("currency") != merchantCurrency {
            (status, message, cause) = ("failed", "The currency does not match your account's currency \(merchantCurrency).",
                                        "transaction-failed")
        } else if let amount, AppAmount.parse(amount, maximumFraction: AppAmount.minorUnits(merchantCurrency)) == nil {
            (status, message, cause) = ("failed", "Invalid amount.", "invalid-param")
        } else if !foreignIDIsValid {
            (status, message, cause) = ("failed", "Invalid foreign transaction id.", "invalid-param")
        } else {
            cardWasCharged = outcome == .approved || outcome == .declined
            switch outcome {
            case .approved: (status, message, cause) = ("success", "Transaction successful.", nil)
            case .failed: (status, message, cause) = ("invalidstate", "Transaction failed.", nil)
            case .declined: (status, message, cause) = ("failed", "Transaction failed.", "transaction-failed")
            case .cancelled: (status, message, cause) = ("failed", "Transaction cancelled.", "transaction-failed")
            }
        }
        var answer: [(String, String)] = [("smp-status", status)]
        // A declined card still has a transaction code: a code never means success.
        if cardWasCharged {
            answer.append(("smp-tx-code", transactionCode ?? "TX" + TestCard.randomID(digits: 8)))
        }
        if cardWasCharged { answer.append(("smp-receipt-sent", sendsReceipt ? "true" : "false")) }
        if let foreignID, foreignIDIsValid { answer.append(("foreign-tx-id", foreignID)) }
        answer.append(("smp-message", message))
        if let cause { answer.append(("smp-failure-cause", cause)) }
        guard let target = status == "success" ? success : failure else {
            throw .missingField(status == "success" ? "callbacksuccess" : "callbackfail")
        }
        return AppURL.answer(target, answer)
    }
}

extension SimulatedApps {
    /// The SumUp simulator.
    public var sumUp: SumUpSimulator {
        get { self[SumUpSimulator.self] }
        set { self[SumUpSimulator.self] = newValue }
    }
}

extension SumUpSimulator: AppSimulator {
    public static var provider: PaymentProvider { .sumUp }
    public static let schemes = [SumUp.scheme, "sumupmerchanttest"]

    public init() { self.init(merchantCurrency: "EUR") }

    /// Euros: the simulator as installed plays a euro merchant account.
    public static var sampleCurrency: Currency { .eur }

    public func respond(to requestURL: String, outcome: ChargeOutcome, options: AnswerOptions) throws(ChargeKitError) -> String {
        try respond(to: requestURL, outcome: outcome, transactionCode: options.transactionID)
    }

    public mutating func setUp(_ setup: AppSetup) {
        if let ready = setup.isReady { isReady = ready }
        if let currency = setup.accountCurrency { merchantCurrency = currency }
    }

    public static func summary(of requestURL: String) throws(ChargeKitError) -> RequestSummary {
        let request = try AppURL(requestURL)
        return RequestSummary(provider: provider, amount: request.nonEmpty("total") ?? request.nonEmpty("amount"),
                              currency: request.nonEmpty("currency"), description: request.nonEmpty("title"),
                              reference: request.nonEmpty("foreign-tx-id"))
    }

    public static func sampleApp(callbackURL: String) -> PaymentApp { .sumUp(affiliateKey: "SIMULATED", callbackURL: callbackURL) }

    /// SumUp's outcomes by `smp-status` (success, failed, invalidstate), as
    /// ``Scenario/catalog`` lists them.
    public static let scenarios: [Scenario] = [
        Scenario(.sumUp, "approved", .approved, .answer(.approved), "The payment succeeds: smp-status success, with a transaction code."),
        Scenario(.sumUp, "declined", .declined, .answer(.declined), "The card is declined: smp-status failed, smp-failure-cause transaction-failed, with a transaction code."),
        Scenario(.sumUp, "other-currency", .declined, .answerInOtherCurrency(.approved), "The merchant's account is in another currency: smp-status failed, transaction-failed."),
        Scenario(.sumUp, "cancelled", .declined, .answer(.cancelled), "The customer cancels: SumUp has no cancelled status, so smp-status failed (transaction-failed), without a transaction code."),
        Scenario(.sumUp, "not-ready", .failed, .answer(.approved, .notReady), "The app is not logged in or has no reader: smp-status invalidstate."),
    ]
}
