#if canImport(ObjectiveC)
import ChargeKit
import Foundation
import ObjectiveC
#if CHARGEKIT_OBJC_STUBS
// Linux's type check (scripts/objc-typecheck.sh): Foundation's Objective-C classes come
// from a stub written from Apple's documented declarations (corelibs Foundation's are
// Swift classes, which Objective-C cannot see).
import ObjCFoundationStub
public typealias NSError = ObjCFoundationStub.NSError
public typealias NSObject = ObjectiveC.NSObject
#endif

/// The error domain of every `NSError` the Objective-C face gives: its code is a
/// ``CHKErrorCode``, its `localizedDescription` the Swift error's message (which
/// names the field and the rule), and `CHKErrorFieldKey` the field, where there is one.
public let CHKErrorDomain = "ChargeKitErrorDomain"

/// The `userInfo` key of the field an error names (`ifcc_amount`, `nonce`, …).
public let CHKErrorFieldKey = "CHKErrorField"

/// The stable code of each ``ChargeKitError`` case, as Objective-C sees it. Codes are
/// never reused or renumbered; a new case gets a new number.
@objc public enum CHKErrorCode: Int, Sendable {
    // Input: a request or callback field.
    case missingField = 1, invalidField = 2, fieldTooLong = 3, duplicateField = 4, unexpectedField = 5,
         invalidURL = 6, urlTooLong = 7, malformedPercentEncoding = 8, unknownCurrency = 9
    // Trust: the ledger's verdict on a callback.
    case missingNonce = 20, unknownNonce = 21, replayedNonce = 22, expiredNonce = 23, settledByHand = 24, mismatch = 25
    // The hand-off itself.
    case appNotInstalled = 40, openFailed = 41, cancelled = 42
    // Storage.
    case storage = 60, corruptStorage = 61, storageFull = 62
    /// An error that is not a ChargeKit error (passed on with its own message).
    case other = 99
}

extension ChargeKitError {
    /// The stable Objective-C code of this case.
    var objcCode: CHKErrorCode {
        switch self {
        case .missingField: .missingField
        case .invalidField: .invalidField
        case .fieldTooLong: .fieldTooLong
        case .duplicateField: .duplicateField
        case .unexpectedField: .unexpectedField
        case .invalidURL: .invalidURL
        case .urlTooLong: .urlTooLong
        case .malformedPercentEncoding: .malformedPercentEncoding
        case .unknownCurrency: .unknownCurrency
        case .missingNonce: .missingNonce
        case .unknownNonce: .unknownNonce
        case .replayedNonce: .replayedNonce
        case .expiredNonce: .expiredNonce
        case .settledByHand: .settledByHand
        case .mismatch: .mismatch
        case .appNotInstalled: .appNotInstalled
        case .openFailed: .openFailed
        case .cancelled: .cancelled
        case .storage: .storage
        case .corruptStorage: .corruptStorage
        case .storageFull: .storageFull
        }
    }

    /// The field this error names, if it names one.
    var objcField: String? {
        switch self {
        case .missingField(let field), .invalidField(let field, _), .fieldTooLong(let field, _), .duplicateField(let field),
             .unexpectedField(let field, _), .invalidURL(let field, _), .malformedPercentEncoding(let field, _),
             .missingNonce(let field), .mismatch(let field, _):
            field
        default: nil
        }
    }

    /// The error as Objective-C receives it.
    var objcError: NSError {
        var info: [String: Any] = ["NSLocalizedDescription": description]
        if let field = objcField { info[CHKErrorFieldKey] = field }
        return NSError(domain: CHKErrorDomain, code: objcCode.rawValue, userInfo: info)
    }
}

/// Any error as Objective-C receives it: a ``ChargeKitError`` with its stable code.
func objcError(_ error: any Error) -> NSError {
    if let error = error as? ChargeKitError { return error.objcError }
    return NSError(domain: CHKErrorDomain, code: CHKErrorCode.other.rawValue, userInfo: ["NSLocalizedDescription": String(describing: error)])
}

/// Runs `work` and hands its value or error to `completion` on the main queue, as
/// Cocoa's completion handlers are.
func complete<T: Sendable>(_ completion: @escaping @Sendable (T?, NSError?) -> Void,
                           _ work: @escaping @Sendable () async throws -> T) {
    Task {
        do {
            let value = try await work()
            DispatchQueue.main.async { completion(value, nil) }
        } catch {
            let failure = UncheckedBox(objcError(error))
            DispatchQueue.main.async { completion(nil, failure.value) }
        }
    }
}

/// An `NSError` handed to the main queue: made once, never changed, then read there.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
#endif
