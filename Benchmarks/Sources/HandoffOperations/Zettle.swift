import ChargeKit
import ChargeKitSimulators
import Foundation

/// Zettle's callbacks: 1.0's, and a 3.0 wrapper's success with its `operationUUID`
/// and the EMV payment info (protocol notes §5).
enum ZettleOperations {
    static let v1 = "my-app://ok?reference=R1&referenceNumber=ABC123&entryMode=EMV&obfuscatedPan=****%20****%20****%201111&cardBrand=VISA&AID=A0000000031010"
    static let v3 = "my-app://ok?operationUUID=5F0B1B7C-9C1E-4B7A-9A7D-2E8C0D8E4F11&reference=R1&referenceNumber=ABC123&entryMode=EMV&obfuscatedPan=****%20****%20****%201111&cardBrand=VISA&AID=A0000000031010&TSI=E800&TVR=0000008000&applicationName=VISA%20CREDIT"
    static let names: Set<String> = ["reference", "referenceNumber", "entryMode", "obfuscatedPan", "cardBrand", "AID"]
    static let v3Names = names.union(["operationUUID", "TSI", "TVR", "applicationName"])

    /// ChargeKit: parse and validate with the provider's own type.
    static func chargeKit(_ url: String) -> Fields? {
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
}

extension HandoffOperation {
    /// Zettle's 1.0 and 3.0 callbacks.
    static let zettle: [HandoffOperation] = {
        typealias App = ZettleOperations
        return [
            HandoffOperation(name: "Zettle 1.0 callback", chargeKit: { App.chargeKit(App.v1) },
                             foundation: { foundationParse(App.v1, names: App.names) },
                             chargeKitWork: { (try? Zettle.Callback(url: App.v1)) != nil }),
            HandoffOperation(name: "Zettle 3.0 callback", chargeKit: { App.chargeKit(App.v3) },
                             foundation: { foundationParse(App.v3, names: App.v3Names) },
                             chargeKitWork: { (try? Zettle.Callback(url: App.v3)) != nil }),
        ]
    }()
}

extension ZettleSimulator: BenchmarkedApp {
    static var benchmarkOperations: [HandoffOperation] { HandoffOperation.zettle }
}
