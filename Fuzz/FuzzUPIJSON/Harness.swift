@_spi(Tools) import CitconUPI
import Foundation

/// libFuzzer harness: any bytes as UPI JSON: the SDK's answers (CPayResult, CPayCheck,
/// the envelope reader), IPN bodies, the repeated-name scan, and the request bodies the
/// sandbox decodes. What decodes must
/// re-encode and decode to the same value.
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
    }
    // The sandbox's fast reader gives a value only where JSONDecoder gives the same one.
    agree(UPIWire.ChargeRequest.self, bytes, decoder)
    agree(UPIWire.ConfirmRequest.self, bytes, decoder)
    agree(UPIWire.OperationRequest.self, bytes, decoder)
    agree(UPIWire.AccessTokenRequest.self, bytes, decoder)
    agree(UPIWire.ChargeCreated.self, bytes, decoder)
    // The repeated-name scan never traps, and never finds a repeat in a body the
    // strict reader (which refuses repeats) took whole.
    let repeated = RepeatedJSONNames.first(in: bytes)
    if WireJSONDecoder.decode(UPIWire.OperationRequest.self, from: bytes) != nil { precondition(repeated == nil) }
    _ = try? CPayIPN.verify(bytes, secret: "fuzz-secret")
    for status in [200, 401, 409, 500] {
        let _: CPayCheckData? = try? UPIClient.decode(bytes, status: status)
    }
    return 0
}

/// Decodes `bytes` both ways; stops when the fast reader gives a value JSONDecoder does not.
func agree<T: Decodable & Equatable>(_ type: T.Type, _ bytes: Data, _ decoder: JSONDecoder) {
    let foundation = try? decoder.decode(type, from: bytes)
    if let fast = WireJSONDecoder.decode(type, from: bytes) { precondition(fast == foundation, "WireJSONDecoder differs") }
}
