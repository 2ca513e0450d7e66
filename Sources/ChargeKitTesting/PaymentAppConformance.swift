@_spi(Tools) import ChargeKit
import ChargeKitSimulators
import Foundation

/// The behaviour every payment app must show, written once and run over every app of
/// ``SimulatedApps/registered``, as ``LedgerStoreConformance`` is for stores: a new app
/// that fits the registry but not the ledger fails here, whichever of its files is wrong.
///
/// Each check is given the app's simulator type: it plays requests built by the app's
/// own ``AppSimulator/sampleApps(callbackURL:)`` (one per protocol) through that simulator and a
/// ``ChargeLedger``, the way an app meets them, and throws ``ConformanceFailure``
/// naming what went wrong.
///
/// ```swift
/// @Test(arguments: PaymentAppConformance.checks, PaymentAppConformance.registered)
/// func conforms(check: PaymentAppConformance.Check, app: PaymentAppConformance.App) async throws {
///     try await check.run(app)
/// }
/// ```
public enum PaymentAppConformance {
    /// One app under test: its simulator, and which of its protocols
    /// (``AppSimulator/sampleApps(callbackURL:)``) is played.
    public struct App: Sendable, CustomStringConvertible {
        /// The simulator that plays it.
        public let simulator: any AppSimulator.Type
        /// The place of the protocol played among the simulator's sample apps.
        public let protocolIndex: Int
        /// Wraps a simulator, playing its `protocolIndex`th sample app (its first by default).
        public init(_ simulator: any AppSimulator.Type, protocolIndex: Int = 0) {
            self.simulator = simulator
            self.protocolIndex = protocolIndex
        }
        public var description: String {
            protocolIndex == 0 ? simulator.provider.rawValue : "\(simulator.provider.rawValue) (protocol \(protocolIndex + 1))"
        }
    }

    /// One behaviour, run against one app.
    public typealias Check = ConformanceCheck<App>

    /// Every protocol of every registered app.
    public static var registered: [App] {
        SimulatedApps.registered.flatMap { simulator in
            simulator.sampleApps(callbackURL: "conformance-app://done").indices.map { App(simulator, protocolIndex: $0) }
        }
    }

    /// Every check.
    public static let checks: [Check] = [
        Check(name: "each scenario reads in the ledger as the catalog states", body: scenariosReadAsStated),
        Check(name: "a forged answer (a nonce never issued) is refused", body: forgedIsRefused),
        Check(name: "an answer is accepted once, then refused as replayed", body: replayIsRefused),
        Check(name: "an answer carried over to another of the app's charges is refused (or flagged, where the app lets the amount change)", body: crossedIsRefused),
        Check(name: "hostile answers (each byte cut or changed, a huge field, invalid UTF-8) are refused or read, never a trap", body: hostileAnswers),
        Check(name: "an answer that cold-launches the caller is settled from the ledger on disk", body: coldLaunch),
    ]

    // MARK: Playing

    /// The order every check charges: 12.50 in the app's sample currency, with a reference the app echoes.
    static func order(_ app: App, _ minorUnits: Int64 = 1250, reference: String = "order-7") -> ChargeOrder {
        ChargeOrder(amount: Money(minorUnits: minorUnits, currency: app.simulator.sampleCurrency), description: "Tea", reference: reference)
    }

    /// Issues `order` (by default ``order(_:_:reference:)``) to the app in `ledger`.
    static func issue(_ app: App, _ ledger: ChargeLedger, _ given: ChargeOrder? = nil) async throws -> (PendingCharge, HandoffRequest) {
        let order = given ?? order(app)
        let samples = app.simulator.sampleApps(callbackURL: "conformance-app://done")
        guard samples.indices.contains(app.protocolIndex) else { throw ConformanceFailure("\(app): no such sample app") }
        let sent = samples[app.protocolIndex]
        guard samples.first == app.simulator.sampleApp(callbackURL: "conformance-app://done") else {
            throw ConformanceFailure("\(app): its first sample app is not its sampleApp")
        }
        guard sent.provider == app.simulator.provider else {
            throw ConformanceFailure("\(app): its sample app sends to \(sent.provider), not to \(app.simulator.provider)")
        }
        return try await ledger.issue { nonce throws(ChargeKitError) in try sent.handoff(for: order, nonce: nonce) }
    }

