#if canImport(ObjectiveC)
import ChargeKit
import Foundation
import ObjectiveC

/// How a payment ended, as Objective-C sees ``ChargeOutcome``.
@objc public enum CHKChargeOutcome: Int, Sendable {
    case approved, declined, cancelled, failed

    init(_ outcome: ChargeOutcome) {
        switch outcome {
        case .approved: self = .approved
        case .declined: self = .declined
        case .cancelled: self = .cancelled
        default: self = .failed
        }
    }

    var outcome: ChargeOutcome {
        switch self {
        case .approved: .approved
        case .declined: .declined
        case .cancelled: .cancelled
        case .failed: .failed
        }
    }
}

/// A verified payment result, for Objective-C: ``PaymentResult`` read-only.
///
/// Only a callback that the ledger matched to its request, unused and unexpired,
/// becomes a result: a forged, replayed or stale one is an `NSError` instead.
@objc(CHKPaymentResult) public final class CHKPaymentResult: NSObject, Sendable {
    /// How the payment ended.
    @objc public let outcome: CHKChargeOutcome
    /// Whether it is an approved sale (not a refund, not a query).
    @objc public let isApprovedSale: Bool
    /// The provider's name (``PaymentProvider/rawValue``).
    @objc public let provider: String
    /// The provider's own status word, as sent.
    @objc public let providerStatus: String
    /// The provider's transaction id, if it sent one.
    @objc public let transactionID: String?
    /// The reference the provider echoed, if any.
    @objc public let reference: String?
    /// The provider's message, if any.
    @objc public let message: String?
    /// The amount the provider reported, as a decimal string (`10.99`), if it reported one.
    @objc public let amount: String?
    /// The reported amount's currency code.
    @objc public let currencyCode: String?
    /// The nonce of the hand-off it answers.
    @objc public let nonce: String
    /// What the ledger flagged without refusing (an approved amount below the one asked…), in words.
    @objc public let flags: [String]
    /// The callback URL, as received.
    @objc public let callbackURL: String
    /// Your parameters, returned untouched (IFChargeResponse's `extraParams`).
    @objc public let extraParams: [String: String]
    /// The result itself, for what each app's extension reads of it.
    let result: PaymentResult

    init(_ result: PaymentResult) {
        outcome = CHKChargeOutcome(result.outcome)
        isApprovedSale = result.isApprovedSale
        provider = result.provider.rawValue
        providerStatus = result.providerStatus
        transactionID = result.callback.transactionID
        reference = result.callback.reference
        message = result.callback.message
        amount = result.callback.amount?.formatted
        currencyCode = result.callback.amount?.currency.code
        nonce = result.charge.nonce.value
        flags = result.flags.map(\.description)
        callbackURL = result.callback.callbackURL
        extraParams = Dictionary(result.callback.extraItems.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        self.result = result
    }
}

/// A hand-off that no callback answered yet (the app was killed, the payment app never
/// came back), for Objective-C: settle it by hand with ``CHKPaymentCoordinator``.
@objc(CHKPendingHandoff) public final class CHKPendingHandoff: NSObject, Sendable {
    /// Its nonce: what ``CHKPaymentCoordinator/resolveHandoff(_:outcome:note:completion:)`` takes.
    @objc public let nonce: String
    /// The provider's name.
    @objc public let provider: String
    /// The amount asked, as a decimal string, if the request fixed one.
    @objc public let amount: String?
    /// Its currency code.
    @objc public let currencyCode: String?
    /// The reference the request carried, if any.
    @objc public let reference: String?
    /// When it was issued.
    @objc public let createdAt: Date
    /// When its callback stops being accepted.
    @objc public let expiresAt: Date
    /// Whether it was settled (by a callback or by hand).
    @objc public let isSettled: Bool

    init(_ charge: PendingCharge) {
        nonce = charge.nonce.value
        provider = charge.provider.rawValue
        amount = charge.request.amount?.formatted
        currencyCode = charge.request.currency?.code
        reference = charge.request.reference
        createdAt = charge.createdAt
        expiresAt = charge.expiresAt
        isSettled = charge.consumedAt != nil
    }
}
#endif
