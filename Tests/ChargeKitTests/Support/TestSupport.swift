@_spi(Tools) @testable import ChargeKit
import ChargeKitSimulators
import Foundation

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

func makeStack(ledger: ChargeLedger = ChargeLedger(), outcome: ChargeOutcome = .approved) async -> (PaymentCoordinator, SimulatedDevice, Inbox) {
    let inbox = Inbox()
    let device = SimulatedDevice(outcome: outcome, apps: SimulatedApps(SumUpSimulator(merchantCurrency: "USD"), ZettleSimulator(accountCurrency: "USD"))) { url in
        await inbox.deliver(url)
    }
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

func chargeRequest(_ amount: String = "50.00", extras: [QueryItem] = [QueryItem("record_id", "123")]) throws -> CreditCardTerminal.ChargeRequest {
    try CreditCardTerminal.ChargeRequest(chargeFields(amount, extras: extras))
}

/// The fields of ``chargeRequest(_:extras:)``, to change before the request is made.
func chargeFields(_ amount: String = "50.00", extras: [QueryItem] = [QueryItem("record_id", "123")]) throws -> CreditCardTerminal.ChargeRequest.Fields {
    var fields = CreditCardTerminal.ChargeRequest.Fields()
    fields.setReturnURL("com-innerfence-ChargeDemo://chargeResponse", extraParams: extras)
    fields.amount = try Money(parsing: amount, currency: .usd)
    fields.taxRate = .percent("8.5")
    return fields
}

/// The apps that return an order's extras on their callback (apps that return only their own fields, such as Square, are not here).
let callbackURL = "my-shop://payment-result"
let allApps: [PaymentApp] = [
    .creditCardTerminal(returnURL: callbackURL),
    .sumUp(affiliateKey: "AFF", callbackURL: callbackURL),
    .zettle(apiKey: "KEY", source: "Shop", callbackURL: callbackURL),
    .zettleAPI(callbackURL: callbackURL),
]
