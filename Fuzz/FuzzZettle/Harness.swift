@_spi(Tools) import ChargeKit

/// libFuzzer harness: any bytes as a Zettle callback (1.0 and api/); a parsed callback
/// parses the same twice.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for url in [text, "app://ok?" + text] {
        guard let callback = try? Zettle.Callback(url: url) else { continue }
        let again = try? Zettle.Callback(url: url)
        precondition(again?.reference == callback.reference && again?.errorCode == callback.errorCode)
    }
    return 0
}
