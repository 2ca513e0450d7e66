@_spi(Tools) import ChargeKit

/// The payment apps of a phone, as one: each request URL goes to the simulator of the
/// app its scheme opens. ``SimulatedDevice``, `chargekit simulate` and the sandbox's
/// web simulator (`/apps/open`) all answer through it, so that a request is read by one
/// implementation wherever it is played.
public struct SimulatedApps: Sendable {
    /// Every simulated app, one line each; each is defined in its own file.
    public static let registered: [any AppSimulator.Type] = [
        CreditCardTerminalSimulator.self, SumUpSimulator.self, ZettleSimulator.self, SquareSimulator.self, VivaSimulator.self, NexiSimulator.self,
    ]

    private var installed: [PaymentProvider: any AppSimulator] = [:]

    /// Makes the apps: every registered app as installed, but those given as given.
    public init(_ simulators: any AppSimulator...) {
        for simulator in simulators { installed[type(of: simulator).provider] = simulator }
    }

    /// The simulator of one app (as installed when none was given); each app's file
    /// adds a named property for it (`apps.sumUp`).
    public subscript<Simulator: AppSimulator>(_ app: Simulator.Type) -> Simulator {
        get { installed[Simulator.provider] as? Simulator ?? Simulator() }
        set { installed[Simulator.provider] = newValue }
    }

    /// The registered simulator of `provider`, if it has one.
    public static func simulator(of provider: PaymentProvider) -> (any AppSimulator.Type)? {
        registered.first { $0.provider == provider }
    }

    /// The simulator of the app that opens `url`, by its scheme.
    static func simulator(opening url: String) -> (any AppSimulator.Type)? {
        let scheme = scheme(of: url)
        return registered.first { $0.schemes.contains(scheme) }
    }

    /// The app that opens `url`, by its scheme (test schemes included); `nil` when no
    /// simulated app does.
    public static func provider(of url: String) -> PaymentProvider? { simulator(opening: url)?.provider }

    /// Each simulated app's own scheme, in the registry's order (test schemes left out):
    /// what help texts and refusals name.
    public static var schemes: [String] { registered.compactMap { $0.schemes.first } }

    /// The scheme of `url`, lower-cased: what names the app that opens it.
    public static func scheme(of url: String) -> String { String(url.prefix { $0 != ":" }).lowercased() }

    /// The callback URL the app that opens `url` answers with: the simulator installed
    /// for that app (one given, even of a type not registered), else the registered one.
    /// - Throws: ``ChargeKitError/appNotInstalled(scheme:)`` when no simulated app opens
    ///   it, or what that app refuses to answer at all.
    public mutating func respond(to url: String, outcome: ChargeOutcome, options: AnswerOptions = .init()) throws(ChargeKitError) -> String {
        guard let app = Self.simulator(opening: url) else { throw .appNotInstalled(scheme: Self.scheme(of: url)) }
        var simulator = installed[app.provider] ?? app.init()
        defer { installed[app.provider] = simulator }
        return try simulator.respond(to: url, outcome: outcome, options: options)
    }

    /// Sets up the app of `provider` (its installed simulator, as ``respond(to:outcome:options:)`` uses it).
    public mutating func setUp(_ provider: PaymentProvider, _ setup: AppSetup) {
        guard let app = Self.simulator(of: provider) else { return }
        var simulator = installed[provider] ?? app.init()
        simulator.setUp(setup)
        installed[provider] = simulator
    }

    /// Sets up every app.
    public mutating func setUpAll(_ setup: AppSetup) {
        for app in Self.registered { setUp(app.provider, setup) }
    }

    /// What the app shows of a request before the customer pays: read as the app
    /// reads it, not checked (answering it checks it).
    public static func summary(of url: String) throws(ChargeKitError) -> RequestSummary {
        guard let app = simulator(opening: url) else { throw .appNotInstalled(scheme: scheme(of: url)) }
        return try app.summary(of: url)
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
