@_spi(Tools) @testable import ChargeKit
import ChargeKitSimulators
import Foundation
import Testing

// The helpers of the SDK's tests, shared with Tools/Tests/ChargeKitToolsTests (a link
// to this file): one place for each.

/// Lets a device deliver to a coordinator made after it.
actor Inbox {
    var coordinator: PaymentCoordinator?
    var refused: [ChargeKitError] = []
    func set(_ coordinator: PaymentCoordinator) { self.coordinator = coordinator }
    func deliver(_ url: String) async {
        do throws(ChargeKitError) { _ = try await coordinator?.handle(url: url) } catch { refused.append(error) }
    }
}

/// A coordinator whose payment apps are the registered simulators (as installed),
/// answering with `outcome`, and the inbox their callbacks reach it through.
func makeStack(ledger: ChargeLedger = ChargeLedger(), outcome: ChargeOutcome = .approved) async -> (PaymentCoordinator, SimulatedDevice, Inbox) {
    let inbox = Inbox()
    let device = SimulatedDevice(outcome: outcome) { url in await inbox.deliver(url) }
    let coordinator = PaymentCoordinator(ledger: ledger, opener: device)
    await inbox.set(coordinator)
    return (coordinator, device, inbox)
}

/// Collects the URLs an opener was asked to open.
actor OpenedURLs {
    private var urls: [String] = []
    private var waiting: [CheckedContinuation<String, Never>] = []
    func add(_ url: String) {
        if waiting.isEmpty { urls.append(url) } else { waiting.removeFirst().resume(returning: url) }
    }
    func next() async throws -> String {
        if !urls.isEmpty { return urls.removeFirst() }
        return await withCheckedContinuation { waiting.append($0) }
    }
}

/// A clock tests can move.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_800_000_000)
    var now: Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}

/// One protocol of one registered app, played by its simulator: what the tests of the
/// ledger and the coordinator hand off to, so that they name no app.
struct PlayedApp: CustomStringConvertible, Sendable {
    let simulator: any AppSimulator.Type
    let app: PaymentApp
    var provider: PaymentProvider { simulator.provider }
    /// The currency its orders are in.
    var currency: Currency { simulator.sampleCurrency }
    var description: String { "\(app)" }

    /// An order of `minorUnits` in the app's sample currency.
    func order(_ minorUnits: Int64 = 500, description: String? = nil, reference: String? = nil, extras: [QueryItem] = []) -> ChargeOrder {
        ChargeOrder(amount: Money(minorUnits: minorUnits, currency: currency), description: description, reference: reference, extras: extras)
    }
}

let callbackURL = "my-shop://payment-result"

/// Every protocol of every registered app, in the registry's order.
let everyApp: [PlayedApp] = SimulatedApps.registered.flatMap { simulator in
    simulator.sampleApps(callbackURL: callbackURL).map { PlayedApp(simulator: simulator, app: $0) }
}

/// The app the tests hand off to when any app will do: the first registered.
let example = everyApp[0]

/// An app other than `provider`'s, for the tests that cross two apps' answers.
func anotherApp(than provider: PaymentProvider) -> PlayedApp {
    everyApp.first { $0.provider != provider } ?? example
}

/// The apps that take an order's extras, and so must return them on their callback
/// (an app that returns only its own fields refuses an order with extras).
let appsKeepingExtras: [PlayedApp] = everyApp.filter { played in
    (try? played.app.handoff(for: played.order(extras: [QueryItem("record_id", "123")]), nonce: Nonce.random())) != nil
}

/// The callback the app that opens `requestURL` answers with (its registered simulator,
/// as installed: orders in its sample currency are answered).
func answer(_ requestURL: String, _ outcome: ChargeOutcome = .approved) throws(ChargeKitError) -> String {
    var apps = SimulatedApps()
    return try apps.respond(to: requestURL, outcome: outcome)
}

/// The hand-offs of `coordinator` still open, once there are `count`.
func waitForPending(_ coordinator: PaymentCoordinator, count: Int) async throws -> [PendingCharge] {
    for _ in 0..<500 {
        let pending = try await coordinator.pending()
        if pending.count >= count { return pending }
        try await Task.sleep(nanoseconds: 2_000_000)
    }
    throw ChargeKitError.cancelled
}

/// `value` encoded, `change` applied to its JSON text, decoded again.
func reDecoded<T: Codable>(_ value: T, _ change: (String) -> String) throws -> T {
    let json = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    #expect(try JSONDecoder().decode(T.self, from: Data(json.utf8)) as? AnyHashable == value as? AnyHashable)
    return try JSONDecoder().decode(T.self, from: Data(change(json).utf8))
}

/// Callback values are kept as places in the callback URL's string (``CallbackText``)
/// instead of strings: each app's oracles, the JSON its types coded before that change,
/// hold them to the same values, the same coding and the same equality.
enum CallbackOracles {
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Parses each URL, codes it, decodes the JSON and codes that again: the bytes of
    /// the oracle every time, and the decoded value equal to (and hashing as) the parsed one.
    static func check<T: Codable & Hashable>(_ cases: [(url: String, json: String)], _ parse: (String) throws -> T) throws {
        for (url, expected) in cases {
            let parsed = try parse(url)
            #expect(try json(parsed) == expected, "\(url)")
            let decoded = try JSONDecoder().decode(T.self, from: Data(expected.utf8))
            #expect(decoded == parsed, "\(url)")
            #expect(decoded.hashValue == parsed.hashValue, "\(url)")
            #expect(try json(decoded) == expected, "\(url)")
        }
    }
}
