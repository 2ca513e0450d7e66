import Benchmark
import ChargeKit
import Foundation

// Each ChargeKit operation runs beside a Foundation URLComponents-based version of
// the same work on the same input, in the same run. Before measuring, both paths
// are checked to give identical results.

/// The seeds' callbacks.
enum Inputs {
    static let creditCardTerminal = "com-your-app://action/?ifcc_responseType=approved&ifcc_transactionId=100001&ifcc_amount=10.99&ifcc_currency=USD&ifcc_redactedCardNumber=XXXXXXXXXXXX1111&ifcc_cardType=Visa&ifcc_taxAmount=0.93&ifcc_taxRate=8.5&ifcc_tipAmount=1.50"
    static let sumUp = "samplepaymentapp://?smp-status=success&smp-tx-code=TEENSY42&foreign-tx-id=ORDER-123&smp-message=Transaction%20successful"
    static let zettle = "my-app://ok?reference=R1&referenceNumber=ABC123&entryMode=EMV&obfuscatedPan=****%20****%20****%201111&cardBrand=VISA&AID=A0000000031010"
}

/// The fields each parse yields, for comparing the two paths.
struct Fields: Equatable {
    var values: [String: String]
}

/// ChargeKit: parse and validate with the provider's own type.
func chargeKitCreditCardTerminal(_ url: String) -> Fields? {
    guard let response = try? CreditCardTerminal.ChargeResponse(url: url) else { return nil }
    return Fields(values: [
        "ifcc_responseType": response.responseCode.rawValue, "ifcc_transactionId": response.transactionId ?? "",
        "ifcc_amount": response.amount?.formatted ?? "", "ifcc_currency": response.amount?.currency.code ?? "",
        "ifcc_redactedCardNumber": response.redactedCardNumber ?? "", "ifcc_cardType": response.cardType?.wireValue ?? "",
        "ifcc_taxAmount": response.taxAmount?.formatted ?? "", "ifcc_taxRate": response.taxRate ?? "",
        "ifcc_tipAmount": response.tipAmount?.formatted ?? "",
    ])
}

func chargeKitSumUp(_ url: String) -> Fields? {
    guard let callback = try? SumUp.Callback(url: url) else { return nil }
    return Fields(values: ["smp-status": callback.status.rawValue, "smp-tx-code": callback.transactionCode ?? "",
                           "foreign-tx-id": callback.foreignTransactionID ?? "", "smp-message": callback.message ?? ""])
}

func chargeKitZettle(_ url: String) -> Fields? {
    guard let callback = try? Zettle.Callback(url: url) else { return nil }
    let info = callback.paymentInfo
    return Fields(values: ["reference": callback.reference ?? "", "referenceNumber": info.referenceNumber ?? "",
                           "entryMode": info.entryMode?.wireValue ?? "", "obfuscatedPan": info.obfuscatedPan ?? "",
                           "cardBrand": info.cardBrand ?? "", "AID": info.aid ?? ""])
}

/// Foundation: URLComponents' query items, each name once, then the same checks a
/// careful app would make (known names, amounts as decimals).
func foundationParse(_ url: String, names: Set<String>, amounts: Set<String> = []) -> Fields? {
    guard let items = URLComponents(string: url)?.queryItems else { return nil }
    var values: [String: String] = [:]
    for item in items {
        guard names.contains(item.name), values[item.name] == nil, let value = item.value else { return nil }
        if amounts.contains(item.name) {
            guard let decimal = Decimal(string: value), decimal >= 0 else { return nil }
            let parts = value.split(separator: ".")
            guard parts.count <= 2, (parts.count == 1 ? 0 : parts[1].count) <= 2 else { return nil }
        }
        values[item.name] = value
    }
    return Fields(values: values)
}

let cctNames: Set<String> = ["ifcc_responseType", "ifcc_transactionId", "ifcc_amount", "ifcc_currency",
                             "ifcc_redactedCardNumber", "ifcc_cardType", "ifcc_taxAmount", "ifcc_taxRate", "ifcc_tipAmount"]
let sumUpNames: Set<String> = ["smp-status", "smp-tx-code", "foreign-tx-id", "smp-message"]
let zettleNames: Set<String> = ["reference", "referenceNumber", "entryMode", "obfuscatedPan", "cardBrand", "AID"]

/// ChargeKit: the seed's request URL.
func chargeKitRequestURL() -> String {
    var request = CreditCardTerminal.ChargeRequest()
    request.amount = Money(minorUnits: 1099, currency: .usd)
    request.email = "john@example.com"
    request.setReturnURL("com-your-app://action/")
    return (try? request.requestURL()) ?? ""
}

/// Foundation: the same URL with URLComponents (values encoded to RFC 3986 unreserved).
func foundationRequestURL() -> String {
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

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput],
                                           maxDuration: .seconds(2), maxIterations: 1_000_000)

    let pairs: [(String, String, @Sendable (String) -> Fields?, @Sendable (String) -> Fields?)] = [
        ("CreditCardTerminal callback", Inputs.creditCardTerminal, chargeKitCreditCardTerminal,
         { foundationParse($0, names: cctNames, amounts: ["ifcc_amount", "ifcc_taxAmount", "ifcc_tipAmount"]) }),
        ("SumUp callback", Inputs.sumUp, chargeKitSumUp, { foundationParse($0, names: sumUpNames) }),
        ("Zettle callback", Inputs.zettle, chargeKitZettle, { foundationParse($0, names: zettleNames) }),
    ]
    for (name, input, chargeKit, foundation) in pairs {
        precondition(chargeKit(input) != nil && chargeKit(input) == foundation(input), "\(name): the two paths differ")
        Benchmark("\(name) / ChargeKit") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(chargeKit(input)) }
        }
        Benchmark("\(name) / URLComponents") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(foundation(input)) }
        }
    }
    precondition(chargeKitRequestURL() == foundationRequestURL(), "request URL: the two paths differ")
    Benchmark("CreditCardTerminal request URL / ChargeKit") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(chargeKitRequestURL()) }
    }
    Benchmark("CreditCardTerminal request URL / URLComponents") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(foundationRequestURL()) }
    }
}
