@_spi(Tools) import ChargeKit

/// Plays the Zettle app for both URL scheme versions.
///
/// Version 1.0 (`izettle://x-callback-url/payment/1.0`): a missing or empty mandatory
/// parameter answers `MissingParameter` on `x-failure`, a currency other than the
/// account's `InvalidCurrency`, a logged-out app `InvalidState`; then the outcome:
/// approved on `x-success`, cancelled `CancelledByUser`, anything else `TechnicalError`.
/// `reference` is echoed on both. `price` may be a whole number (the vendor's samples
/// send `price=42`), and callback URLs may have only `=` and `&` escaped.
///
/// `izettle://api/`: `payment/charge`, `payment/refund`, `payment/query` (answers
/// with a payment it took earlier) and `open`; success carries the payment info
/// (with `authorizationCode`), failure a structured `errorMessage`,
/// `domain(code) - message`, as the 3.0 app writes it.
public struct ZettleSimulator: Sendable {
    /// The account's currency.
    public var accountCurrency: String
    /// Whether a user is logged in.
    public var isLoggedIn: Bool
    /// The card used for payments.
    public var testCardNumber: String
    /// Payments taken through `payment/charge`, by reference, for `payment/query` and refunds.
    public private(set) var payments: [String: [QueryItem]] = [:]

    /// Makes a simulator.
    public init(accountCurrency: String = "SEK", isLoggedIn: Bool = true, testCardNumber: String = "4111111111111111") {
        self.accountCurrency = accountCurrency
        self.isLoggedIn = isLoggedIn
        self.testCardNumber = testCardNumber
    }

    /// Answers a request with the callback URL the app would open.
    public mutating func respond(to requestURL: String, outcome: ChargeOutcome) throws(ChargeKitError) -> String {
        let request = try AppURL(requestURL)
        let base = request.base
        guard base.lowercased().hasPrefix("izettle://") else { throw .invalidURL("url", rule: "must start with izettle://") }
        let path = String(base.dropFirst("izettle://".count))
        switch path {
        case "x-callback-url/payment/1.0": return try respondVersion1(request, outcome: outcome)
        case "api/payment/charge", "api/payment/refund", "api/payment/query", "api/open":
            return try respondAPI(String(path.dropFirst(4)), request, outcome: outcome)
        default: throw .invalidURL("url", rule: "unknown Zettle operation '\(path)'")
        }
    }

    /// Version 1.0 as the vendor's sample apps send it: `price` a whole number or a
    /// decimal, callback URLs escaped fully or with only `=` and `&` escaped.
    private func respondVersion1(_ request: AppURL, outcome: ChargeOutcome) throws(ChargeKitError) -> String {
        guard let failure = request.nonEmpty("x-failure") else { throw .missingField("x-failure") }
        let success = request.nonEmpty("x-success") ?? ""
        var answer: [(String, String)] = []
        if let reference = request.nonEmpty("reference") { answer.append(("reference", reference)) }
        let mandatory = ["x-source", "x-success", "x-failure", "api-key", "price", "currency", "title"]
        let error: String?
        if mandatory.contains(where: { request.nonEmpty($0) == nil }) {
            error = "MissingParameter"
        } else if !isLoggedIn {
            error = "InvalidState"
        } else if request.value("currency") != accountCurrency {
            error = "InvalidCurrency"
        } else if let price = request.value("price"),
                  AppAmount.parse(price, maximumFraction: AppAmount.minorUnits(accountCurrency)) == nil {
            error = "MissingParameter"
        } else {
            switch outcome {
            case .approved: error = nil
            case .cancelled: error = "CancelledByUser"
            case .declined, .failed: error = "TechnicalError"
            }
        }
        guard let error else { return AppURL.answer(success, answer) }
        return AppURL.answer(failure, answer + [("errorCode", error)])
    }

    /// The 3.0 operations, as the app and the vendor's wrapper (`urlWrapper=true`, its
    /// `callback-url/success?operationUUID=…` URLs) send them; `currency` is optional.
    private mutating func respondAPI(_ operation: String, _ request: AppURL, outcome: ChargeOutcome) throws(ChargeKitError) -> String {
        guard let failure = request.nonEmpty("failureURL") else { throw .missingField("failureURL") }
        let success = request.nonEmpty("successURL") ?? ""
        let reference = request.value("reference")
        func fail(_ domain: String, _ code: Int, _ message: String) -> String {
            AppURL.answer(failure, (reference.map { [("reference", $0)] } ?? [])
                + [("errorMessage", "\(domain)(\(code)) - \(message)")])
        }
        guard !success.isEmpty else { return fail("com.izettle.api.error", 1, "Missing parameter: successURL") }
        guard isLoggedIn else { return fail("com.izettle.session.error", 2, "No user is logged in.") }
        switch operation {
        case "open":
            return success
        case "payment/query":
            guard let reference, let payment = payments[reference] else {
                return fail("com.izettle.payment.error", 404, "No payment with that reference.")
            }
            return AppURL.answer(success, [("reference", reference)] + payment.map { ($0.name, $0.value) })
        case "payment/refund":
            guard let original = request.value("originalReference"), payments[original] != nil else {
                return fail("com.izettle.payment.error", 404, "No payment with that originalReference.")
            }
            guard let reference, !reference.isEmpty else { return fail("com.izettle.api.error", 1, "Missing parameter: reference") }
            guard outcome == .approved else { return fail("com.izettle.payment.error", 3, "Refund failed.") }
            return AppURL.answer(success, [("reference", reference)] + paymentInfo(reference).map { ($0.name, $0.value) })
        default:
            guard let reference, !reference.isEmpty, reference.count <= 128 else {
                return fail("com.izettle.api.error", 1, "Missing or invalid parameter: reference")
            }
            guard let amount = request.nonEmpty("amount") else { return fail("com.izettle.api.error", 1, "Missing parameter: amount") }
            let currency = request.nonEmpty("currency") ?? accountCurrency
            guard currency == accountCurrency,
                  AppAmount.parse(amount, maximumFraction: AppAmount.minorUnits(currency)) != nil
            else { return fail("com.izettle.payment.error", 2, "Invalid currency or amount.") }
            switch outcome {
            case .approved:
                let info = paymentInfo(reference)
                payments[reference] = info
                return AppURL.answer(success, [("reference", reference)] + info.map { ($0.name, $0.value) })
            case .cancelled: return fail("com.izettle.payment.error", 1, "Payment cancelled by user.")
            case .declined: return fail("com.izettle.payment.error", 5, "Card declined.")
            case .failed: return fail("com.izettle.payment.error", 0, "Technical error.")
            }
        }
    }

