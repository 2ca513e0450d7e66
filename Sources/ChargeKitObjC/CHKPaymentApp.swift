#if canImport(ObjectiveC)
import ChargeKit
import Foundation
import ObjectiveC

/// The payment app a charge goes to, for Objective-C: one factory per app, with its
/// options, over ``PaymentApp``; each app's factories are in `Apps/`, beside the others'.
///
/// ```objc
/// CHKPaymentApp *app = [CHKPaymentApp creditCardTerminalWithReturnURL:@"my-app://paid"];   // for example
/// ```
@objc(CHKPaymentApp) public final class CHKPaymentApp: NSObject, Sendable {
    let app: PaymentApp

    init(_ app: PaymentApp) { self.app = app }

    /// The provider's name (``PaymentProvider/rawValue``).
    @objc public var provider: String { app.provider.rawValue }
}
#endif
