@_spi(Tools) import ChargeKit
import Foundation

/// The payment apps of a phone, as one: each request URL goes to the simulator of the
/// app its scheme opens. ``SimulatedDevice``, `chargekit simulate` and the sandbox's
/// web simulator (`/apps/open`) all answer through it, so that a request is read by one
/// implementation wherever it is played.
public struct SimulatedApps: Sendable {
    /// The Credit Card Terminal simulator.
    public var creditCardTerminal: CreditCardTerminalSimulator
    /// The SumUp simulator.
    public var sumUp: SumUpSimulator
    /// The Zettle simulator.
    public var zettle: ZettleSimulator
    /// The Square Point of Sale simulator.
    public var square: SquareSimulator

    /// Makes the apps.
    public init(creditCardTerminal: CreditCardTerminalSimulator = .init(), sumUp: SumUpSimulator = .init(),
                zettle: ZettleSimulator = .init(), square: SquareSimulator = .init()) {
        self.creditCardTerminal = creditCardTerminal
        self.sumUp = sumUp
        self.zettle = zettle
        self.square = square
    }

    /// The app that opens `url`, by its scheme (SumUp's test scheme included); `nil`
    /// when no simulated app does.
    public static func provider(of url: String) -> PaymentProvider? {
        switch scheme(of: url) {
        case CreditCardTerminal.scheme: .creditCardTerminal
        case SumUp.scheme, "sumupmerchanttest": .sumUp
        case Zettle.scheme: .zettle
        case Square.scheme: .square
        default: nil
        }
    }

    /// The scheme of `url`, lower-cased: what names the app that opens it.
    public static func scheme(of url: String) -> String { String(url.prefix { $0 != ":" }).lowercased() }

    /// The callback URL the app that opens `url` answers with.
    /// - Throws: ``ChargeKitError/appNotInstalled(scheme:)`` when no simulated app opens
    ///   it, or what that app refuses to answer at all.
    public mutating func respond(to url: String, outcome: ChargeOutcome) throws(ChargeKitError) -> String {
        switch Self.provider(of: url) {
        case .creditCardTerminal?: try creditCardTerminal.respond(to: url, outcome: outcome)
        case .sumUp?: try sumUp.respond(to: url, outcome: outcome)
        case .zettle?: try zettle.respond(to: url, outcome: outcome)
        case .square?: try square.respond(to: url, outcome: outcome)
        default: throw .appNotInstalled(scheme: Self.scheme(of: url))
        }
    }

    /// What the app shows of a request before the customer pays: read as the app
    /// reads it, not checked (answering it checks it).
    public static func summary(of url: String) throws(ChargeKitError) -> RequestSummary {
        guard let provider = provider(of: url) else { throw .appNotInstalled(scheme: scheme(of: url)) }
        let request = try AppURL(url)
        switch provider {
        case .creditCardTerminal:
            return RequestSummary(provider: provider, amount: request.nonEmpty("amount"), currency: request.nonEmpty("currency") ?? "USD",
                                  description: request.nonEmpty("description"), reference: request.nonEmpty("invoiceNumber"))
        case .sumUp:
            return RequestSummary(provider: provider, amount: request.nonEmpty("total") ?? request.nonEmpty("amount"),
                                  currency: request.nonEmpty("currency"), description: request.nonEmpty("title"),
                                  reference: request.nonEmpty("foreign-tx-id"))
        case .zettle:
            return RequestSummary(provider: provider, amount: request.nonEmpty("price") ?? request.nonEmpty("amount"),
                                  currency: request.nonEmpty("currency"), description: request.nonEmpty("title"),
                                  reference: request.nonEmpty("reference"))
        default:
            let data = request.value("data").flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) } as? [String: Any]
            let money = data?["amount_money"] as? [String: Any]
            let currency = money?["currency_code"] as? String
            let amount = (money?["amount"] as? NSNumber).flatMap { minor -> String? in
                guard let currency, let code = try? Currency(code: currency) else { return minor.stringValue }
                return Money(minorUnits: minor.int64Value, currency: code).formatted
            }
            return RequestSummary(provider: provider, amount: amount, currency: currency,
                                  description: data?["notes"] as? String, reference: data?["state"] as? String)
        }
    }
}

/// What a payment app shows of a request: which app, how much, for what.
public struct RequestSummary: Hashable, Sendable {
    /// The app the request opens.
    public var provider: PaymentProvider
    /// The amount as the request writes it (major units), if it has one.
    public var amount: String?
    /// The currency, if the request names one.
    public var currency: String?
    /// What is paid for: the description, title or notes.
    public var description: String?
    /// The merchant's reference, as the app will echo it.
    public var reference: String?
}
