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
    _ = try? CreditCardTerminalSimulator().respond(to: url, outcome: .approved)
    _ = try? SumUpSimulator(merchantCurrency: "EUR").respond(to: url, outcome: .approved)
    var zettle = ZettleSimulator(accountCurrency: "SEK")
    _ = try? zettle.respond(to: url, outcome: .approved)
    return 0
}
