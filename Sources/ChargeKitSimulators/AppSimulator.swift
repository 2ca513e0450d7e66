@_spi(Tools) import ChargeKit

/// One simulated payment app, as ``SimulatedApps`` asks it: each app's simulator
/// conforms in its own file, beside its scenarios, and ``SimulatedApps/registered``
/// lists them, one line each. Nothing else in the simulators names an app.
public protocol AppSimulator: Sendable {
    /// The app it plays.
    static var provider: PaymentProvider { get }
    /// The schemes of the request URLs it answers, lower-cased (test schemes included).
    static var schemes: [String] { get }
    /// The app's own answers, in the order ``Scenario/catalog`` lists them (the
    /// hand-off failures every app shares are added by the catalog).
    static var scenarios: [Scenario] { get }

    /// The simulator of an app as installed: logged in, in its usual currency.
    init()

    /// Answers a request with the callback URL the app would open.
    /// - Throws: what the app refuses to answer at all (not its URL, nowhere to answer).
    mutating func respond(to requestURL: String, outcome: ChargeOutcome, options: AnswerOptions) throws(ChargeKitError) -> String

    /// Sets the app up before it answers; a setting the app has no use for is ignored.
    mutating func setUp(_ setup: AppSetup)

    /// What the app shows of a request before the customer pays: read as the app
    /// reads it, not checked (answering it checks it).
    static func summary(of requestURL: String) throws(ChargeKitError) -> RequestSummary

    /// A ``PaymentApp`` whose requests this simulator answers, answering on
    /// `callbackURL`, with placeholder credentials: for tests and demos.
    static func sampleApp(callbackURL: String) -> PaymentApp

    /// The currency the sample app's orders are in, wherever an app is played for every
    /// registered app (the conformance suite, `chargekit demo`, the sandbox's pages): the
    /// currency of the account the simulator plays as installed (``init()``), so that an
    /// order in it is answered without any setup; US dollars by default.
    static var sampleCurrency: Currency { get }

    /// One ``PaymentApp`` for each protocol of the app this simulator answers (the first
    /// is ``sampleApp(callbackURL:)``): `PaymentAppConformance` plays every one.
    static func sampleApps(callbackURL: String) -> [PaymentApp]

    /// The outcome the ledger reads for `scenario` (one of this app's) answering
    /// `requestURL`: the scenario's stated ``Scenario/outcome``, unless one of the app's
    /// protocols answers it otherwise.
    static func outcome(of scenario: Scenario, answering requestURL: String) -> ChargeOutcome?
}

extension AppSimulator {
    public mutating func setUp(_ setup: AppSetup) {}

    /// US dollars: the account of the simulator as installed is in dollars.
    public static var sampleCurrency: Currency { .usd }

    /// The one protocol of ``sampleApp(callbackURL:)``.
    public static func sampleApps(callbackURL: String) -> [PaymentApp] { [sampleApp(callbackURL: callbackURL)] }

    /// The scenario's stated outcome, whatever the request.
    public static func outcome(of scenario: Scenario, answering requestURL: String) -> ChargeOutcome? { scenario.outcome }
}

/// What one answer carries beyond its outcome, for apps that report it.
public struct AnswerOptions: Hashable, Sendable {
    /// The transaction id the app reports; a fresh random one when `nil`.
    public var transactionID: String?
    /// A tip the customer adds, in the request's currency (apps with a tip screen).
    public var tip: String?

    /// Makes the options.
    public init(transactionID: String? = nil, tip: String? = nil) {
        self.transactionID = transactionID
        self.tip = tip
    }
}

/// How a simulated app is set up before it answers: each app applies the settings
/// it has a use for and ignores the others.
public struct AppSetup: Hashable, Sendable {
    /// Whether the app is logged in and ready to take payments.
    public var isReady: Bool?
    /// The currency of the account logged into the app.
    public var accountCurrency: String?
    /// The app's own code for the failure it answers (its error code or result code).
    public var failureCode: String?
    /// The tax rate the app applies when a request names none (Credit Card Terminal).
    public var defaultTaxRate: String?

    /// Not logged in, or not ready to take payments.
    public static let notReady = AppSetup(isReady: false)

    /// Makes a setup; `nil` leaves a setting as it is.
    public init(isReady: Bool? = nil, accountCurrency: String? = nil, failureCode: String? = nil, defaultTaxRate: String? = nil) {
        self.isReady = isReady
        self.accountCurrency = accountCurrency
        self.failureCode = failureCode
        self.defaultTaxRate = defaultTaxRate
    }
}
