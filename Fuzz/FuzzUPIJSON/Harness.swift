@_spi(Tools) import CitconUPI
import Foundation

/// libFuzzer harness: any bytes as UPI JSON: the SDK's answers (CPayResult, CPayCheck,
/// the envelope reader), IPN bodies, the repeated-name scan, and the models of the
/// requests the SDK sends. What decodes must re-encode and decode to the same value.
/// (The request bodies the sandbox reads are its own types, in the Tools package,
/// decoded by its generated server with Foundation's JSONDecoder.)
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let decoder = JSONDecoder()
    if let check = try? decoder.decode(CPayCheck.self, from: bytes) {
        let again = try? decoder.decode(CPayCheck.self, from: UPIWire.encoder().encode(check))
        precondition(again == check)
    }
    if let result = try? decoder.decode(CPayResult.self, from: bytes) {
        precondition((try? UPIWire.encoder().encode(result)) != nil)
    }
    if let request = try? decoder.decode(CPayRequest.self, from: bytes) {
        let again = try? decoder.decode(CPayRequest.self, from: UPIWire.encoder().encode(request))
        precondition(again?.transaction == request.transaction && again?.payment == request.payment)
        _ = try? CPayOrderValidator.validate(request)
        // The body the SDK sends for it encodes.
        precondition((try? UPIWire.encoder().encode(UPIWire.ChargeRequest(order: request))) != nil)
    }
    // The repeated-name scan never traps, and finds no repeat in JSON that
    // JSONSerialization writes (which has none).
    _ = RepeatedJSONNames.first(in: bytes)
    if let object = try? JSONSerialization.jsonObject(with: bytes), JSONSerialization.isValidJSONObject(object),
       let written = try? JSONSerialization.data(withJSONObject: object) {
        precondition(RepeatedJSONNames.first(in: written) == nil)
    }
    _ = try? CPayIPN.verify(bytes, secret: "fuzz-secret")
    for status in [200, 401, 409, 500] {
        let _: CPayCheckData? = try? UPIClient.decode(bytes, status: status)
    }
    return 0
}
