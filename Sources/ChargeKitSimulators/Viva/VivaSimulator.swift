@_spi(Tools) import ChargeKit
import Foundation

/// Plays Viva.com Terminal: reads `vivapayclient://pay/v1?action=…` as the app does
/// (values percent-encoded as real clients send them, or raw as Viva's own sample
/// writes them) and opens the request's `callback` with the answer written as the
/// real app writes it: **values unencoded**, so spaces (`Transaction successful`,
/// `CONTACTLESS - NO CVM`), the `*` of the masked card number and the `+` of
/// `transactionDate`'s offset (seven fractional digits) arrive raw.
///
/// `sale` needs `appId`, `callback` and an amount of 1 to 10 digits in minor units
/// (a tip no larger than it); `cancel` (void or refund) and `abort` answer for the
/// amount they name. A request the app cannot take (no `appId`, an unknown action, a
/// bad amount) is answered `status=fail`; a terminal not activated likewise. A request
/// without a `callback` cannot be answered at all: the simulator throws.
///
/// Outcomes: approved is `status=success` with the card's details; declined and failed
/// are `status=fail` with Viva's message; cancelled is `action=User_cancel`.
public struct VivaSimulator: Sendable {
    /// Whether the terminal is activated and logged in.
    public var isActivated: Bool
    /// The card presented.
    public var testCardNumber: String

    /// Makes a simulator.
    public init(isActivated: Bool = true, testCardNumber: String = "5356860000001364") {
        self.isActivated = isActivated
        self.testCardNumber = testCardNumber
    }

    /// Answers a request with the callback URL the app would open.
    /// - Throws: when the request cannot be answered at all (not a Viva URL, no `callback`).
    public func respond(to requestURL: String, outcome: ChargeOutcome, transactionID: String? = nil) throws(ChargeKitError) -> String {
        let request = try AppURL(requestURL)
        guard request.base.lowercased() == Viva.baseURL else { throw .invalidURL("url", rule: "must be \(Viva.baseURL)") }
        guard let callback = request.nonEmpty("callback") else {
            throw .missingField("callback")
        }
        let action = request.value("action") ?? ""
        // Every answer: status, message, action, then clientTransactionId echoed as sent.
        let echo = request.value("clientTransactionId").map { [("clientTransactionId", $0)] } ?? []
        func reply(_ status: String, _ message: String, action: String, _ more: [(String, String)] = []) -> String {
            Self.answer(callback, [("status", status), ("message", message), ("action", action)] + echo + more)
        }
        func fail(_ message: String) -> String { reply("fail", message, action: action) }
        guard ["sale", "cancel", "abort"].contains(action) else { return fail("Invalid action") }
        guard request.nonEmpty("appId") != nil else { return fail("Missing parameter: appId") }
        let amount = request.nonEmpty("amount")
        if let amount, !Self.isAmount(amount) { return fail("Invalid amount") }
        if action == "sale", amount == nil { return fail("Missing parameter: amount") }
        if let tip = request.nonEmpty("tipAmount") {
            guard Self.isAmount(tip), let tipValue = Int64(tip), let amountValue = amount.flatMap({ Int64($0) }), tipValue <= amountValue else {
                return fail("Invalid tip amount")
            }
        }
        if let id = request.value("clientTransactionId"), id.utf8.count > Viva.maximumClientTransactionIDLength {
            return fail("Invalid clientTransactionId")
        }
        guard isActivated else { return fail("Terminal is not activated") }
        switch outcome {
        case .approved: break
        case .declined: return fail("Transaction declined")
        case .failed: return fail("Transaction failed")
        case .cancelled: return reply("fail", "Transaction canceled by user", action: "User_cancel")
        }
        let paid = amount.map { [("amount", $0)] } ?? []
        guard action != "abort" else { return reply("success", "Transaction successful", action: action, paid) }
        let masked = String(testCardNumber.prefix(6)) + String(repeating: "*", count: max(0, testCardNumber.count - 10)) + String(testCardNumber.suffix(4))
        return reply("success", "Transaction successful", action: action, paid + [
            ("tipAmount", request.nonEmpty("tipAmount") ?? "0"),
            ("verificationMethod", "CONTACTLESS - NO CVM"),
            ("rrn", TestCard.randomID(digits: 12)),
            ("cardType", "Debit Mastercard"),
            ("accountNumber", masked),
            ("referenceNumber", TestCard.randomID(digits: 6)),
            ("authorisationCode", TestCard.randomID(digits: 6)),
            ("tid", "16007513"),
            ("orderCode", TestCard.randomID(digits: 16)),
            ("shortOrderCode", TestCard.randomID(digits: 10)),
            ("transactionDate", Self.transactionDate(Date())),
            ("transactionId", transactionID ?? UUID().uuidString.lowercased()),
            ("installments", "0"),
            ("aid", "A0000000041010"),
            ("paymentMethod", "CARD_PRESENT"),
        ])
    }

