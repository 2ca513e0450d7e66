import ChargeKit
import ChargeKitSimulators
import Foundation

/// SumUp's callback, as the seed shows it.
enum SumUpOperations {
    static let callback = "samplepaymentapp://?smp-status=success&smp-tx-code=TEENSY42&foreign-tx-id=ORDER-123&smp-message=Transaction%20successful"
    static let names: Set<String> = ["smp-status", "smp-tx-code", "foreign-tx-id", "smp-message"]

    /// ChargeKit: parse and validate with the provider's own type.
    static func chargeKit(_ url: String) -> Fields? {
        guard let callback = try? SumUp.Callback(url: url) else { return nil }
        return Fields(values: ["smp-status": callback.status.rawValue, "smp-tx-code": callback.transactionCode ?? "",
                               "foreign-tx-id": callback.foreignTransactionID ?? "", "smp-message": callback.message ?? ""])
    }
}

extension HandoffOperation {
    /// SumUp's callback.
    static let sumUp: [HandoffOperation] = {
        typealias App = SumUpOperations
        return [HandoffOperation(name: "SumUp callback", chargeKit: { App.chargeKit(App.callback) },
                                 foundation: { foundationParse(App.callback, names: App.names) },
                                 chargeKitWork: { (try? SumUp.Callback(url: App.callback)) != nil })]
    }()
}

extension SumUpSimulator: BenchmarkedApp {
    static var benchmarkOperations: [HandoffOperation] { HandoffOperation.sumUp }
}
