@_spi(Tools) import ChargeKit
import Foundation

/// Plays Nexi POS (MobilePOS): reads `neximpos://payment?…` or `neximpos://reversal?…`
/// as the app does and opens the request's `uri` with the answer written as Nexi's
/// documented example is: an ordinary percent-encoded query, `acquirerName` and
/// `merchantId` padded with spaces (`NEXI%20%20…`), `resultDescription` empty, the
/// `pan` masked to its last four digits, `timestamp` as `ddMMyyHHmm`.
///
/// A request needs `amount` (whole cents, above zero), `callerTrxId`, `callerName` and
/// `uri`; a reversal also `timestamp` and `terminalId`. A request the app cannot take is
/// answered `result=22` (general error); one without a `uri` cannot be answered at all:
/// the simulator throws.
///
/// Outcomes (Nexi's `result` table): approved is `0` with `actionCode=000` and the
/// card's details; declined `21` with the bank's `actionCode`; cancelled `20`; failed
/// `22`, or the code set up (``failureCode``, such as `-16` for NFC not active). Only
/// the four mandatory fields come back after a cancel or a failure.
public struct NexiSimulator: Sendable {
    /// Whether the merchant is logged in to Nexi POS (a session lasts 28 days) and the
    /// card reader is paired.
    public var isReady: Bool
    /// The card presented.
    public var testCardNumber: String
    /// The `result` a failed payment answers (`22`, Nexi's general error, unless set).
    public var failureCode: String

    /// Makes a simulator.
    public init(isReady: Bool = true, testCardNumber: String = "4761730000005938", failureCode: String = "22") {
        self.isReady = isReady
        self.testCardNumber = testCardNumber
        self.failureCode = failureCode
    }

    /// The documented padding: `acquirerName` and `merchantId` are fixed-width fields.
    static let acquirerName = "NEXI" + String(repeating: " ", count: 12)
    static let merchantID = "0000091" + String(repeating: " ", count: 8)

    /// Answers a request with the callback URL the app would open.
    /// - Throws: when the request cannot be answered at all (not a Nexi URL, no `uri`).
    public func respond(to requestURL: String, outcome: ChargeOutcome, transactionID: String? = nil,
                        now: Date = Date()) throws(ChargeKitError) -> String {
        let request = try AppURL(requestURL)
        let base = request.base.lowercased()
        guard let operation = ["payment", "reversal"].first(where: { base == "\(Nexi.scheme)://\($0)" }) else {
            throw .invalidURL("url", rule: "must be \(Nexi.scheme)://payment or \(Nexi.scheme)://reversal")
        }
        guard let uri = request.nonEmpty("uri") else { throw .missingField("uri") }
        let amount = request.value("amount") ?? ""
        // Every answer: result, amount as sent, callerTrxId echoed, operationType.
        func reply(_ result: String, _ more: [(String, String)] = []) -> String {
            Self.answer(uri, [("result", result), ("amount", amount), ("callerTrxId", request.value("callerTrxId") ?? ""),
                              ("operationType", operation.uppercased())] + more)
        }
        let isAmount = !amount.isEmpty && amount.utf8.count <= 10 && amount.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
            && (Int64(amount) ?? 0) > 0 && (Int64(amount) ?? .max) <= Nexi.maximumAmountMinorUnits
        guard isAmount, request.nonEmpty("callerTrxId") != nil, request.nonEmpty("callerName") != nil else { return reply("22") }
        if operation == "reversal", request.nonEmpty("timestamp") == nil || request.nonEmpty("terminalId") == nil { return reply("22") }
        if request.value("sendTicket") == "true", request.value("autoClose") == "true" { return reply("22") }
        guard isReady else { return reply(failureCode) }
        switch outcome {
        case .approved: return reply("0", details(actionCode: "000", request: request, transactionID: transactionID, now: now))
        // ISO 8583's 100, "do not honour": the bank's most common refusal.
        case .declined: return reply("21", details(actionCode: "100", request: request, transactionID: transactionID, now: now))
        case .cancelled: return reply("20")
        case .failed: return reply(failureCode)
        }
    }

