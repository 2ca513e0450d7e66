import ChargeKit

/// Plays the Zettle app for both URL scheme versions.
///
/// Version 1.0 (`izettle://x-callback-url/payment/1.0`): a missing or empty mandatory
/// parameter answers `MissingParameter` on `x-failure`, a currency other than the
/// account's `InvalidCurrency`, a logged-out app `InvalidState`; then the outcome:
/// approved on `x-success`, cancelled `CancelledByUser`, anything else `TechnicalError`.
/// `reference` is echoed on both.
///
/// `izettle://api/`: `payment/charge`, `payment/refund`, `payment/query` (answers
/// with a payment it took earlier) and `open`; success carries the payment info,
/// failure an `errorMessage`.
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
        let (path, items) = try readRequest(requestURL, base: "izettle://")
        switch path {
        case "x-callback-url/payment/1.0": return try respondVersion1(items, outcome: outcome)
        case "api/payment/charge", "api/payment/refund", "api/payment/query", "api/open":
            return try respondAPI(String(path.dropFirst(4)), items, outcome: outcome)
        default: throw .invalidURL("url", rule: "unknown Zettle operation '\(path)'")
        }
    }

    private func respondVersion1(_ items: [QueryItem], outcome: ChargeOutcome) throws(ChargeKitError) -> String {
        let success = items.value("x-success") ?? ""
        let failure = items.value("x-failure") ?? ""
        guard !failure.isEmpty else { throw .missingField("x-failure") }
        var answer: [QueryItem] = []
        if let reference = items.value("reference"), !reference.isEmpty { answer.append(QueryItem("reference", reference)) }
        let mandatory = ["x-source", "x-success", "x-failure", "api-key", "price", "currency", "title"]
        let error: Zettle.ErrorCode?
        if mandatory.contains(where: { (items.value($0) ?? "").isEmpty }) {
            error = .missingParameter
        } else if !isLoggedIn {
            error = .invalidState
        } else if items.value("currency") != accountCurrency {
            error = .invalidCurrency
        } else if let price = items.value("price"), let currency = try? Currency(code: accountCurrency),
                  (try? Money(parsing: price, currency: currency)) == nil {
            error = .missingParameter
        } else {
            switch outcome {
            case .approved: error = nil
            case .cancelled: error = .cancelledByUser
            case .declined, .failed: error = .technicalError
            }
        }
        guard let error else { return QueryURL.appending(answer, to: success) }
        return QueryURL.appending(answer + [QueryItem("errorCode", error.wireValue)], to: failure)
    }

    private mutating func respondAPI(_ operation: String, _ items: [QueryItem], outcome: ChargeOutcome) throws(ChargeKitError) -> String {
        guard let failure = items.value("failureURL"), !failure.isEmpty else { throw .missingField("failureURL") }
        let success = items.value("successURL") ?? ""
        let reference = items.value("reference")
        func fail(_ message: String) -> String {
            QueryURL.appending((reference.map { [QueryItem("reference", $0)] } ?? []) + [QueryItem("errorMessage", message)], to: failure)
        }
        guard !success.isEmpty else { return fail("Missing parameter: successURL") }
        guard isLoggedIn else { return fail("No user is logged in.") }
        switch operation {
        case "open":
            return QueryURL.appending([], to: success)
        case "payment/query":
            guard let reference, let payment = payments[reference] else { return fail("No payment with that reference.") }
            return QueryURL.appending([QueryItem("reference", reference)] + payment, to: success)
        case "payment/refund":
            guard let original = items.value("originalReference"), payments[original] != nil else {
                return fail("No payment with that originalReference.")
            }
            guard let reference, !reference.isEmpty else { return fail("Missing parameter: reference") }
            guard outcome == .approved else { return fail("Refund failed.") }
            return QueryURL.appending([QueryItem("reference", reference)] + paymentInfo(reference), to: success)
        default:
            guard let reference, !reference.isEmpty, reference.count <= Zettle.maximumReferenceLength else {
                return fail("Missing or invalid parameter: reference")
            }
            guard let amount = items.value("amount"), let currency = items.value("currency") else {
                return fail("Missing parameter: amount")
            }
            guard currency == accountCurrency, let code = try? Currency(code: currency),
                  (try? Money(parsing: amount, currency: code)) != nil
            else { return fail("Invalid currency or amount.") }
            switch outcome {
            case .approved:
                let info = paymentInfo(reference)
                payments[reference] = info
                return QueryURL.appending([QueryItem("reference", reference)] + info, to: success)
            case .cancelled: return fail("Payment cancelled by user.")
            case .declined: return fail("Card declined.")
            case .failed: return fail("Technical error.")
            }
        }
    }

    private func paymentInfo(_ reference: String) -> [QueryItem] {
        [
            QueryItem("referenceNumber", TestCard.randomID(digits: 10)),
            QueryItem("entryMode", "EMV"),
            QueryItem("obfuscatedPan", TestCard.obfuscated(testCardNumber)),
            QueryItem("panHash", "SIM" + String(UInt64(bitPattern: Int64(testCardNumber.hashValue)) % 1_000_000_000)),
            QueryItem("cardBrand", TestCard.cardType(of: testCardNumber).wireValue.uppercased()),
            QueryItem("AID", "A0000000031010"),
            QueryItem("TSI", "F800"),
            QueryItem("TVR", "0000008000"),
            QueryItem("applicationName", "VISA CREDIT"),
        ]
    }
}
