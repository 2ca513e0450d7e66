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
    // The request bodies the sandbox decodes: what decodes re-encodes to the same value.
    roundTrip(UPIWire.ChargeRequest.self, bytes, decoder)
    roundTrip(UPIWire.ConfirmRequest.self, bytes, decoder)
    roundTrip(UPIWire.OperationRequest.self, bytes, decoder)
    roundTrip(UPIWire.AccessTokenRequest.self, bytes, decoder)
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

/// Decodes `bytes`; a value that decodes must encode, and what it encodes to must
/// decode and encode to the same bytes again (the first encoding writes defaults the
/// body may have left out, such as `auto_capture`).
func roundTrip<T: Codable & Equatable>(_ type: T.Type, _ bytes: Data, _ decoder: JSONDecoder) {
    guard let value = try? decoder.decode(type, from: bytes) else { return }
    let encoder = UPIWire.encoder()
    guard let once = try? encoder.encode(value) else { preconditionFailure("\(type) does not encode") }
    let again = try? decoder.decode(type, from: once)
    precondition(again.flatMap { try? encoder.encode($0) } == once, "\(type) does not round-trip")
}
