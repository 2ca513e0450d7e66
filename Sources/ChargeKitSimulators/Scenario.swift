@_spi(Tools) import ChargeKit
import Foundation

/// One thing a payment app can do with a hand-off, by name: each app's documented
/// outcomes and errors, and the hand-off failures no app documents (no callback, the
/// same callback twice, a callback after the hand-off expired, a callback from another
/// app). ``catalog`` is the one list: ``SimulatedDevice``, `chargekit simulate
/// --scenario`, `chargekit scenarios` and the sandbox's web simulator play from it.
public struct Scenario: Hashable, Sendable, Identifiable {
    /// The app.
    public let provider: PaymentProvider
    /// The scenario's name, unique for its app, such as `approved` or `could-not-perform`.
    public let name: String
    /// The outcome the ledger reads of its callback (of the first, when it comes twice);
    /// `nil` when the ledger reads none: no callback comes (``isRefusedByLedger`` is
    /// false), or the ledger refuses it (after expiry, another app's).
    public let outcome: ChargeOutcome?
    /// What happens, for people.
    public let description: String
    /// How the simulator plays it.
    public let play: Play

    /// `provider/name`.
    public var id: String { "\(provider.rawValue)/\(name)" }

    /// Whether this is a hand-off failure (no callback, twice, late, another app's)
    /// rather than one of the app's own answers.
    public var isHandOffFailure: Bool {
        if case .answer = play { return false }
        return true
    }

    /// Whether a callback comes that the ledger refuses: one after the hand-off
    /// expired, or another app's carrying its nonce.
    public var isRefusedByLedger: Bool { play == .late || play == .anotherApp }

    /// What the ledger reads, in one word: the outcome, `refused`, or `none` (no callback).
    public var verdict: String { verdict(of: outcome) }

    /// What the ledger reads of this scenario's callback answering `requestURL`, in one
    /// word (see ``outcome(answering:)``).
    public func verdict(answering requestURL: String) -> String { verdict(of: outcome(answering: requestURL)) }

    private func verdict(of outcome: ChargeOutcome?) -> String { outcome?.rawValue ?? (isRefusedByLedger ? "refused" : "none") }

    /// Whether the answer cold-launches the calling app: whoever plays it must settle
    /// it from a ledger opened anew on the same storage, not from the one that issued it.
    public var coldLaunchesCaller: Bool { play == .coldLaunch }

    /// What the simulated app does.
    public enum Play: Hashable, Sendable {
        /// Answers with `outcome`, the app set up as `setup` says.
        case answer(ChargeOutcome, AppSetup = .init())
        /// Answers with `outcome`, the app logged into an account in another currency
        /// than the request's.
        case answerInOtherCurrency(ChargeOutcome)
        /// Never answers (the app was killed, or the customer never came back).
        case noCallback
        /// Answers approved, and the same callback opens the app a second time.
        case twice
        /// Answers approved (the ledger's clock decides it is too late).
        case late
        /// Another payment app answers, carrying this hand-off's nonce.
        case anotherApp
        /// Answers approved after the calling app was reset (iOS resets it while the
        /// payment app's PIN screen shows): the answer cold-launches it, and only the
        /// ledger on disk knows the charge.
        case coldLaunch
    }

    /// The scenarios of `provider`, in the catalog's order.
    public static func catalog(for provider: PaymentProvider) -> [Scenario] { catalog.filter { $0.provider == provider } }

    /// The scenario of `provider` named `name`.
    public static func named(_ name: String, for provider: PaymentProvider) -> Scenario? {
        catalog.first { $0.provider == provider && $0.name == name }
    }

    /// Every scenario of every simulated app: each app's own (listed beside its
    /// simulator), then the hand-off failures, for every app.
    public static let catalog: [Scenario] = {
        SimulatedApps.registered.flatMap { app in app.scenarios + handOffFailures.map { $0(app.provider) } }
    }()

