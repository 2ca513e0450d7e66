@_spi(Tools) import ChargeKit
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension CPayManager {
    // MARK: Results

    /// The synchronous result for a checked transaction. Cancelled payments carry the
    /// documented cancellation code `-2`; declined and expired ones `-1`.
    public static func result(from check: CPayCheck) -> CPayResult {
        var data = check.data ?? CPayResultData()
        var status = "fail"
        switch data.status {
        case .succeeded?, .authorized?:
            status = check.status
        case .canceled?:
            data.code = CPayClientCode.cancelled.rawValue
            data.message = "payment canceled by the user"
        case .failed?:
            data.code = CPayClientCode.commonError.rawValue
            data.message = "payment declined"
        case .expired?:
            data.code = CPayClientCode.commonError.rawValue
            data.message = "payment expired before it was completed"
        default:
            data.code = data.code ?? CPayClientCode.commonError.rawValue
            data.message = data.message ?? "payment not completed (status \(data.status?.rawValue ?? "unknown"))"
        }
        return CPayResult(status: status, app: check.app, version: check.version, data: data)
    }

    /// A `fail` result for an error.
    public static func failure(_ error: any Error) -> CPayResult {
        var data = CPayResultData()
        let error = error as? CPayError ?? .malformedResponse("\(error)")
        data.code = error.code
        data.message = error.description
        return CPayResult(status: "fail", version: UPIWire.version, data: data)
    }

    /// A `fail` check for an error (the same value as ``failure(_:)``: a check and a
    /// result are one type).
    public static func failureCheck(_ error: any Error) -> CPayCheck { failure(error) }
}
