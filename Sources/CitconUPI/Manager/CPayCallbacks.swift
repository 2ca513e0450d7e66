import Foundation

/// The payment callback of ``CPayManager/requestOrder(_:callback:)``.
public typealias CPayOrderCallback = @Sendable (_ result: CPayResult?) -> Void
/// The callback of ``CPayManager/inquireOrder(_:callback:)`` and of the notifications.
public typealias CPayCheckCallback = @Sendable (_ result: CPayCheck?) -> Void
/// The seed's `[CPayRuntimeInst NTFY_ASYNC]` spelling.
public typealias CPayRuntimeInst = CPayManager
