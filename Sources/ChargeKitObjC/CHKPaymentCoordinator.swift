#if canImport(ObjectiveC)
import ChargeKit
import Foundation
import ObjectiveC

/// The one object an Objective-C app keeps: it hands a charge to a payment app, takes
/// the app's answer back, and lists and settles hand-offs that never came back. It is
/// ``PaymentCoordinator`` with completion handlers, each called once on the main queue
/// with a result or an `NSError` of ``CHKErrorDomain``.
///
/// ```objc
/// CHKPaymentCoordinator *coordinator = [[CHKPaymentCoordinator alloc] initWithLedgerPath:path];
/// [coordinator chargeOrder:order viaApp:[CHKPaymentApp creditCardTerminalWithReturnURL:@"my-app://paid"]
///               completion:^(CHKPaymentResult *result, NSError *error) {
///     if (result.isApprovedSale) { /* paid, verified against the ledger */ }
/// }];
/// // application:openURL:options: or scene:openURLContexts:
/// [coordinator handleURL:url completion:^(CHKPaymentResult *result, NSError *error) { … }];
/// ```
@objc(CHKPaymentCoordinator) public final class CHKPaymentCoordinator: NSObject, Sendable {
    /// The Swift coordinator behind it.
    public let coordinator: PaymentCoordinator

    /// The domain of every error the coordinator gives (``CHKErrorDomain``; Swift cannot
    /// export a constant to Objective-C, so it is read here: `CHKPaymentCoordinator.errorDomain`).
    @objc public static var errorDomain: String { CHKErrorDomain }

    /// The `userInfo` key of the field an error names (``CHKErrorFieldKey``).
    @objc public static var errorFieldKey: String { CHKErrorFieldKey }

    /// A coordinator whose ledger is the file at `ledgerPath` (Application Support is the
    /// place), opening payment apps with `openHandler`: it opens the URL and calls
    /// `done` with whether it could, as `-[UIApplication openURL:options:completionHandler:]` does.
    @objc(initWithLedgerPath:openHandler:)
    public init(ledgerPath: String, openHandler: @escaping @Sendable (String, @escaping @Sendable (Bool) -> Void) -> Void) {
        let opener = ClosureURLOpener { url throws(ChargeKitError) in
            let opened: Bool = await withCheckedContinuation { continuation in
                openHandler(url) { success in continuation.resume(returning: success) }
            }
            if !opened { throw .appNotInstalled(scheme: url.prefix { $0 != ":" }.description) }
        }
        coordinator = PaymentCoordinator(ledger: ChargeLedger(store: FileLedgerStore(path: ledgerPath)), opener: opener)
    }

    #if canImport(UIKit)
    /// A coordinator whose ledger is the file at `ledgerPath`, opening payment apps with
    /// `UIApplication`.
    @objc(initWithLedgerPath:)
    public init(ledgerPath: String) {
        coordinator = PaymentCoordinator(ledger: ChargeLedger(store: FileLedgerStore(path: ledgerPath)), opener: UIApplicationOpener())
    }
    #endif

    /// Hands `order` to `app` and calls `completion` with the verified result once the app
    /// answers (through ``handle(_:completion:)``), or with the error that ended it.
    @objc(chargeOrder:viaApp:completion:)
    public func charge(_ order: CHKChargeOrder, via app: CHKPaymentApp,
                       completion: @escaping @Sendable (CHKPaymentResult?, NSError?) -> Void) {
        let (coordinator, order, app) = (self.coordinator, order.order, app.app)
        complete(completion) { CHKPaymentResult(try await coordinator.charge(order, via: app)) }
    }

    /// Verifies a URL the app was opened with against the ledger; `completion` gets the
    /// result (the waiting charge completes too), or why it was refused (forged,
    /// replayed, expired, not a payment app's answer).
    @objc(handleURL:completion:)
    public func handle(_ url: URL, completion: @escaping @Sendable (CHKPaymentResult?, NSError?) -> Void) {
        let (coordinator, text) = (self.coordinator, url.absoluteString)
        complete(completion) { CHKPaymentResult(try await coordinator.handle(url: text)) }
    }

    /// The hand-offs no callback answered, expired ones included (the customer may have
    /// paid while the app was gone): ask the payment app, then settle each by hand.
    @objc(pendingHandoffsWithCompletion:)
    public func pendingHandoffs(completion: @escaping @Sendable ([CHKPendingHandoff]?, NSError?) -> Void) {
        let coordinator = self.coordinator
        complete(completion) { try await coordinator.pending().map(CHKPendingHandoff.init) }
    }

    /// Settles the hand-off with `nonce` by hand as `outcome`, keeping `note` (what you
    /// learned, and how); a callback that comes later is refused, naming the settlement.
    @objc(resolveHandoff:outcome:note:completion:)
    public func resolveHandoff(_ nonce: String, outcome: CHKChargeOutcome, note: String,
                               completion: @escaping @Sendable (CHKPendingHandoff?, NSError?) -> Void) {
        let (coordinator, settled) = (self.coordinator, outcome.outcome)
        complete(completion) {
            CHKPendingHandoff(try await coordinator.resolve(try Nonce(nonce, field: "nonce"), as: settled, note: note))
        }
    }
}
#endif
