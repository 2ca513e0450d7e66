@_spi(Tools) import ChargeKit
import Foundation

/// libFuzzer harness: any bytes as a Square Point of Sale callback, as the URL itself
/// and as its `data` JSON; a parsed callback parses the same twice, and its `data`
/// reads the same with Foundation's JSONSerialization. The one-pass reading of Point
/// of Sale's answer gives what the shared scan gives (an empty fragment sends the URL
/// to the scan and changes nothing else), callback or error.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    for url in [text, "my-app://callback/square_request?data=" + PercentEncoding.encode(text)] {
        let direct = Result { () throws(ChargeKitError) in try Square.Callback(url: url) }
        let scanned = Result { () throws(ChargeKitError) in try Square.Callback(url: url + "#") }
        precondition(direct == scanned || url.contains("#"), "the one-pass reading and the scan disagree")
        guard let callback = try? Square.Callback(url: url) else { continue }
        let again = try? Square.Callback(url: url)
        precondition(again == callback)
        precondition(callback.status == .ok || callback.errorCode != nil)
        guard let json = try? QueryURL(parsing: url).items.first(where: { $0.name == "data" })?.value else { continue }
        let object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any]
        precondition(object?["status"] as? String == callback.status.rawValue, "JSONSerialization reads another status")
        precondition(object?["transaction_id"] as? String == callback.transactionID, "JSONSerialization reads another transaction")
    }
    return 0
}