    /// The callbacks the app's simulator opens for `url` in `scenario`, its account in
    /// the orders' currency; played by the catalog, as every other player plays it.
    static func play(_ scenario: Scenario, _ app: App, url: String) throws -> [String] {
        try scenario.callbacks(for: url, apps: apps(app.simulator))
    }

    /// The phone's apps with `simulator` installed for its app, its account in the app's sample currency.
    private static func apps<Simulator: AppSimulator>(_ simulator: Simulator.Type) -> SimulatedApps {
        var installed = Simulator()
        installed.setUp(AppSetup(accountCurrency: Simulator.sampleCurrency.code))
        return SimulatedApps(installed)
    }

    static func approved(_ app: App, url: String) throws -> String {
        try play(Scenario(app.simulator.provider, "approved", .approved, .answer(.approved), "approved"), app, url: url)[0]
    }

    // MARK: Checks

    static func scenariosReadAsStated(_ app: App) async throws {
        let own = app.simulator.scenarios
        let shared = Scenario.catalog(for: app.simulator.provider).filter(\.isHandOffFailure)
        try expect(!own.isEmpty, "\(app) lists no scenario of its own")
        try expect(own.contains { $0.outcome == .approved } && own.allSatisfy { $0.provider == app.simulator.provider && !$0.description.isEmpty },
                   "\(app)'s scenarios must include an approval, each its own and described")
        try expect(Set(own.map(\.name)).count == own.count, "\(app) names two scenarios alike")
        for scenario in own + shared where !scenario.coldLaunchesCaller {
            let clock = ManualClock()
            let ledger = ChargeLedger(timeToLive: 60, now: { clock.now })
            let (charge, request) = try await issue(app, ledger)
            let callbacks = try play(scenario, app, url: request.url)
            guard let stated = scenario.outcome(answering: request.url) ?? (scenario.isRefusedByLedger ? .approved : nil) else {
                try expect(callbacks.isEmpty, "\(scenario.id): no callback was stated, \(callbacks.count) came")
                try expect(try await ledger.outstanding().map(\.nonce) == [charge.nonce], "\(scenario.id): the hand-off no longer waits")
                continue
            }
            guard let first = callbacks.first else { throw ConformanceFailure("\(scenario.id): no callback came") }
            switch scenario.play {
            case .twice:
                try expect(callbacks == [first, first], "\(scenario.id): not the same callback twice")
                try expect(try await ledger.verify(url: first).outcome == stated, "\(scenario.id): the first did not read as \(stated)")
                try await expectRefusal(.replayedNonce, "\(scenario.id)") { _ = try await ledger.verify(url: callbacks[1]) }
            case .late:
                try expect(scenario.outcome == nil, "\(scenario.id): the ledger refuses it, yet the catalog states \(stated)")
                clock.advance(61)
                try await expectRefusal(.expiredNonce, "\(scenario.id)") { _ = try await ledger.verify(url: first) }
            case .anotherApp:
                try expect(scenario.outcome == nil, "\(scenario.id): the ledger refuses it, yet the catalog states \(stated)")
                try expect(try PaymentCallback.parse(first).provider != app.simulator.provider, "\(scenario.id): the answer is the app's own")
                do {
                    _ = try await ledger.verify(url: first)
                    throw ConformanceFailure("\(scenario.id): another app's answer was accepted")
                } catch is ChargeKitError {}
                try expect(try await ledger.outstanding().map(\.nonce) == [charge.nonce], "\(scenario.id): refused, yet the hand-off no longer waits")
            default:
                try expect(callbacks.count == 1, "\(scenario.id): \(callbacks.count) callbacks")
                let result = try await ledger.verify(url: first)
                try expect(result.outcome == stated, "\(scenario.id): the ledger reads \(result.outcome), the catalog states \(stated)")
                try expect(result.charge.nonce == charge.nonce && result.provider == app.simulator.provider, "\(scenario.id): another charge or app")
            }
        }
    }

