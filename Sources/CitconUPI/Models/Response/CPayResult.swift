import Foundation

/// What the SDK answers: the seed's `CPayResult` (the synchronous payment result
/// delivered to ``CPayManager/requestOrder(_:callback:)``) and its `CPayCheck` (the
/// inquiry result of ``CPayManager/inquireOrder(_:callback:)``, posted with
/// ``CPayManager/NTFY_ASYNC()``), which the seed documents with the same fields and
/// which are therefore one type here (``CPayCheck`` is an alias).
///
/// `status == "success"` and `data.status == .succeeded` together mean the payment
/// succeeded (``isPaid``).
public struct CPayResult: Sendable, Equatable, Codable {
    /// `success` or `fail`: whether the request worked, not whether the payment did.
    public var status: String
    /// `citcon_upi`.
    public var app: String?
    /// The API version, such as `v0.1.1`.
    public var version: String
    /// The transaction, or `code`/`message` on failure.
    public var data: CPayResultData?

    /// Makes a result.
    public init(status: String, app: String? = "citcon_upi", version: String, data: CPayResultData?) {
        self.status = status
        self.app = app
        self.version = version
        self.data = data
    }

    /// Whether both `status` and `data.status` say the payment succeeded.
    public var isPaid: Bool { status == "success" && data?.status == .succeeded }
}

/// The seed's `CPayCheck`: the same type as ``CPayResult``.
public typealias CPayCheck = CPayResult
