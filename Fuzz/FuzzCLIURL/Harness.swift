@_spi(Tools) import ChargeKit
import ChargeKitSimulators

/// libFuzzer harness: the `chargekit` command's URL input. `parse URL` (provider
/// detection, every parser, the JSON report) and `simulate URL` (each simulator
/// reading a request URL) must never crash; a report always encodes.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let url = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for provider in [nil] + PaymentProvider.allCases.map(Optional.some) {
        if let callback = try? PaymentCallback.parse(url, provider: provider) {
            precondition(!CallbackReport(callback).json.isEmpty)
            if let provider { precondition(callback.provider == provider) }
        }
    }
    _ = try? CreditCardTerminalSimulator().respond(to: url, outcome: .approved)
    _ = try? SumUpSimulator(merchantCurrency: "EUR").respond(to: url, outcome: .approved)
    var zettle = ZettleSimulator(accountCurrency: "SEK")
    _ = try? zettle.respond(to: url, outcome: .approved)
    return 0
}
