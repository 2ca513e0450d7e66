@_spi(Tools) import ChargeKit
import Foundation

/// Plays Square Point of Sale: reads `square-commerce-v1://payment/create?data=…` as
/// Point of Sale does and opens the request's `callback_url` with a `data` JSON of
/// `status`, `transaction_id` and `client_transaction_id`, or `error_code`, and
/// `state` returned unchanged.
///
/// It refuses what Point of Sale refuses, each with Square's error code:
/// `unsupported_api_version` for a version it does not know, `invalid_version_number`
/// for one that is not a number, `data_invalid` for a payload without a client ID or
/// a readable amount, `currency_code_missing`, `unsupported_currency_code`,
/// `currency_code_mismatch` (not the seller's), `amount_invalid_format`,
/// `amount_too_small` (below one major unit), `amount_too_large`,
/// `invalid_tender_type`, `location_id_mismatch`, and `not_logged_in` when
/// ``isLoggedIn`` is false. A `data` that is not a JSON object, or one without a usable
/// `callback_url`, cannot be answered at all: Point of Sale shows its own error, and
/// the simulator throws.
///
/// Outcomes: approved is `ok`; cancelled is `payment_canceled`; declined is also
/// `payment_canceled` (Point of Sale has no decline over the API: the seller tries
/// another card or cancels); failed is ``failureCode``.
public struct SquareSimulator: Sendable {
    /// The currency of the seller logged in.
    public var sellerCurrency: String
    /// Whether a seller is logged in.
    public var isLoggedIn: Bool
    /// The seller's location; a request naming another is refused.
    public var locationID: String?
    /// The code a failed payment answers with.
    public var failureCode: Square.ErrorCode

    /// The largest amount Point of Sale takes, in minor units.
    public static let maximumAmount: Int64 = 99_999_999

    /// Makes a simulator.
    public init(sellerCurrency: String = "USD", isLoggedIn: Bool = true, locationID: String? = nil,
                failureCode: Square.ErrorCode = .couldNotPerform) {
        self.sellerCurrency = sellerCurrency
        self.isLoggedIn = isLoggedIn
        self.locationID = locationID
        self.failureCode = failureCode
    }

    /// Answers a request with the callback URL Point of Sale would open.
    /// - Throws: when the request cannot be answered at all (not a Point of Sale URL,
    ///   `data` that is not a JSON object, no usable `callback_url`).
    public func respond(to requestURL: String, outcome: ChargeOutcome, transactionID: String? = nil) throws(ChargeKitError) -> String {
        let request = try AppURL(requestURL)
        guard request.base.lowercased() == Square.baseURL else {
            throw .invalidURL("url", rule: "must be \(Square.baseURL)")
        }
        guard let text = request.value("data"), let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)),
              let data = object as? [String: Any] else {
            throw .invalidField("data", rule: "is not a JSON object; Point of Sale shows data_invalid and cannot call back")
        }
        guard let callback = data["callback_url"] as? String, let scheme = callback.split(separator: ":").first,
              FieldRules.isScheme(scheme), !callback.contains("?") else {
            throw .invalidField("callback_url", rule: "is missing or not a URL; Point of Sale cannot call back")
        }
        var answer: [String: Any] = [:]
        if let state = data["state"] as? String { answer["state"] = state }
        if let code = refusal(of: data) {
            answer["status"] = "error"
            answer["error_code"] = code.rawValue
        } else {
            switch outcome {
            case .approved:
                answer["status"] = "ok"
                answer["transaction_id"] = transactionID ?? TestCard.randomID(digits: 10) + "SIM"
                answer["client_transaction_id"] = UUID().uuidString
            case .cancelled, .declined:
                answer["status"] = "error"
                answer["error_code"] = Square.ErrorCode.paymentCanceled.rawValue
            case .failed:
                answer["status"] = "error"
                answer["error_code"] = failureCode.rawValue
            }
        }
        let json = (try? JSONSerialization.data(withJSONObject: answer, options: [.sortedKeys])).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return AppURL.answer(callback, [("data", json)])
    }

    /// The error Point of Sale answers a request with before taking any payment, if any.
    func refusal(of data: [String: Any]) -> Square.ErrorCode? {
        guard let version = data["version"] as? String,
              version.split(separator: ".", omittingEmptySubsequences: false).allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isASCIIDigitCharacter) })
        else { return .invalidVersionNumber }
        guard Square.knownAPIVersions.contains(version) else { return .unsupportedAPIVersion }
        guard let client = data["client_id"] as? String, !client.isEmpty, let money = data["amount_money"] as? [String: Any] else {
            return .dataInvalid
        }
        guard isLoggedIn else { return .notLoggedIn }
        if let wanted = data["location_id"] as? String, let locationID, wanted != locationID { return .locationIDMismatch }
        guard let currency = money["currency_code"] as? String, !currency.isEmpty else { return .currencyCodeMissing }
        guard currency.count == 3, currency.allSatisfy({ $0.isASCII && $0.isUppercase }) else { return .unsupportedCurrencyCode }
        guard currency == sellerCurrency else { return .currencyCodeMismatch }
        guard let number = money["amount"] as? NSNumber, isNumber(number),
              let amount = Int64(exactly: number.doubleValue), Double(amount) == number.doubleValue else { return .amountInvalidFormat }
        var minimum: Int64 = 1
        for _ in 0..<AppAmount.minorUnits(currency) { minimum *= 10 }
        guard amount >= minimum else { return .amountTooSmall }
        guard amount <= Self.maximumAmount else { return .amountTooLarge }
        if let options = data["options"] as? [String: Any], let tenders = options["supported_tender_types"] {
            guard let names = tenders as? [String], names.allSatisfy({ Square.TenderType(rawValue: $0) != nil }) else {
                return .invalidTenderType
            }
        }
        return nil
    }

    /// Whether a JSON number is a number and not a boolean (Foundation reads both as `NSNumber`).
    private func isNumber(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) != "c"
    }
}

