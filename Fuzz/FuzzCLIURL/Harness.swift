@_spi(Tools) import ChargeKit
import ChargeKitSimulators

/// libFuzzer harness: the `chargekit` command's URL input. `parse URL` (provider
/// detection, every parser, every field the JSON report reads) and `simulate URL` (each
/// simulator reading a request URL) must never crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let url = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for provider in [nil] + PaymentProvider.allCases.map(Optional.some) {
        if let callback = try? PaymentCallback.parse(url, provider: provider) {
            // What `parse --json`'s report reads (the report itself is the tool's, in Tools/).
            _ = (callback.outcome, callback.providerStatus, callback.nonce, callback.callbackURL, callback.extraItems,
                 callback.transactionID, callback.reference, callback.message, callback.unknownFields, callback.amount)
            if let provider { precondition(callback.provider == provider) }
        }
    }
    // Every registered app's simulator, as `simulate` picks one: by the URL's scheme.
    var apps = SimulatedApps()
    for outcome in ChargeOutcome.allCases { _ = try? apps.respond(to: url, outcome: outcome) }
    return 0
}
