import ChargeKit

/// Plays the SumUp app: validates `sumupmerchant://pay/1.0` as the app would and
/// answers on `callbacksuccess` / `callbackfail` with `smp-status`, `smp-tx-code`,
/// `foreign-tx-id` and `smp-message`.
///
/// A request with a missing mandatory parameter or a currency other than the logged-in
/// merchant's is answered with `smp-status=failed`; an app that is not ready answers
/// `invalidstate`. SumUp has no "cancelled" status: a cancelled payment is `failed`.
public struct SumUpSimulator: Sendable {
    /// The currency of the merchant logged into the app.
    public var merchantCurrency: String
    /// Whether the app is ready to take payments (logged in, reader paired).
    public var isReady: Bool

    /// Makes a simulator.
    public init(merchantCurrency: String = "EUR", isReady: Bool = true) {
        self.merchantCurrency = merchantCurrency
        self.isReady = isReady
    }

    /// Answers a request with the callback URL the app would open.
    /// - Throws: when the request cannot be answered at all (not a SumUp URL, or no callback URL).
    public func respond(to requestURL: String, outcome: ChargeOutcome, transactionCode: String? = nil) throws(ChargeKitError) -> String {
        let (path, items) = try readRequest(requestURL, base: "sumupmerchant://pay/")
        guard path == "1.0" else { throw .invalidURL("url", rule: "version must be 1.0") }
        let success = items.value("callbacksuccess")
        let failure = items.value("callbackfail")
        for (name, url) in [("callbacksuccess", success), ("callbackfail", failure)] {
            if let url, !url.isEmpty, try QueryURL(parsing: url).fragment != nil {
                throw .invalidURL(name, rule: "must not have a #fragment")
            }
        }
        var answer: [QueryItem] = []
        let foreignID = items.value("foreign-tx-id")
        let validForeignID = foreignID.flatMap { id in (try? SumUp.validateForeignTransactionID(id)) == nil ? nil : id }
        let status: SumUp.Callback.Status
        var message: String?
        if let missing = ["amount", "currency", "affiliate-key"].first(where: { (items.value($0) ?? "").isEmpty }) {
            status = .failed
            message = "Missing parameter: \(missing)"
        } else if !isReady {
            status = .invalidState
            message = "Please open the SumUp app and log in."
        } else if items.value("currency") != merchantCurrency {
            status = .failed
            message = "The currency does not match your account's currency \(merchantCurrency)."
        } else if let amount = items.value("amount"), let currency = try? Currency(code: merchantCurrency),
                  (try? Money(parsing: amount, currency: currency)) == nil {
            status = .failed
            message = "Invalid amount."
        } else if foreignID != nil, validForeignID == nil {
            status = .failed
            message = "Invalid foreign transaction id."
        } else {
            switch outcome {
            case .approved: status = .success
            case .failed: status = .invalidState
            case .declined, .cancelled: status = .failed
            }
            message = status == .success ? "Transaction successful." : (outcome == .cancelled ? "Transaction cancelled." : "Transaction failed.")
        }
        answer.append(QueryItem("smp-status", status.rawValue))
        if status == .success { answer.append(QueryItem("smp-tx-code", transactionCode ?? "TX" + TestCard.randomID(digits: 8))) }
        if let validForeignID { answer.append(QueryItem("foreign-tx-id", validForeignID)) }
        if let message { answer.append(QueryItem("smp-message", message)) }
        guard let target = status == .success ? success : failure, !target.isEmpty else {
            throw .missingField(status == .success ? "callbacksuccess" : "callbackfail")
        }
        return QueryURL.appending(answer, to: target)
    }
}