extension SimulatedApps {
    /// The Square Point of Sale simulator.
    public var square: SquareSimulator {
        get { self[SquareSimulator.self] }
        set { self[SquareSimulator.self] = newValue }
    }
}

extension SquareSimulator: AppSimulator {
    public static var provider: PaymentProvider { .square }
    public static let schemes = [Square.scheme]

    public init() { self.init(sellerCurrency: "USD") }

    public func respond(to requestURL: String, outcome: ChargeOutcome, options: AnswerOptions) throws(ChargeKitError) -> String {
        try respond(to: requestURL, outcome: outcome, transactionID: options.transactionID)
    }

    public mutating func setUp(_ setup: AppSetup) {
        if let ready = setup.isReady { isLoggedIn = ready }
        if let currency = setup.accountCurrency { sellerCurrency = currency }
        if let code = setup.failureCode { failureCode = Square.ErrorCode(rawValue: code) }
    }

    public static func summary(of requestURL: String) throws(ChargeKitError) -> RequestSummary {
        let request = try AppURL(requestURL)
        let data = request.value("data").flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: Any]
        let money = data?["amount_money"] as? [String: Any]
        let currency = money?["currency_code"] as? String
        let amount = (money?["amount"] as? NSNumber).flatMap { minor -> String? in
            guard let currency, let code = try? Currency(code: currency) else { return minor.stringValue }
            return Money(minorUnits: minor.int64Value, currency: code).formatted
        }
        // `state` is ChargeKit's nonce, then `.` and the merchant's own state: only the
        // latter is a reference a person knows.
        return RequestSummary(provider: provider, amount: amount, currency: currency,
                              description: data?["notes"] as? String, reference: AppURL.reference(after: data?["state"] as? String))
    }

    public static func sampleApp(callbackURL: String) -> PaymentApp { .square(clientID: "SIMULATED", callbackURL: callbackURL) }

    /// Point of Sale's outcomes, as ``Scenario/catalog`` lists them: approved, and each
    /// documented error code (`payment_canceled` is the cancellation, named `cancelled`
    /// as every app's is; every other a failure).
    public static let scenarios: [Scenario] = [
        Scenario(.square, "approved", .approved, .answer(.approved), "The payment goes through: status ok, with transaction_id and client_transaction_id."),
    ] + Square.ErrorCode.documented.map { code in
        Scenario(.square, code == .paymentCanceled ? "cancelled" : code.rawValue.replacingOccurrences(of: "_", with: "-"),
                 code == .paymentCanceled ? .cancelled : .failed,
                 .answer(.failed, AppSetup(failureCode: code.rawValue)), "error_code \(code.rawValue): \(code.message)")
    }
}
