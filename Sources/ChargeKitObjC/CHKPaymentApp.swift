#if canImport(ObjectiveC)
import ChargeKit
import Foundation
import ObjectiveC

/// The payment app a charge goes to, for Objective-C: one factory per app, with its
/// options, over ``PaymentApp``.
///
/// ```objc
/// CHKPaymentApp *app = [CHKPaymentApp creditCardTerminalWithReturnURL:@"my-app://paid"];
/// CHKPaymentApp *sumUp = [CHKPaymentApp sumUpWithAffiliateKey:@"KEY" callbackURL:@"my-app://sumup"];
/// ```
@objc(CHKPaymentApp) public final class CHKPaymentApp: NSObject, Sendable {
    let app: PaymentApp

    init(_ app: PaymentApp) { self.app = app }

    /// The provider's name: `ccterminal`, `sumup`, `zettle`, `square`.
    @objc public var provider: String { app.provider.rawValue }

    /// Inner Fence's Credit Card Terminal, answering on `returnURL`.
    @objc(creditCardTerminalWithReturnURL:)
    public static func creditCardTerminal(returnURL: String) -> CHKPaymentApp {
        CHKPaymentApp(.creditCardTerminal(returnURL: returnURL))
    }

    /// SumUp with your affiliate key, answering on `callbackURL`.
    @objc(sumUpWithAffiliateKey:callbackURL:)
    public static func sumUp(affiliateKey: String, callbackURL: String) -> CHKPaymentApp {
        CHKPaymentApp(.sumUp(affiliateKey: affiliateKey, callbackURL: callbackURL))
    }

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

    /// Square Point of Sale with your application ID (location and customer optional).
    @objc(squareWithClientID:callbackURL:locationID:customerID:)
    public static func square(clientID: String, callbackURL: String, locationID: String?, customerID: String?) -> CHKPaymentApp {
        CHKPaymentApp(.square(clientID: clientID, callbackURL: callbackURL, locationID: locationID, customerID: customerID))
    }
}
#endif
