#if canImport(ObjectiveC)
import ChargeKit
import Foundation
import ObjectiveC

extension CHKPaymentApp {
    /// SumUp with your affiliate key, answering on `callbackURL`.
    @objc(sumUpWithAffiliateKey:callbackURL:)
    public static func sumUp(affiliateKey: String, callbackURL: String) -> CHKPaymentApp {
        CHKPaymentApp(.sumUp(affiliateKey: affiliateKey, callbackURL: callbackURL))
    }
}
#endif
