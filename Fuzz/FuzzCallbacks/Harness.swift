import ChargeKit

/// libFuzzer harness: any bytes as a callback of every registered payment app (so a
/// new app is fuzzed the day it is registered), read as given and as the query of a
/// callback URL; a parsed callback parses the same twice, and without a provider named
/// it is read as some app's or refused.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for url in [text, "my-app://callback?" + text] {
        _ = try? PaymentCallback.parse(url)
        for provider in PaymentProvider.allCases {
            guard let callback = try? PaymentCallback.parse(url, provider: provider) else { continue }
            let again = try? PaymentCallback.parse(url, provider: provider)
            precondition(again == callback && callback.provider == provider && again?.nonce == callback.nonce)
        }
    }
    return 0
}
