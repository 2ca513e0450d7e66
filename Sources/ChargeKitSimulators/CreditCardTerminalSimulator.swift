import Foundation
import ChargeKit

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
    public init(configuration: Configuration = .init()) { self.configuration = configuration }

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
        let (path, items) = try readRequest(requestURL, base: "com-innerfence-ccterminal://charge/")
        guard path == "1.0.0/" || path == "1.0.0" else { throw .invalidURL("url", rule: "version must be 1.0.0") }
        let request = try Self.request(from: items)
        try request.validate()
        guard let returnURL = items.value("returnURL"), !returnURL.isEmpty else { throw .missingField("returnURL") }
        guard outcome == .approved else {
            let type = outcome == .failed ? "error" : outcome.rawValue
            return Self.callback(returnURL, [("responseType", type)], fileMaker: request.fileMakerFormat)
        }
        let currency = request.currency ?? .usd
        let subtotal: Money
        if let amount = request.amount { subtotal = amount } else {
            subtotal = try Money(parsing: configuration.enteredAmount, currency: currency)
        }
        var total = subtotal
        var fields: [(String, String)] = []
        var tax: (amount: Money, rate: String)?
        if let rate = request.taxRate {
            let text = rate == .userDefault ? configuration.defaultTaxRate : rate.description
            guard let percent = Decimal(string: text) else { throw .invalidField("taxRate", rule: "is not a number") }
            tax = (try subtotal.percentage(percent, rule: .halfUp), text)
        }
        let tipMoney = try tip.map { text throws(ChargeKitError) in try Money(parsing: text, currency: currency, field: "tip") }
        for part in [tax?.amount, tipMoney].compactMap({ $0 }) {
            guard let sum = total.adding(part) else { throw .invalidField("amount", rule: "overflows with tax and tip") }
            total = sum
        }
        fields += [
            ("responseType", "approved"),
            ("transactionId", transactionID ?? TestCard.randomID()),
            ("amount", try Self.wire(total)),
            ("currency", currency.code),
            ("redactedCardNumber", TestCard.redacted(configuration.testCardNumber)),
            ("cardType", TestCard.cardType(of: configuration.testCardNumber).wireValue),
        ]
        if let tax { fields += [("taxAmount", try Self.wire(tax.amount)), ("taxRate", tax.rate)] }
        if let tipMoney { fields.append(("tipAmount", try Self.wire(tipMoney))) }
        return Self.callback(returnURL, fields, fileMaker: request.fileMakerFormat)
    }

    /// Rebuilds the request value from its query, so the app's checks are ChargeKit's own.
    static func request(from items: [QueryItem]) throws(ChargeKitError) -> CreditCardTerminal.ChargeRequest {
        var request = CreditCardTerminal.ChargeRequest()
        let currency = try items.value("currency").map { code throws(ChargeKitError) in try Currency(code: code) }
        request.currency = currency
        let textFields = Dictionary(uniqueKeysWithValues: CreditCardTerminal.ChargeRequest.textFieldPaths.map { ($0.name, $0.path) })
        for item in items {
            let value = item.value
            if let path = textFields[item.name] {
                request[keyPath: path] = value
                continue
            }
            switch item.name {
            case "returnURL": request.returnURL = value
            case "returnImmediately": request.returnImmediately = try flag(item)
            case "fm": request.fileMakerFormat = try flag(item)
            case "amount": request.amount = try Money(parsing: value, currency: currency ?? .usd)
            case "amountFixed": request.amountFixed = try flag(item)
            case "taxRate": request.taxRate = try CreditCardTerminal.TaxRate(parsing: value)
            case "currency": break
            default: throw .unexpectedField(item.name, rule: "not a Credit Card Terminal request field")
            }
        }
        return request
    }

    private static func flag(_ item: QueryItem) throws(ChargeKitError) -> Bool {
        guard item.value == "1" || item.value == "0" else { throw .invalidField(item.name, rule: "must be 1") }
        return item.value == "1"
    }

    /// Response amounts always have two decimals (`^(0|[1-9][0-9]*)\.[0-9]{2}$`).
    static func wire(_ money: Money) throws(ChargeKitError) -> String {
        let text = money.formatted
        switch money.currency.minorUnits {
        case 2: return text
        case 0: return text + ".00"
        case 1: return text + "0"
        default:
            guard text.hasSuffix(String(repeating: "0", count: money.currency.minorUnits - 2)) else {
                throw .invalidField("amount", rule: "\(money.currency.code) amounts with sub-cent digits cannot be reported")
            }
            return String(text.dropLast(money.currency.minorUnits - 2))
        }
    }

    /// Appends `ifcc_` fields to the return URL; with `fileMaker`, each name gets a literal `$`.
    static func callback(_ returnURL: String, _ fields: [(String, String)], fileMaker: Bool) -> String {
        let prefix = fileMaker ? "$" : ""
        let query = fields.map { prefix + QueryItem("ifcc_" + $0.0, $0.1).encoded }.joined(separator: "&")
        return returnURL + (returnURL.contains("?") ? "&" : "?") + query
    }
}
