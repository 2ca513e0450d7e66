import ChargeKit
import ChargeKitSimulators
import Foundation

/// A Viva.com Terminal answer as the real app writes it (protocol notes §7): values
/// unencoded, raw spaces and `*`, a literal `+` in `transactionDate`.
enum VivaOperations {
    static let callback = "instoreapp://result?status=success&message=Transaction successful&action=sale&clientTransactionId=cCAr3GYSKZFrh_rnI4bPzwNJjar.321&amount=1000&tipAmount=0&verificationMethod=CONTACTLESS - NO CVM&rrn=432100012345&cardType=Debit Mastercard&accountNumber=535686******1364&referenceNumber=123456&authorisationCode=654321&tid=16007513&orderCode=4321000123456789&shortOrderCode=4321000123&transactionDate=2024-11-17T00:16:11.4043324+02:00&transactionId=0b1e5c8a-3c1f-4a0e-9a42-6f2d9d1b7e55&installments=0&aid=A0000000041010&paymentMethod=CARD_PRESENT"
    static let names: Set<String> = [
        "status", "message", "action", "clientTransactionId", "amount", "tipAmount", "verificationMethod", "rrn", "cardType",
        "accountNumber", "referenceNumber", "authorisationCode", "tid", "orderCode", "shortOrderCode", "transactionDate",
        "transactionId", "installments", "aid", "paymentMethod",
    ]

    /// ChargeKit: parse and validate with the provider's own type.
    static func chargeKit(_ url: String) -> Fields? {
        guard let callback = try? Viva.Callback(url: url) else { return nil }
        var values = callback.details
        values["status"] = callback.status
        values["message"] = callback.message ?? ""
        values["action"] = callback.action ?? ""
        values["clientTransactionId"] = callback.clientTransactionID ?? ""
        values["amount"] = callback.amountMinorUnits.map(String.init) ?? ""
        values["tipAmount"] = callback.tipMinorUnits.map(String.init) ?? ""
        return Fields(values: values)
    }

    /// Foundation: the raw spaces escaped (URLComponents refuses them), then its query
    /// items, each name once, known names, amounts as whole numbers.
    static func foundation(_ url: String) -> Fields? {
        guard let items = URLComponents(string: url.replacingOccurrences(of: " ", with: "%20"))?.queryItems else { return nil }
        var values: [String: String] = [:]
        for item in items {
            guard names.contains(item.name), values[item.name] == nil, let value = item.value else { return nil }
            if item.name == "amount" || item.name == "tipAmount" { guard Int64(value) != nil else { return nil } }
            values[item.name] = value
        }
        return Fields(values: values)
    }
}

extension HandoffOperation {
    /// Viva.com Terminal's callback.
    static let viva: [HandoffOperation] = {
        typealias App = VivaOperations
        return [HandoffOperation(name: "Viva callback", chargeKit: { App.chargeKit(App.callback) },
                                 foundation: { App.foundation(App.callback) },
                                 chargeKitWork: { (try? Viva.Callback(url: App.callback)) != nil })]
    }()
}

extension VivaSimulator: BenchmarkedApp {
    static var benchmarkOperations: [HandoffOperation] { HandoffOperation.viva }
}
