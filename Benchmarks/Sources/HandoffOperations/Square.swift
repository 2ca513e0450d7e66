import ChargeKit
import ChargeKitSimulators
import Foundation

/// Square Point of Sale's success answer (protocol notes §6): `data` JSON on the app's marked URL.
enum SquareOperations {
    static let callback = "my-app://callback/square_request?data=%7B%22client_transaction_id%22%3A%22B38749E2-806A-4E36-B5B3-3D24B2AF3E05%22%2C%22state%22%3A%22cCAr3GYSKZFrh_rnI4bPzwNJjar.321%22%2C%22status%22%3A%22ok%22%2C%22transaction_id%22%3A%229351097989SIM%22%7D"

    /// ChargeKit: parse and validate with the provider's own type.
    static func chargeKit(_ url: String) -> Fields? {
        guard let callback = try? Square.Callback(url: url) else { return nil }
        return Fields(values: ["status": callback.status.rawValue, "transaction_id": callback.transactionID ?? "",
                               "client_transaction_id": callback.clientTransactionID ?? "", "state": callback.rawState ?? ""])
    }

    /// Foundation: URLComponents' `data` item (once), JSONSerialization's object, and the
    /// same checks (a status of ok or error, string members).
    static func foundation(_ url: String) -> Fields? {
        guard let items = URLComponents(string: url)?.queryItems, items.count == 1, items[0].name == "data",
              let text = items[0].value,
              let object = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any],
              let status = object["status"] as? String, status == "ok" || status == "error" else { return nil }
        var values = ["status": status]
        for name in ["transaction_id", "client_transaction_id", "state"] {
            guard let value = object[name] else { values[name] = ""; continue }
            guard let string = value as? String else { return nil }
            values[name] = string
        }
        return Fields(values: values)
    }
}

extension HandoffOperation {
    /// Square Point of Sale's callback.
    static let square: [HandoffOperation] = {
        typealias App = SquareOperations
        return [HandoffOperation(name: "Square callback", chargeKit: { App.chargeKit(App.callback) },
                                 foundation: { App.foundation(App.callback) },
                                 chargeKitWork: { (try? Square.Callback(url: App.callback)) != nil })]
    }()
}

extension SquareSimulator: BenchmarkedApp {
    static var benchmarkOperations: [HandoffOperation] { HandoffOperation.square }
}