    /// The card payment's fields, in the documented example's order.
    private func details(actionCode: String, request: AppURL, transactionID: String?, now: Date) -> [(String, String)] {
        var fields: [(String, String)] = [
            ("actionCode", actionCode),
            ("pan", String(repeating: "*", count: max(0, testCardNumber.count - 4)) + String(testCardNumber.suffix(4))),
            ("transactionType", "CLI"),
            ("timestamp", Self.timestamp(now)),
            ("resultDescription", ""),
            ("cardTypeCVM", "2"),
            ("acquirerId", "00000000003"),
            ("stan", TestCard.randomID(digits: 6)),
            ("operationNumber", transactionID ?? TestCard.randomID(digits: 6)),
            ("acquirerName", Self.acquirerName),
            ("terminalId", "30350039"),
            ("merchantId", Self.merchantID),
            ("authorizationNumber", actionCode == "000" ? TestCard.randomID(digits: 6) : ""),
        ]
        if request.value("urlTicket") != "false" {
            fields.append(("urlTicket", "https://receipts.example.invalid/nexi/" + TestCard.randomID(digits: 12) + ".png"))
        }
        return fields
    }

    /// `uri?` then the fields, each value percent-encoded (a space as `%20`).
    static func answer(_ uri: String, _ fields: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~*")
        func encoded(_ text: String) -> String {
            text.unicodeScalars.map { allowed.contains($0) && $0.isASCII ? String($0) : String($0).utf8.map { String(format: "%%%02X", $0) }.joined() }.joined()
        }
        return uri + (uri.contains("?") ? "&" : "?") + fields.map { $0.0 + "=" + encoded($0.1) }.joined(separator: "&")
    }

    /// `ddMMyyHHmm`, the terminal's local time (Italy's: UTC+1, as the example's).
    static func timestamp(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 3600) ?? calendar.timeZone
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute], from: date)
        func two(_ value: Int?) -> String { String(format: "%02d", (value ?? 0) % 100) }
        return two(parts.day) + two(parts.month) + two(parts.year) + two(parts.hour) + two(parts.minute)
    }
}

extension SimulatedApps {
    /// The Nexi POS simulator.
    public var nexi: NexiSimulator {
        get { self[NexiSimulator.self] }
        set { self[NexiSimulator.self] = newValue }
    }
}

extension NexiSimulator: AppSimulator {
    public static var provider: PaymentProvider { .nexi }
    public static let schemes = [Nexi.scheme]
    /// Nexi POS takes euro only.
    public static var sampleCurrency: Currency { .eur }

    public init() { self.init(isReady: true) }

    public func respond(to requestURL: String, outcome: ChargeOutcome, options: AnswerOptions) throws(ChargeKitError) -> String {
        try respond(to: requestURL, outcome: outcome, transactionID: options.transactionID)
    }

    public mutating func setUp(_ setup: AppSetup) {
        if let ready = setup.isReady { isReady = ready }
        if let code = setup.failureCode { failureCode = code }
    }

    public static func summary(of requestURL: String) throws(ChargeKitError) -> RequestSummary {
        let request = try AppURL(requestURL)
        let amount = request.nonEmpty("amount").map { text in Int64(text).map { Money(minorUnits: $0, currency: .eur).formatted } ?? text }
        return RequestSummary(provider: provider, amount: amount, currency: amount == nil ? nil : "EUR", description: nil,
                              reference: AppURL.reference(after: request.value("callerTrxId")))
    }

    public static func sampleApp(callbackURL: String) -> PaymentApp { .nexi(callerName: "Simulated shop", callbackURL: callbackURL) }

    /// Nexi's outcomes that can reach an iPhone's caller, as ``Scenario/catalog`` lists
    /// them. The codes are Nexi's (its `result` table; `-14` and `-15` from its error list:
    /// the others there are about NFC, Android's developer options and SoftPOS, which
    /// iOS reaches through Nexi's SDK, not this URL); a reader that is not connected and an
    /// expired session have no code of their own that Nexi documents, so they answer as
    /// the app's general error, `22`.
    public static let scenarios: [Scenario] = [
        Scenario(.nexi, "approved", .approved, .answer(.approved), "The payment is authorized: result 0, actionCode 000, with the card's details (acquirerName and merchantId padded with %20)."),
        Scenario(.nexi, "declined", .declined, .answer(.declined), "The bank declines the card: result 21, actionCode 100."),
        Scenario(.nexi, "cancelled", .cancelled, .answer(.cancelled), "The payment is cancelled on the card reader: result 20."),
        Scenario(.nexi, "reader-not-connected", .failed, .answer(.failed, AppSetup(failureCode: "22")), "The card reader is not connected: result 22, general error."),
        Scenario(.nexi, "session-expired", .failed, .answer(.approved, .notReady), "The merchant's Nexi POS session (28 days) has expired: result 22, general error."),
        Scenario(.nexi, "network-not-available", .failed, .answer(.failed, AppSetup(failureCode: "-14")), "No network: result -14."),
        Scenario(.nexi, "not-connected-to-network", .failed, .answer(.failed, AppSetup(failureCode: "-15")), "The phone is not connected to a network: result -15."),
    ]
}