    /// The answer as Viva writes it: `callback?` then the fields, values unencoded.
    static func answer(_ callback: String, _ fields: [(String, String)]) -> String {
        callback + (callback.contains("?") ? "&" : "?") + fields.map { $0.0 + "=" + $0.1 }.joined(separator: "&")
    }

    private static func isAmount(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.count <= Viva.maximumAmountDigits && text.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } && (Int64(text) ?? 0) > 0
    }

    /// `2024-11-17T00:16:11.4043324+02:00`: seven fractional digits and a `+02:00` offset.
    static func transactionDate(_ date: Date) -> String {
        let offset = 2 * 3600
        let local = date.addingTimeInterval(TimeInterval(offset))
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: local)
        let fraction = Int((local.timeIntervalSince1970 - local.timeIntervalSince1970.rounded(.down)) * 10_000_000)
        func two(_ value: Int?) -> String { String(format: "%02d", value ?? 0) }
        return String(format: "%04d", parts.year ?? 1970) + "-" + two(parts.month) + "-" + two(parts.day) + "T" + two(parts.hour) + ":"
            + two(parts.minute) + ":" + two(parts.second) + "." + String(format: "%07d", fraction) + "+02:00"
    }
}

extension SimulatedApps {
    /// The Viva.com Terminal simulator.
    public var viva: VivaSimulator {
        get { self[VivaSimulator.self] }
        set { self[VivaSimulator.self] = newValue }
    }
}

extension VivaSimulator: AppSimulator {
    public static var provider: PaymentProvider { .viva }
    public static let schemes = [Viva.scheme]

    public init() { self.init(isActivated: true) }

    public func respond(to requestURL: String, outcome: ChargeOutcome, options: AnswerOptions) throws(ChargeKitError) -> String {
        try respond(to: requestURL, outcome: outcome, transactionID: options.transactionID)
    }

    public mutating func setUp(_ setup: AppSetup) {
        if let ready = setup.isReady { isActivated = ready }
    }

    public static func summary(of requestURL: String) throws(ChargeKitError) -> RequestSummary {
        let request = try AppURL(requestURL)
        // Viva's amount is in minor units of the account's currency, which the request does
        // not name: shown as a euro account's, as the app would show it there.
        let amount = request.nonEmpty("amount").map { text in Int64(text).map { Money(minorUnits: $0, currency: .eur).formatted } ?? text }
        return RequestSummary(provider: provider, amount: amount, currency: amount == nil ? nil : "EUR", description: nil,
                              reference: AppURL.reference(after: request.value("clientTransactionId")))
    }

    public static func sampleApp(callbackURL: String) -> PaymentApp { .viva(appID: "com.example.simulated", callbackURL: callbackURL) }

    /// Euros: the simulator plays a euro account (a request names no currency, so the
    /// terminal charges in its account's), as its summary shows.
    public static var sampleCurrency: Currency { .eur }

    /// Viva's outcomes, as ``Scenario/catalog`` lists them.
    public static let scenarios: [Scenario] = [
        Scenario(.viva, "approved", .approved, .answer(.approved), "The payment succeeds: status success, with the card's details written unencoded (raw spaces, *, a + in transactionDate)."),
        Scenario(.viva, "declined", .failed, .answer(.declined), "The card is declined: status fail, message Transaction declined (Viva's fail does not tell a decline from an error, so it reads as failed)."),
        Scenario(.viva, "cancelled", .cancelled, .answer(.cancelled), "The customer cancels: action User_cancel."),
        Scenario(.viva, "not-ready", .failed, .answer(.approved, .notReady), "The terminal is not activated: status fail."),
        Scenario(.viva, "caller-reset", .approved, .coldLaunch, "The PIN screen shows and iOS resets your app: the approval cold-launches it, and is settled from the ledger on disk."),
    ]
}
