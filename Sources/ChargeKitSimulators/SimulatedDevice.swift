@_spi(Tools) import ChargeKit

/// A phone with the payment apps "installed": a ``URLOpener`` that routes a
/// request URL to the simulator for its scheme and delivers the callback URL to your
/// handler (typically `PaymentCoordinator.handle(url:)`), as the real app would by
/// opening your app.
public actor SimulatedDevice: URLOpener {
    /// The outcome the next payments get.
    public var outcome: ChargeOutcome
    /// The Credit Card Terminal simulator.
    public var creditCardTerminal: CreditCardTerminalSimulator
    /// The SumUp simulator.
    public var sumUp: SumUpSimulator
    /// The Zettle simulator.
    public var zettle: ZettleSimulator
    /// The Square Point of Sale simulator.
    public var square: SquareSimulator
    /// Schemes whose app is "not installed".
    public var missingApps: Set<String> = []
    /// Every callback URL delivered, in order.
    public private(set) var delivered: [String] = []
    private let deliver: @Sendable (String) async -> Void

    /// Makes a device.
    public init(
        outcome: ChargeOutcome = .approved, creditCardTerminal: CreditCardTerminalSimulator = .init(),
        sumUp: SumUpSimulator = .init(), zettle: ZettleSimulator = .init(), square: SquareSimulator = .init(),
        deliver: @escaping @Sendable (String) async -> Void
    ) {
        self.outcome = outcome
        self.creditCardTerminal = creditCardTerminal
        self.sumUp = sumUp
        self.zettle = zettle
        self.square = square
        self.deliver = deliver
    }

    /// Sets the outcome of the next payments.
    public func setOutcome(_ outcome: ChargeOutcome) { self.outcome = outcome }
    /// Marks an app as not installed.
    public func uninstall(scheme: String) { missingApps.insert(scheme) }

    /// Computes the app's callback for `url` without delivering it.
    public func callback(for url: String) throws(ChargeKitError) -> String {
        let scheme = String(url.prefix { $0 != ":" }).lowercased()
        guard !missingApps.contains(scheme) else { throw .appNotInstalled(scheme: scheme) }
        switch scheme {
        case CreditCardTerminal.scheme: return try creditCardTerminal.respond(to: url, outcome: outcome)
        case SumUp.scheme: return try sumUp.respond(to: url, outcome: outcome)
        case Zettle.scheme: return try zettle.respond(to: url, outcome: outcome)
        case Square.scheme: return try square.respond(to: url, outcome: outcome)
        default: throw .appNotInstalled(scheme: scheme)
        }
    }

    /// Opens `url` in the simulated app and, like the app, opens the callback later.
    public func open(_ url: String) async throws(ChargeKitError) {
        let callback = try callback(for: url)
        delivered.append(callback)
        let deliver = self.deliver
        Task { await deliver(callback) }
    }
}