    private func paymentInfo(_ reference: String) -> [QueryItem] {
        [
            QueryItem("referenceNumber", TestCard.randomID(digits: 10)),
            QueryItem("entryMode", "EMV"),
            QueryItem("obfuscatedPan", TestCard.obfuscated(testCardNumber)),
            QueryItem("panHash", "SIM" + String(UInt64(bitPattern: Int64(testCardNumber.hashValue)) % 1_000_000_000)),
            QueryItem("cardBrand", TestCard.cardType(of: testCardNumber).rawValue.uppercased()),
            QueryItem("AID", "A0000000031010"),
            QueryItem("TSI", "F800"),
            QueryItem("TVR", "0000008000"),
            QueryItem("applicationName", "VISA CREDIT"),
            QueryItem("authorizationCode", TestCard.randomID(digits: 6)),
        ]
    }
}

extension SimulatedApps {
    /// The Zettle simulator.
    public var zettle: ZettleSimulator {
        get { self[ZettleSimulator.self] }
        set { self[ZettleSimulator.self] = newValue }
    }
}

extension ZettleSimulator: AppSimulator {
    public static var provider: PaymentProvider { .zettle }
    public static let schemes = [Zettle.scheme]

    public init() { self.init(accountCurrency: "SEK") }

    /// Swedish kronor: the simulator as installed plays a Swedish account ("SEK" is in
    /// ChargeKit's table, so the euro after it is never reached).
    public static var sampleCurrency: Currency { (try? Currency(code: "SEK")) ?? .eur }

    public mutating func respond(to requestURL: String, outcome: ChargeOutcome, options: AnswerOptions) throws(ChargeKitError) -> String {
        try respond(to: requestURL, outcome: outcome)
    }

    public mutating func setUp(_ setup: AppSetup) {
        if let ready = setup.isReady { isLoggedIn = ready }
        if let currency = setup.accountCurrency { accountCurrency = currency }
    }

    public static func summary(of requestURL: String) throws(ChargeKitError) -> RequestSummary {
        let request = try AppURL(requestURL)
        return RequestSummary(provider: provider, amount: request.nonEmpty("price") ?? request.nonEmpty("amount"),
                              currency: request.nonEmpty("currency"), description: request.nonEmpty("title"),
                              reference: request.nonEmpty("reference"))
    }

    public static func sampleApp(callbackURL: String) -> PaymentApp {
        .zettle(apiKey: "SIMULATED", source: "ChargeKit", callbackURL: callbackURL)
    }

    /// Zettle's two protocols: the 1.0 x-callback-url payment and the `api/` operations.
    public static func sampleApps(callbackURL: String) -> [PaymentApp] {
        [sampleApp(callbackURL: callbackURL), .zettleAPI(callbackURL: callbackURL)]
    }

    /// On the `api/` operations a cancellation is a structured error like any other
    /// (Zettle documents no cancellation code there), so it reads as failed.
    public static func outcome(of scenario: Scenario, answering requestURL: String) -> ChargeOutcome? {
        let isAPI = requestURL.lowercased().hasPrefix("izettle://api/")
        return isAPI && scenario.outcome == .cancelled ? .failed : scenario.outcome
    }

    /// Zettle's outcomes, as ``Scenario/catalog`` lists them.
    public static let scenarios: [Scenario] = [
        Scenario(.zettle, "approved", .approved, .answer(.approved), "The payment succeeds, with the card's payment info."),
        Scenario(.zettle, "cancelled", .cancelled, .answer(.cancelled), "The customer cancels: errorCode CancelledByUser. (On the api/ operations the app answers a structured error, which reads as failed: Zettle documents no cancellation code there.)"),
        Scenario(.zettle, "technical-error", .failed, .answer(.failed), "The payment fails: errorCode TechnicalError (a technical error on the api/ operations)."),
        Scenario(.zettle, "not-logged-in", .failed, .answer(.approved, .notReady), "No one is logged in to the app: errorCode InvalidState."),
        Scenario(.zettle, "other-currency", .failed, .answerInOtherCurrency(.approved), "The account is in another currency: errorCode InvalidCurrency."),
    ]
}
