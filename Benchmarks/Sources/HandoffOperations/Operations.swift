import ChargeKit
import Foundation

// The operations the benchmarks time and the instruction counter counts: each
// ChargeKit operation beside a Foundation URLComponents-based version of the same
// work on the same input. `HandoffOperation.all` checks that both paths agree.

/// The seeds' callbacks.
public enum Inputs {
    public static let creditCardTerminal = "com-your-app://action/?ifcc_responseType=approved&ifcc_transactionId=100001&ifcc_amount=10.99&ifcc_currency=USD&ifcc_redactedCardNumber=XXXXXXXXXXXX1111&ifcc_cardType=Visa&ifcc_taxAmount=0.93&ifcc_taxRate=8.5&ifcc_tipAmount=1.50"
    public static let sumUp = "samplepaymentapp://?smp-status=success&smp-tx-code=TEENSY42&foreign-tx-id=ORDER-123&smp-message=Transaction%20successful"
    public static let zettle = "my-app://ok?reference=R1&referenceNumber=ABC123&entryMode=EMV&obfuscatedPan=****%20****%20****%201111&cardBrand=VISA&AID=A0000000031010"
    /// The Credit Card Terminal callback of a request made with `fm=1` (FileMaker: `$` before every name).
    public static let creditCardTerminalFileMaker = creditCardTerminal.replacingOccurrences(of: "ifcc_", with: "$ifcc_")
    /// A Zettle 3.0 wrapper success callback (protocol notes §5): its `operationUUID`
    /// and the EMV payment info.
    /// A Point of Sale success answer (protocol notes §6): `data` JSON on the app's marked URL.
    public static let square = "my-app://callback/square_request?data=%7B%22client_transaction_id%22%3A%22B38749E2-806A-4E36-B5B3-3D24B2AF3E05%22%2C%22state%22%3A%22cCAr3GYSKZFrh_rnI4bPzwNJjar.321%22%2C%22status%22%3A%22ok%22%2C%22transaction_id%22%3A%229351097989SIM%22%7D"
    /// A Viva.com Terminal answer as the real app writes it (protocol notes §7): values
    /// unencoded, raw spaces and `*`, a literal `+` in `transactionDate`.
    public static let viva = "instoreapp://result?status=success&message=Transaction successful&action=sale&clientTransactionId=cCAr3GYSKZFrh_rnI4bPzwNJjar.321&amount=1000&tipAmount=0&verificationMethod=CONTACTLESS - NO CVM&rrn=432100012345&cardType=Debit Mastercard&accountNumber=535686******1364&referenceNumber=123456&authorisationCode=654321&tid=16007513&orderCode=4321000123456789&shortOrderCode=4321000123&transactionDate=2024-11-17T00:16:11.4043324+02:00&transactionId=0b1e5c8a-3c1f-4a0e-9a42-6f2d9d1b7e55&installments=0&aid=A0000000041010&paymentMethod=CARD_PRESENT"
    public static let zettle3 = "my-app://ok?operationUUID=5F0B1B7C-9C1E-4B7A-9A7D-2E8C0D8E4F11&reference=R1&referenceNumber=ABC123&entryMode=EMV&obfuscatedPan=****%20****%20****%201111&cardBrand=VISA&AID=A0000000031010&TSI=E800&TVR=0000008000&applicationName=VISA%20CREDIT"
}

/// The fields each parse yields, for comparing the two paths.
public struct Fields: Equatable, Sendable {
    public var values: [String: String]
}

/// ChargeKit: parse and validate with the provider's own type.
public func chargeKitCreditCardTerminal(_ url: String) -> Fields? {
    guard let response = try? CreditCardTerminal.ChargeResponse(url: url) else { return nil }
    return Fields(values: [
        "ifcc_responseType": response.responseCode.rawValue, "ifcc_transactionId": response.transactionId ?? "",
        "ifcc_amount": response.amount?.formatted ?? "", "ifcc_currency": response.amount?.currency.code ?? "",
        "ifcc_redactedCardNumber": response.redactedCardNumber ?? "", "ifcc_cardType": response.cardType?.rawValue ?? "",
        "ifcc_taxAmount": response.taxAmount?.formatted ?? "", "ifcc_taxRate": response.taxRate ?? "",
        "ifcc_tipAmount": response.tipAmount?.formatted ?? "",
    ])
}

