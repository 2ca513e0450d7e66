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

    /// SumUp with `SMPPaymentRequest`'s optional fields: the receipt's e-mail address or
    /// mobile phone (`nil` for none), and whether to skip SumUp's success screen.
    @objc(sumUpWithAffiliateKey:callbackURL:receiptEmail:receiptMobilePhone:skipSuccessScreen:)
    public static func sumUp(affiliateKey: String, callbackURL: String, receiptEmail: String?, receiptMobilePhone: String?,
                             skipSuccessScreen: Bool) -> CHKPaymentApp {
        CHKPaymentApp(.sumUp(affiliateKey: affiliateKey, callbackURL: callbackURL, receiptEmail: receiptEmail,
                             receiptMobilePhone: receiptMobilePhone, skipSuccessScreen: skipSuccessScreen))
    }
}
#endif
