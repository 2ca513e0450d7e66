@_spi(Tools) import ChargeKit
import Foundation

/// Plays Credit Card Terminal: validates a request URL as the app would and answers
/// with the callback URL it would open on `returnURL`.
///
/// Sales tax is `amount × taxRate / 100` rounded half-up to the cent (a half cent goes
/// up: 8.25 % of 10.10 is 0.83325 → 0.83, of 10.00 at 8.125 % is 0.8125 → 0.81, of 1.00
/// at 8.5 % is 0.085 → 0.09). `taxRate=default` uses ``Configuration/defaultTaxRate``.
/// The charged amount is subtotal + tax + tip.
public struct CreditCardTerminalSimulator: Sendable {
    /// How the simulated app is set up.
    public struct Configuration: Sendable {
        /// The sales tax rate the user preset, used for `taxRate=default`.
        public var defaultTaxRate: String = "8.25"
        /// The test card "swiped" on approval.
        public var testCardNumber: String = "4111111111111111"
        /// The amount the user types when the request carries none.
        public var enteredAmount: String = "1.00"
        /// Makes the default configuration.
        public init() {}
    }

    /// The configuration.
    public var configuration: Configuration

    /// Makes a simulator.
    public init(configuration: Configuration) { self.configuration = configuration }

    /// Answers a request.
    /// - Parameters:
    ///   - requestURL: a `com-innerfence-ccterminal://charge/1.0.0/?...` URL.
    ///   - outcome: approved, declined, cancelled, or failed (the `error` response).
    ///   - tip: a tip the customer adds, in the request's currency.
    ///   - transactionID: the id to report; a random 6-digit id when `nil`.
    /// - Returns: the callback URL.
    /// - Throws: what the app would refuse: a malformed request, a field over its
    ///   limit, no `returnURL` to answer on.
    public func respond(
        to requestURL: String, outcome: ChargeOutcome, tip: String? = nil, transactionID: String? = nil
    ) throws(ChargeKitError) -> String {
        let request = try AppURL(requestURL)
        guard ["com-innerfence-ccterminal://charge/1.0.0/", "com-innerfence-ccterminal://charge/1.0.0"]
            .contains(request.base.lowercased())
        else { throw .invalidURL("url", rule: "must be com-innerfence-ccterminal://charge/1.0.0/") }
        try Self.check(request)
        guard let returnURL = request.nonEmpty("returnURL") else { throw .missingField("returnURL") }
        let fileMaker = request.value("fm") == "1"
        guard outcome == .approved else {
            let type = outcome == .failed ? "error" : outcome.rawValue
            var fields = [("responseType", type)]
            if outcome == .failed { fields.append(("errorMessage", "The transaction could not be processed.")) }
            return Self.callback(returnURL, fields, fileMaker: fileMaker)
        }
        let currency = request.nonEmpty("currency") ?? "USD"
        let scale = AppAmount.minorUnits(currency)
        let subtotalText = request.nonEmpty("amount") ?? configuration.enteredAmount
        guard let subtotal = AppAmount.parse(subtotalText, maximumFraction: scale) else {
            throw .invalidField("amount", rule: "is not an amount in \(currency)")
        }
        var total = subtotal
        var fields: [(String, String)] = []
        var tax: (amount: Decimal, rate: String)?
        if let rate = request.nonEmpty("taxRate") {
            let text = rate == "default" ? configuration.defaultTaxRate : rate
            guard let percent = AppAmount.parse(text, maximumDigits: 5, maximumFraction: 3) else {
                throw .invalidField("taxRate", rule: "is not a number")
            }
            tax = (AppAmount.rounded(subtotal * percent / 100, scale: scale), text)
        }
        var tipAmount: Decimal?
        if let tip {
            guard let value = AppAmount.parse(tip, maximumFraction: scale) else {
                throw .invalidField("tip", rule: "is not an amount in \(currency)")
            }
            tipAmount = value
        }
        total += (tax?.amount ?? 0) + (tipAmount ?? 0)
        fields += [
            ("responseType", "approved"),
            ("transactionId", transactionID ?? TestCard.randomID()),
            ("amount", try Self.wire(total, scale: scale)),
            ("currency", currency),
            ("redactedCardNumber", TestCard.redacted(configuration.testCardNumber)),
            ("cardType", TestCard.cardType(of: configuration.testCardNumber).rawValue),
        ]
        if let tax { fields += [("taxAmount", try Self.wire(tax.amount, scale: scale)), ("taxRate", tax.rate)] }
        if let tipAmount { fields.append(("tipAmount", try Self.wire(tipAmount, scale: scale))) }
        return Self.callback(returnURL, fields, fileMaker: fileMaker)
    }

    /// The longest `returnURL` the app opens.
    static let maximumReturnURLLength = 2048