public func chargeKitSumUp(_ url: String) -> Fields? {
    guard let callback = try? SumUp.Callback(url: url) else { return nil }
    return Fields(values: ["smp-status": callback.status.rawValue, "smp-tx-code": callback.transactionCode ?? "",
                           "foreign-tx-id": callback.foreignTransactionID ?? "", "smp-message": callback.message ?? ""])
}

public func chargeKitZettle(_ url: String) -> Fields? {
    guard let callback = try? Zettle.Callback(url: url) else { return nil }
    let info = callback.paymentInfo
    var values = ["reference": callback.reference ?? "", "referenceNumber": info.referenceNumber ?? "",
                  "entryMode": info.entryMode?.rawValue ?? "", "obfuscatedPan": info.obfuscatedPan ?? "",
                  "cardBrand": info.cardBrand ?? "", "AID": info.aid ?? ""]
    if let uuid = callback.operationUUID {
        values["operationUUID"] = uuid
        values["TSI"] = info.tsi ?? ""
        values["TVR"] = info.tvr ?? ""
        values["applicationName"] = info.applicationName ?? ""
    }
    return Fields(values: values)
}

public func chargeKitSquare(_ url: String) -> Fields? {
    guard let callback = try? Square.Callback(url: url) else { return nil }
    return Fields(values: ["status": callback.status.rawValue, "transaction_id": callback.transactionID ?? "",
                           "client_transaction_id": callback.clientTransactionID ?? "", "state": callback.rawState ?? ""])
}

