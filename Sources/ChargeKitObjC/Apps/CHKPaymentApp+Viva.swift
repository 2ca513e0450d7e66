#if canImport(ObjectiveC)
import ChargeKit
import Foundation
import ObjectiveC

extension CHKPaymentApp {
    /// Viva.com Terminal, answering on `callbackURL` (a URL such as `my-app://result`,
    /// without a query); `appID` is your app's id, such as its bundle id. Viva's own
    /// screens (receipt, result, rating) are left to the terminal's settings.
    @objc(vivaWithAppID:callbackURL:)
    public static func viva(appID: String, callbackURL: String) -> CHKPaymentApp {
        CHKPaymentApp(.viva(appID: appID, callbackURL: callbackURL))
    }
}
#endif
