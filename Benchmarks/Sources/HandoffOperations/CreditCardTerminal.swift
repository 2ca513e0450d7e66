import ChargeKit
import ChargeKitSimulators
import Foundation

/// Credit Card Terminal's callback (plain and FileMaker) and the seed's request URL.
enum CreditCardTerminalOperations {
    /// The seed's callback.
    static let plain = "com-your-app://action/?ifcc_responseType=approved&ifcc_transactionId=100001&ifcc_amount=10.99&ifcc_currency=USD&ifcc_redactedCardNumber=XXXXXXXXXXXX1111&ifcc_cardType=Visa&ifcc_taxAmount=0.93&ifcc_taxRate=8.5&ifcc_tipAmount=1.50"
    /// The callback of a request made with `fm=1` (FileMaker: `$` before every name).
    static let fileMaker = plain.replacingOccurrences(of: "ifcc_", with: "$ifcc_")

    static let names: Set<String> = ["ifcc_responseType", "ifcc_transactionId", "ifcc_amount", "ifcc_currency",
                                     "ifcc_redactedCardNumber", "ifcc_cardType", "ifcc_taxAmount", "ifcc_taxRate", "ifcc_tipAmount"]
    static let amounts: Set<String> = ["ifcc_amount", "ifcc_taxAmount", "ifcc_tipAmount"]

    /// ChargeKit: parse and validate with the provider's own type.
    static func chargeKit(_ url: String) -> Fields? {
        guard let response = try? CreditCardTerminal.ChargeResponse(url: url) else { return nil }
        return Fields(values: [
            "ifcc_responseType": response.responseCode.rawValue, "ifcc_transactionId": response.transactionId ?? "",
            "ifcc_amount": response.amount?.formatted ?? "", "ifcc_currency": response.amount?.currency.code ?? "",
            "ifcc_redactedCardNumber": response.redactedCardNumber ?? "", "ifcc_cardType": response.cardType?.rawValue ?? "",
            "ifcc_taxAmount": response.taxAmount?.formatted ?? "", "ifcc_taxRate": response.taxRate ?? "",
            "ifcc_tipAmount": response.tipAmount?.formatted ?? "",
        ])
    }

    /// ChargeKit: the seed's request URL.
    static func chargeKitRequestURL() -> String {
        var fields = CreditCardTerminal.ChargeRequest.Fields()
        fields.amount = Money(minorUnits: 1099, currency: .usd)
        fields.email = "john@example.com"
        fields.setReturnURL("com-your-app://action/")
        return (try? CreditCardTerminal.ChargeRequest(fields).requestURL()) ?? ""
    }

    /// Foundation: the same URL with URLComponents (values encoded to RFC 3986 unreserved).
    static func foundationRequestURL() -> String {
        var components = URLComponents()
        components.scheme = "com-innerfence-ccterminal"
        components.host = "charge"
        components.path = "/1.0.0/"
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        func item(_ name: String, _ value: String) -> URLQueryItem {
            URLQueryItem(name: name, value: value.addingPercentEncoding(withAllowedCharacters: allowed))
        }
        components.percentEncodedQueryItems = [item("amount", "10.99"), item("email", "john@example.com"),
                                               item("returnURL", "com-your-app://action/")]
        return components.string ?? ""
    }
}

extension HandoffOperation {
    /// Credit Card Terminal's callbacks and its request URL.
    static let creditCardTerminal: [HandoffOperation] = {
        typealias App = CreditCardTerminalOperations
        return [
            HandoffOperation(name: "CreditCardTerminal callback", chargeKit: { App.chargeKit(App.plain) },
                             foundation: { foundationParse(App.plain, names: App.names, amounts: App.amounts) },
                             chargeKitWork: { (try? CreditCardTerminal.ChargeResponse(url: App.plain)) != nil }),
            HandoffOperation(name: "CreditCardTerminal callback, FileMaker", chargeKit: { App.chargeKit(App.fileMaker) },
                             foundation: { foundationParse(App.fileMaker, names: App.names, amounts: App.amounts, prefix: "$") },
                             chargeKitWork: { (try? CreditCardTerminal.ChargeResponse(url: App.fileMaker)) != nil }),
            HandoffOperation(name: "CreditCardTerminal request URL", chargeKit: { Fields(values: ["url": App.chargeKitRequestURL()]) },
                             foundation: { Fields(values: ["url": App.foundationRequestURL()]) },
                             chargeKitWork: { !App.chargeKitRequestURL().isEmpty }),
        ]
    }()
}

extension CreditCardTerminalSimulator: BenchmarkedApp {
    static var benchmarkOperations: [HandoffOperation] { HandoffOperation.creditCardTerminal }
}