    /// The hand-off failures no app documents, for one app.
    private static let handOffFailures: [@Sendable (PaymentProvider) -> Scenario] = [
        { Scenario($0, "no-callback", nil, .noCallback, "The app never answers (it was killed, or the customer never came back): the hand-off stays pending until it is resolved or expires.") },
        { Scenario($0, "duplicate-callback", .approved, .twice, "The approved callback opens the app twice: the ledger accepts the first and refuses the second as replayed.") },
        { Scenario($0, "after-expiry", nil, .late, "The approved callback comes after the hand-off expired: the ledger refuses it as expired. (In a browser, wait out the hand-off's time to live before opening it: chargekit request --ttl sets a short one.)") },
        { Scenario($0, "another-app", nil, .anotherApp, "Another payment app answers with this hand-off's nonce: the ledger refuses it, the charge being another app's.") },
    ]

    /// A scenario of `provider`'s, as its simulator lists it.
    public init(_ provider: PaymentProvider, _ name: String, _ outcome: ChargeOutcome?, _ play: Play, _ description: String) {
        self.provider = provider
        self.name = name
        self.outcome = outcome
        self.description = description
        self.play = play
    }

    /// The outcome the ledger reads for this scenario's callback answering `requestURL`:
    /// ``outcome``, unless the protocol of `requestURL` answers it otherwise (a
    /// cancellation on some of an app's operations reads as failed).
    public func outcome(answering requestURL: String) -> ChargeOutcome? {
        SimulatedApps.simulator(of: provider)?.outcome(of: self, answering: requestURL) ?? outcome
    }

    /// The callback URLs the app opens for `requestURL` in this scenario, in order: none
    /// (no callback), one, or the same twice.
    /// - Throws: what the app refuses to answer at all, or a request that is not this
    ///   scenario's app's.
    public func callbacks(for requestURL: String, apps: SimulatedApps = .init()) throws(ChargeKitError) -> [String] {
        guard SimulatedApps.provider(of: requestURL) == provider else {
            throw .invalidURL("url", rule: "is not a request to \(provider.displayName), whose scenario '\(name)' this is")
        }
        var apps = apps
        switch play {
        case .answer(let outcome, let setup):
            apps.setUp(provider, setup)
            return [try apps.respond(to: requestURL, outcome: outcome)]
        case .answerInOtherCurrency(let outcome):
            let requested = (try? SimulatedApps.summary(of: requestURL))?.currency
            apps.setUp(provider, AppSetup(accountCurrency: requested == "JPY" ? "EUR" : "JPY"))
            return [try apps.respond(to: requestURL, outcome: outcome)]
        case .noCallback:
            return []
        case .twice:
            let callback = try apps.respond(to: requestURL, outcome: .approved)
            return [callback, callback]
        case .late, .coldLaunch:
            return [try apps.respond(to: requestURL, outcome: .approved)]
        case .anotherApp:
            return [try Self.anotherApp(answering: try apps.respond(to: requestURL, outcome: .approved), of: provider, apps: &apps)]
        }
    }

    /// Another app's approved callback to the same app, with the nonce `callback` carries.
    private static func anotherApp(answering callback: String, of provider: PaymentProvider, apps: inout SimulatedApps) throws(ChargeKitError) -> String {
        let parsed = try PaymentCallback.parse(callback, provider: provider)
        guard let nonce = parsed.nonce else { throw .missingNonce(field: provider.nonceField) }
        var target = try QueryURL(parsing: parsed.callbackURL)
        target.items.removeAll { $0.name == ChargeKitParameter.nonce || $0.name == ChargeKitParameter.callback }
        guard let other = SimulatedApps.registered.first(where: { $0.provider != provider })?.sampleApp(callbackURL: target.string) else {
            throw .appNotInstalled(scheme: "another payment app")
        }
        let order = ChargeOrder(amount: Money(minorUnits: 100, currency: .eur))
        return try apps.respond(to: try other.handoff(for: order, nonce: nonce).url, outcome: .approved)
    }
}