    /// The app's own reading of the request fields (charge API 1.0.0 and the
    /// vendor's documented limits): a request that breaks one is refused.
    static func check(_ request: AppURL) throws(ChargeKitError) {
        let textLimits = ["address": 60, "city": 40, "company": 50, "country": 60, "description": 255, "email": 255,
                          "firstName": 50, "invoiceNumber": 20, "lastName": 50, "state": 40, "zip": 20,
                          "returnAppName": 255, "phone": 40]
        let flags: Set<String> = ["amountFixed", "returnImmediately", "fm"]
        let currency = request.nonEmpty("currency") ?? "USD"
        for (name, value) in request.fields {
            if let limit = textLimits[name] {
                guard value.count <= limit else { throw .fieldTooLong(name, limit: limit) }
                continue
            }
            switch name {
            case "returnURL":
                guard value.utf8.count <= maximumReturnURLLength else {
                    throw .fieldTooLong("returnURL", limit: maximumReturnURLLength)
                }
                guard value.contains(":") else { throw .invalidField("returnURL", rule: "is not a URL") }
            case "currency":
                guard value.utf8.count == 3, value.utf8.allSatisfy({ (0x41...0x5A).contains($0) }) else {
                    throw .invalidField("currency", rule: "must be three capital letters")
                }
            case "amount":
                guard AppAmount.parse(value, maximumFraction: AppAmount.minorUnits(currency)) != nil else {
                    throw .invalidField("amount", rule: "must be up to 15 digits with a decimal point")
                }
            case "taxRate":
                let parts = value.split(separator: ".", omittingEmptySubsequences: false)
                let isDigits = { (part: Substring) in !part.isEmpty && part.utf8.allSatisfy { (0x30...0x39).contains($0) } }
                guard value == "default" || (parts.count <= 2 && (1...2).contains(parts[0].count) && isDigits(parts[0])
                    && (parts.count == 1 || (parts[1].count <= 3 && isDigits(parts[1]))))
                else { throw .invalidField("taxRate", rule: "must be 0 to 99.999 or default") }
            case _ where flags.contains(name):
                guard value == "1" || value == "0" else { throw .invalidField(name, rule: "must be 1") }
            default:
                throw .unexpectedField(name, rule: "not a Credit Card Terminal request field")
            }
        }
        if let email = request.nonEmpty("email") {
            let parts = email.split(separator: "@", omittingEmptySubsequences: false)
            guard parts.count == 2, !parts[0].isEmpty, parts[1].contains("."), !email.contains(" ") else {
                throw .invalidField("email", rule: "must be an address like name@example.com")
            }
        }
        if let phone = request.nonEmpty("phone") {
            let digits = phone.filter(\.isASCIIDigitCharacter).count
            guard (1...25).contains(digits) else { throw .invalidField("phone", rule: "must have 1 to 25 digits") }
        }
    }

    /// Response amounts always have two decimals (`^(0|[1-9][0-9]*)\.[0-9]{2}$`).
    static func wire(_ amount: Decimal, scale: Int) throws(ChargeKitError) -> String {
        let text = AppAmount.text(amount, scale: max(scale, 2))
        guard scale > 2 else { return text }
        guard text.hasSuffix(String(repeating: "0", count: scale - 2)) else {
            throw .invalidField("amount", rule: "amounts with sub-cent digits cannot be reported")
        }
        return String(text.dropLast(scale - 2))
    }

    /// Appends `ifcc_` fields to the return URL; with `fileMaker`, each name gets a literal `$`.
    static func callback(_ returnURL: String, _ fields: [(String, String)], fileMaker: Bool) -> String {
        AppURL.answer(returnURL, fields.map { ("ifcc_" + $0.0, $0.1) }, namePrefix: fileMaker ? "$" : "")
    }
}

extension SimulatedApps {
    /// The Credit Card Terminal simulator.
    public var creditCardTerminal: CreditCardTerminalSimulator {
        get { self[CreditCardTerminalSimulator.self] }
        set { self[CreditCardTerminalSimulator.self] = newValue }
    }
}

extension TestCard {
    /// The card type Credit Card Terminal would report for a card number.
    public static func cardType(of number: String) -> CreditCardTerminal.CardType {
        if number.hasPrefix("4") { return .visa }
        if let two = Int(number.prefix(2)), (51...55).contains(two) { return .masterCard }
        if number.hasPrefix("34") || number.hasPrefix("37") { return .amex }
        if number.hasPrefix("6011") || number.hasPrefix("65") { return .discover }
        return .unknown
    }
}

extension CreditCardTerminalSimulator: AppSimulator {
    public static var provider: PaymentProvider { .creditCardTerminal }
    public static let schemes = [CreditCardTerminal.scheme]

    public init() { self.init(configuration: .init()) }

    public func respond(to requestURL: String, outcome: ChargeOutcome, options: AnswerOptions) throws(ChargeKitError) -> String {
        try respond(to: requestURL, outcome: outcome, tip: options.tip, transactionID: options.transactionID)
    }

    public mutating func setUp(_ setup: AppSetup) {
        if let rate = setup.defaultTaxRate { configuration.defaultTaxRate = rate }
    }

    public static func summary(of requestURL: String) throws(ChargeKitError) -> RequestSummary {
        let request = try AppURL(requestURL)
        return RequestSummary(provider: provider, amount: request.nonEmpty("amount"), currency: request.nonEmpty("currency") ?? "USD",
                              description: request.nonEmpty("description"), reference: request.nonEmpty("invoiceNumber"))
    }

    public static func sampleApp(callbackURL: String) -> PaymentApp { .creditCardTerminal(returnURL: callbackURL) }

    /// Credit Card Terminal's outcomes, as ``Scenario/catalog`` lists them.
    public static let scenarios: [Scenario] = [
        Scenario(.creditCardTerminal, "approved", .approved, .answer(.approved), "The card is approved: responseType approved, with the amount, card type and redacted number."),
        Scenario(.creditCardTerminal, "declined", .declined, .answer(.declined), "The card is declined: responseType declined."),
        Scenario(.creditCardTerminal, "cancelled", .cancelled, .answer(.cancelled), "The merchant cancels in the app: responseType cancelled."),
        Scenario(.creditCardTerminal, "error", .failed, .answer(.failed), "The app cannot process the charge: responseType error, with an errorMessage."),
    ]
}