public func chargeKitViva(_ url: String) -> Fields? {
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
public func foundationViva(_ url: String) -> Fields? {
    guard let items = URLComponents(string: url.replacingOccurrences(of: " ", with: "%20"))?.queryItems else { return nil }
    var values: [String: String] = [:]
    for item in items {
        guard vivaNames.contains(item.name), values[item.name] == nil, let value = item.value else { return nil }
        if item.name == "amount" || item.name == "tipAmount" { guard Int64(value) != nil else { return nil } }
        values[item.name] = value
    }
    return Fields(values: values)
}

public let vivaNames: Set<String> = [
    "status", "message", "action", "clientTransactionId", "amount", "tipAmount", "verificationMethod", "rrn", "cardType",
    "accountNumber", "referenceNumber", "authorisationCode", "tid", "orderCode", "shortOrderCode", "transactionDate",
    "transactionId", "installments", "aid", "paymentMethod",
]

/// Foundation: URLComponents' `data` item (once), JSONSerialization's object, and the
/// same checks (a status of ok or error, string members).
public func foundationSquare(_ url: String) -> Fields? {
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

/// Foundation: URLComponents' query items, each name once, then the same checks a
/// careful app would make (known names, amounts as decimals).
public func foundationParse(_ url: String, names: Set<String>, amounts: Set<String> = [], prefix: String = "") -> Fields? {
    guard let items = URLComponents(string: url)?.queryItems else { return nil }
    var values: [String: String] = [:]
    for item in items {
        guard item.name.hasPrefix(prefix) else { return nil }
        let name = String(item.name.dropFirst(prefix.count))
        guard names.contains(name), values[name] == nil, let value = item.value else { return nil }
        if amounts.contains(name) {
            guard let decimal = Decimal(string: value), decimal >= 0 else { return nil }
            let parts = value.split(separator: ".")
            guard parts.count <= 2, (parts.count == 1 ? 0 : parts[1].count) <= 2 else { return nil }
        }
        values[name] = value
    }
    return Fields(values: values)
}

public let cctNames: Set<String> = ["ifcc_responseType", "ifcc_transactionId", "ifcc_amount", "ifcc_currency",
                             "ifcc_redactedCardNumber", "ifcc_cardType", "ifcc_taxAmount", "ifcc_taxRate", "ifcc_tipAmount"]
public let sumUpNames: Set<String> = ["smp-status", "smp-tx-code", "foreign-tx-id", "smp-message"]
public let zettleNames: Set<String> = ["reference", "referenceNumber", "entryMode", "obfuscatedPan", "cardBrand", "AID"]
public let zettle3Names = zettleNames.union(["operationUUID", "TSI", "TVR", "applicationName"])
let cctAmounts: Set<String> = ["ifcc_amount", "ifcc_taxAmount", "ifcc_tipAmount"]

/// ChargeKit: the seed's request URL.
public func chargeKitRequestURL() -> String {
    var fields = CreditCardTerminal.ChargeRequest.Fields()
    fields.amount = Money(minorUnits: 1099, currency: .usd)
    fields.email = "john@example.com"
    fields.setReturnURL("com-your-app://action/")
    return (try? CreditCardTerminal.ChargeRequest(fields).requestURL()) ?? ""
}

/// Foundation: the same URL with URLComponents (values encoded to RFC 3986 unreserved).
public func foundationRequestURL() -> String {
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


/// One operation: the ChargeKit path and the URLComponents path of the same work.
public struct HandoffOperation: Sendable {
    /// The name in the tables.
    public var name: String
    /// ChargeKit's way, giving the fields it read (for the comparison).
    public var chargeKit: @Sendable () -> Fields?
    /// Foundation's way, giving the fields it read (for the comparison).
    public var foundation: @Sendable () -> Fields?
    /// ChargeKit's work alone, as measured: parse and validate (or build), nothing else.
    public var chargeKitWork: @Sendable () -> Bool
    /// Foundation's work alone, as measured.
    public var foundationWork: @Sendable () -> Bool

    init(name: String, chargeKit: @escaping @Sendable () -> Fields?, foundation: @escaping @Sendable () -> Fields?,
         chargeKitWork: (@Sendable () -> Bool)? = nil) {
        self.name = name
        self.chargeKit = chargeKit
        self.foundation = foundation
        self.chargeKitWork = chargeKitWork ?? { chargeKit() != nil }
        self.foundationWork = { foundation() != nil }
    }

    /// Every operation, after checking that both paths give the same, non-empty result
    /// (stops the program otherwise: a benchmark of different work would mislead).
    public static let all: [HandoffOperation] = {
        let request: @Sendable () -> Fields? = { Fields(values: ["url": chargeKitRequestURL()]) }
        let operations = [
            HandoffOperation(name: "CreditCardTerminal callback", chargeKit: { chargeKitCreditCardTerminal(Inputs.creditCardTerminal) },
                             foundation: { foundationParse(Inputs.creditCardTerminal, names: cctNames, amounts: cctAmounts) },
                             chargeKitWork: { (try? CreditCardTerminal.ChargeResponse(url: Inputs.creditCardTerminal)) != nil }),
            HandoffOperation(name: "CreditCardTerminal callback, FileMaker",
                             chargeKit: { chargeKitCreditCardTerminal(Inputs.creditCardTerminalFileMaker) },
                             foundation: { foundationParse(Inputs.creditCardTerminalFileMaker, names: cctNames, amounts: cctAmounts, prefix: "$") },
                             chargeKitWork: { (try? CreditCardTerminal.ChargeResponse(url: Inputs.creditCardTerminalFileMaker)) != nil }),
            HandoffOperation(name: "SumUp callback", chargeKit: { chargeKitSumUp(Inputs.sumUp) },
                             foundation: { foundationParse(Inputs.sumUp, names: sumUpNames) },
                             chargeKitWork: { (try? SumUp.Callback(url: Inputs.sumUp)) != nil }),
            HandoffOperation(name: "Zettle 1.0 callback", chargeKit: { chargeKitZettle(Inputs.zettle) },
                             foundation: { foundationParse(Inputs.zettle, names: zettleNames) },
                             chargeKitWork: { (try? Zettle.Callback(url: Inputs.zettle)) != nil }),
            HandoffOperation(name: "Zettle 3.0 callback", chargeKit: { chargeKitZettle(Inputs.zettle3) },
                             foundation: { foundationParse(Inputs.zettle3, names: zettle3Names) },
                             chargeKitWork: { (try? Zettle.Callback(url: Inputs.zettle3)) != nil }),
            HandoffOperation(name: "Square callback", chargeKit: { chargeKitSquare(Inputs.square) },
                             foundation: { foundationSquare(Inputs.square) },
                             chargeKitWork: { (try? Square.Callback(url: Inputs.square)) != nil }),
            HandoffOperation(name: "Viva callback", chargeKit: { chargeKitViva(Inputs.viva) },
                             foundation: { foundationViva(Inputs.viva) },
                             chargeKitWork: { (try? Viva.Callback(url: Inputs.viva)) != nil }),
            HandoffOperation(name: "CreditCardTerminal request URL", chargeKit: request,
                             foundation: { Fields(values: ["url": foundationRequestURL()]) },
                             chargeKitWork: { !chargeKitRequestURL().isEmpty }),
        ]
        for operation in operations {
            let result = operation.chargeKit()
            precondition(result != nil && result != Fields(values: [:]) && result == operation.foundation(),
                         "\(operation.name): the two paths differ: \(String(describing: result)) / \(String(describing: operation.foundation()))")
        }
        return operations
    }()
}
