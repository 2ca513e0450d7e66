@_spi(Tools) import ChargeKit

/// libFuzzer harness: any bytes as a Credit Card Terminal callback. A response that
/// parses must keep its promises: its amount (if any) is valid Money, its extra
/// parameters carry no `ifcc_` field, and parsing it again gives the same response.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for url in [text, "com-your-app://action/?" + text] {
        guard let response = try? CreditCardTerminal.ChargeResponse(url: url) else { continue }
        precondition(!response.extraParams.keys.contains { $0.hasPrefix("ifcc_") || $0.hasPrefix("$ifcc_") })
        let again = try? CreditCardTerminal.ChargeResponse(url: url)
        precondition(again?.responseCode == response.responseCode && again?.amount == response.amount)
    }
    return 0
}
