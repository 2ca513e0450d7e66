#if canImport(ObjectiveC)
import ChargeKit
import Foundation
import ObjectiveC

extension CHKPaymentApp {
    /// Zettle's x-callback-url payment with your API key and source name.
    @objc(zettleWithAPIKey:source:callbackURL:)
    public static func zettle(apiKey: String, source: String, callbackURL: String) -> CHKPaymentApp {
        CHKPaymentApp(.zettle(apiKey: apiKey, source: source, callbackURL: callbackURL))
    }

    /// Zettle's later `izettle://api/payment/charge`.
    @objc(zettleAPIWithCallbackURL:)
    public static func zettleAPI(callbackURL: String) -> CHKPaymentApp {
        CHKPaymentApp(.zettleAPI(callbackURL: callbackURL))
    }
}
#endif
