import ChargeKit
import ChargeKitSimulators
import Foundation

/// Nexi POS's documented answer (protocol notes §8): an ordinary percent-encoded query,
/// `acquirerName` and `merchantId` padded with runs of `%20`.
enum NexiOperations {
    static let callback = "demonexi://payment?result=0&amount=1&callerTrxId=cCAr3GYSKZFrh_rnI4bPzwNJjar.321&operationType=PAYMENT&actionCode=000&pan=************5938&transactionType=CLI&timestamp=0912202317&resultDescription=&cardTypeCVM=2&acquirerId=00000000003&stan=000002&operationNumber=000031&acquirerName=NEXI%20%20%20%20%20%20%20%20%20%20%20%20&terminalId=30350039&merchantId=0000091%20%20%20%20%20%20%20%20&authorizationNumber=012651&urlTicket=https%3A%2F%2Freceipts.example%2Fnexi%2F000031.png"
    static let names: Set<String> = [
        "result", "amount", "callerTrxId", "operationType", "actionCode", "pan", "transactionType", "timestamp", "resultDescription",
        "cardTypeCVM", "acquirerId", "stan", "operationNumber", "acquirerName", "terminalId", "merchantId", "authorizationNumber", "urlTicket",
    ]

    /// ChargeKit: parse and validate with the provider's own type.
    static func chargeKit(_ url: String) -> Fields? {
        guard let callback = try? Nexi.Callback(url: url) else { return nil }
        var values = callback.details
        values["result"] = callback.result
        values["amount"] = callback.amountMinorUnits.map(String.init) ?? ""
        values["callerTrxId"] = callback.callerTrxID ?? ""
        values["operationType"] = callback.operationType
        return Fields(values: values)
    }

    /// Foundation: URLComponents' query items, each name once, known names, the amount a
    /// whole number, the padding trimmed.
    static func foundation(_ url: String) -> Fields? {
        guard let items = URLComponents(string: url)?.queryItems else { return nil }
        var values: [String: String] = [:]
        for item in items {
            guard names.contains(item.name), values[item.name] == nil, let value = item.value else { return nil }
            if item.name == "amount" { guard Int64(value) != nil else { return nil } }
            values[item.name] = value.trimmingCharacters(in: .whitespaces)
        }
        return Fields(values: values)
    }
}

extension NexiSimulator: BenchmarkedApp {
    /// Nexi POS's callback.
    static var benchmarkOperations: [HandoffOperation] {
        typealias App = NexiOperations
        return [HandoffOperation(name: "Nexi callback", chargeKit: { App.chargeKit(App.callback) },
                                 foundation: { App.foundation(App.callback) },
                                 chargeKitWork: { (try? Nexi.Callback(url: App.callback)) != nil })]
    }
}
