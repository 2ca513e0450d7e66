#if canImport(ObjectiveC)
import CitconUPI
import Foundation
import ObjectiveC
#if canImport(UIKit) && !os(watchOS)
import UIKit
#endif

/// Citcon's `CPayManager` for Objective-C, with the selectors of Citcon's own SDK:
/// `+sharedInstance`, `setMode:`, `setAccessToken:`, `requestOrder:callback:`,
/// `inquireOrder:callback:`, `getVersion`, `handleUrl:open:options:`, and the
/// notification names `NTFY_ASYNC` and `ORDER_CONFIRMED`. It forwards to CitconUPI's
/// ``CitconUPI/CPayManager``, which it wraps; callbacks come as CitconUPI's do.
///
/// ```objc
/// @import ChargeKitObjC;   // was: #import <CPay/CPay.h>
/// CPayRequest *order = [CPayRequest new];
/// order.transaction.reference = @"a3852167-9d10-4e8f-adf1-aef975667a87";
/// order.payment.method = @"wechatpay";
/// order.chargeToken = chargeTokenFromYourServer;
/// [[CPayManager sharedInstance] requestOrder:order callback:^(CPayResult *resp) { … }];
/// ```
@objc(CPayManager) public final class CPayManagerObjC: NSObject, Sendable {
    /// The Swift manager behind it.
    public let manager: CitconUPI.CPayManager

    private static let shared = CPayManagerObjC(manager: .sharedInstance())

    /// Wraps `manager`.
    public init(manager: CitconUPI.CPayManager) { self.manager = manager }

    /// The shared manager (over CitconUPI's shared one).
    @objc(sharedInstance) public static func sharedInstance() -> CPayManagerObjC { shared }

    /// Points the manager at a Citcon environment.
    @discardableResult @objc(setMode:)
    public func setMode(_ mode: CPayENVModeObjC) -> Bool { manager.setMode(mode.value) }

    /// Points the manager at any API host (a local sandbox, say).
    @discardableResult @objc(setBaseURL:)
    public func setBaseURL(_ url: URL) -> Bool { manager.setBaseURL(url) }

    /// The client access token the merchant's server issued.
    @discardableResult @objc(setAccessToken:)
    public func setAccessToken(_ token: String) -> Bool { manager.setAccessToken(token) }

    /// Confirms and pays `order` through the consumer's wallet; `callback` gets the result.
    @discardableResult @objc(requestOrder:callback:)
    public func requestOrder(_ order: CPayRequestObjC, callback: @escaping @Sendable (CPayResultObjC?) -> Void) -> Bool {
        manager.requestOrder(order.value) { result in callback(result.map(CPayResultObjC.init)) }
    }

    /// Inquires the transaction `transId`; `callback` gets it as it stands.
    @discardableResult @objc(inquireOrder:callback:)
    public func inquireOrder(_ transId: String, callback: @escaping @Sendable (CPayResultObjC?) -> Void) -> Bool {
        manager.inquireOrder(transId) { result in callback(result.map(CPayResultObjC.init)) }
    }

    /// Creates the charge for `order` with a server token (for demos and tests).
    @discardableResult @objc(generateOrder:callback:)
    public func generateOrder(_ order: CPayRequestObjC, callback: @escaping @Sendable (CPayResultObjC?) -> Void) -> Bool {
        manager.generateOrder(order.value) { result in callback(result.map(CPayResultObjC.init)) }
    }

    /// Exchanges a credential for a client token and sets it; `nil` on failure.
    @objc(getAccessToken:onComplete:)
    public func getAccessToken(_ credential: String, onComplete: @escaping @Sendable (String?) -> Void) {
        manager.getAccessToken(credential, onComplete: onComplete)
    }

    /// Inquires every order still pending (at launch, after the app was killed while the
    /// consumer paid); `callback` gets every check made.
    @objc(resumePendingOrders:)
    public func resumePendingOrders(_ callback: @escaping @Sendable ([CPayResultObjC]) -> Void) {
        manager.resumePendingOrders { checks in callback(checks.map(CPayResultObjC.init)) }
    }

    /// This SDK's version.
    @objc(getVersion) public func getVersion() -> String { manager.getVersion() }

    /// Reads a URL the app was opened with; `YES` when it was a wallet's return.
    @discardableResult @objc(handleURL:)
    public func handle(_ url: URL) -> Bool { manager.handle(url: url) }

    /// The name of the notification posted with every asynchronous result.
    @objc(NTFY_ASYNC) public static func NTFY_ASYNC() -> String { CitconUPI.CPayManager.NTFY_ASYNC() }

    /// The name of the notification posted when an order is confirmed.
    @objc(ORDER_CONFIRMED) public static func ORDER_CONFIRMED() -> String { CitconUPI.CPayManager.ORDER_CONFIRMED() }
}

#if canImport(UIKit) && !os(watchOS)
extension CPayManagerObjC {
    /// Citcon's `handleUrl:open:options:`, from `application:openURL:options:`.
    @MainActor @discardableResult @objc(handleUrl:open:options:)
    public func handleUrl(_ app: UIApplication, open url: URL, options: [UIApplication.OpenURLOptionsKey: Any]) -> Bool {
        manager.handleUrl(app, open: url, options: options)
    }
}
#endif
#endif
