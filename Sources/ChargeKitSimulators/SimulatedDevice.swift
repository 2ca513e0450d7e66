@_spi(Tools) import ChargeKit

/// A phone with the payment apps "installed": a ``URLOpener`` that routes a
/// request URL to the simulator for its scheme and delivers the callback URL to your
/// handler (typically `PaymentCoordinator.handle(url:)`), as the real app would by
/// opening your app.
@dynamicMemberLookup
public actor SimulatedDevice: URLOpener {
    /// The outcome the next payments get.
    public var outcome: ChargeOutcome
    /// The scenario its app's next payments play instead of ``outcome`` (see
    /// ``Scenario/catalog``); `nil`, or a request to another app, plays ``outcome``.
    public var scenario: Scenario?
    /// The payment apps installed; each is also read as the device's own property
    /// (named for the app).
    public var apps: SimulatedApps

    /// One of ``apps``, by the name its simulator's file gives it (named for the app).
    public subscript<App>(dynamicMember app: KeyPath<SimulatedApps, App>) -> App { apps[keyPath: app] }

    /// Schemes whose app is "not installed".
    public var missingApps: Set<String> = []
    /// Every callback URL delivered, in order.
    public private(set) var delivered: [String] = []
    private let deliver: @Sendable (String) async -> Void

    /// Makes a device.
    /// - Parameters:
    ///   - outcome: the outcome of the next payments.
    ///   - apps: the apps installed (each registered app as installed, unless given).
    ///   - deliver: opens your app with a callback URL.
    public init(outcome: ChargeOutcome = .approved, apps: SimulatedApps = .init(), deliver: @escaping @Sendable (String) async -> Void) {
        self.outcome = outcome
        self.apps = apps
        self.deliver = deliver
    }

    /// Sets the outcome of the next payments.
    public func setOutcome(_ outcome: ChargeOutcome) { self.outcome = outcome }
    /// Sets the scenario its app's next payments play.
    public func play(_ scenario: Scenario?) { self.scenario = scenario }
    /// Marks an app as not installed.
    public func uninstall(scheme: String) { missingApps.insert(scheme) }

    /// Computes the app's callback for `url` without delivering it.
    public func callback(for url: String) throws(ChargeKitError) -> String {
        try checkInstalled(url)
        return try apps.respond(to: url, outcome: outcome)
    }

    private func checkInstalled(_ url: String) throws(ChargeKitError) {
        let scheme = SimulatedApps.scheme(of: url)
        guard !missingApps.contains(scheme) else { throw .appNotInstalled(scheme: scheme) }
    }

    /// Opens `url` in the simulated app and, like the app, opens the callback later
    /// (under a ``scenario``: no callback, one, or the same one twice).
    public func open(_ url: String) async throws(ChargeKitError) {
        let callbacks: [String]
        if let scenario, SimulatedApps.provider(of: url) == scenario.provider {
            try checkInstalled(url)
            callbacks = try scenario.callbacks(for: url, apps: apps)
        } else {
            callbacks = [try callback(for: url)]
        }
        delivered += callbacks
        let deliver = self.deliver
        Task {
            for callback in callbacks { await deliver(callback) }
        }
    }
}
