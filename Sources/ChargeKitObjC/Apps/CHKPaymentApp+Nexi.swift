#if canImport(ObjectiveC)
import ChargeKit
import Foundation
import ObjectiveC

extension CHKPaymentApp {
    /// Nexi POS, answering on `callbackURL` (a URL such as `my-app://payment`, without a
    /// query); `callerName` labels Nexi's button back to your app. Orders are in euro;
    /// Nexi's receipt screens are left to the app's defaults.
    @objc(nexiWithCallerName:callbackURL:)
    public static func nexi(callerName: String, callbackURL: String) -> CHKPaymentApp {
        CHKPaymentApp(.nexi(callerName: callerName, callbackURL: callbackURL))
    }
}
#endif
