@_spi(Tools) import ChargeKit

/// libFuzzer harness: any bytes as a SumUp callback; a parsed callback parses the same twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for url in [text, "samplepaymentapp://?" + text] {
        guard let callback = try? SumUp.Callback(url: url) else { continue }
        let again = try? SumUp.Callback(url: url)
        precondition(again?.status == callback.status && again?.transactionCode == callback.transactionCode)
    }
    return 0
}