    static func forgedIsRefused(_ app: App) async throws {
        let ledger = ChargeLedger()
        let (charge, request) = try await issue(app, ledger)
        let forged = try approved(app, url: request.url).replacingOccurrences(of: charge.nonce.value, with: Nonce.random().value)
        try await expectRefusal(.unknownNonce, "\(app): a forged answer") { _ = try await ledger.verify(url: forged) }
        try expect(try await ledger.outstanding().map(\.nonce) == [charge.nonce], "\(app): a forgery touched the real hand-off")
    }

    static func replayIsRefused(_ app: App) async throws {
        let ledger = ChargeLedger()
        let (_, request) = try await issue(app, ledger)
        let callback = try approved(app, url: request.url)
        try expect(try await ledger.verify(url: callback).isApprovedSale, "\(app): the genuine approval is not an approved sale")
        try await expectRefusal(.replayedNonce, "\(app): the same answer again") { _ = try await ledger.verify(url: callback) }
    }

    static func crossedIsRefused(_ app: App) async throws {
        let ledger = ChargeLedger()
        let (first, firstRequest) = try await issue(app, ledger, order(app, 1250, reference: "order-a"))
        let (second, _) = try await issue(app, ledger, order(app, 9900, reference: "order-b"))
        let crossed = try approved(app, url: firstRequest.url).replacingOccurrences(of: first.nonce.value, with: second.nonce.value)
        // Refused, or (an app whose amount may be changed in the app) accepted with a flag.
        do {
            let result = try await ledger.verify(url: crossed)
            try expect(!result.flags.isEmpty, "\(app): the answer to 12.50 (order-a) was accepted for 99.00 (order-b), unflagged")
        } catch is ChargeKitError {
            try expect(Set(try await ledger.outstanding().map(\.nonce)) == [first.nonce, second.nonce], "\(app): a refused answer settled a charge")
        }
    }

    static func hostileAnswers(_ app: App) async throws {
        let ledger = ChargeLedger()
        let (_, request) = try await issue(app, ledger)
        let genuine = try approved(app, url: request.url)
        let bytes = Array(genuine.utf8)
        // Every prefix, and every byte replaced by a delimiter, an escape start, NUL or a
        // byte that is not UTF-8: each is read or refused, never a trap.
        for index in bytes.indices {
            _ = try? PaymentCallback.parse(String(decoding: bytes[..<index], as: UTF8.self), provider: app.simulator.provider)
            for replacement: UInt8 in [0x00, 0x25, 0x26, 0x3D, 0x23, 0xFF] {
                var changed = bytes
                changed[index] = replacement
                _ = try? PaymentCallback.parse(String(decoding: changed, as: UTF8.self), provider: app.simulator.provider)
            }
        }
        // A huge field and invalid UTF-8 through the ledger: refused.
        let huge = genuine + "&x=" + String(repeating: "A", count: 64 * 1024)
        do {
            _ = try await ledger.verify(url: huge)
            throw ConformanceFailure("\(app): a 64 KiB field was accepted")
        } catch is ChargeKitError {}
        let invalid = genuine + "&x=%FF%FE"
        if let result = try? await ledger.verify(url: invalid) {
            throw ConformanceFailure("\(app): invalid UTF-8 was accepted (\(result.outcome))")
        }
        try expect(try await ledger.verify(url: genuine).isApprovedSale, "\(app): after the hostile ones, the genuine answer is refused")
    }

    static func coldLaunch(_ app: App) async throws {
        guard let scenario = app.simulator.scenarios.first(where: \.coldLaunchesCaller) else { return }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("chargekit-conformance-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("ledger")
        var callbacks: [String] = []
        var nonce: Nonce?
        do {
            // The app that handed off, then is reset: its ledger instance is gone.
            let before = ChargeLedger(store: FileLedgerStore(fileURL: file))
            let (charge, request) = try await issue(app, before)
            nonce = charge.nonce
            callbacks = try play(scenario, app, url: request.url)
        }
        guard let first = callbacks.first, callbacks.count == 1 else { throw ConformanceFailure("\(scenario.id): not one callback") }
        let after = ChargeLedger(store: FileLedgerStore(fileURL: file))
        try expect(try await after.outstanding().map(\.nonce) == [nonce].compactMap { $0 }, "\(scenario.id): the relaunched app does not see the hand-off")
        let result = try await after.verify(url: first)
        try expect(result.outcome == scenario.outcome && result.charge.nonce == nonce, "\(scenario.id): read as \(result.outcome)")
    }
}
