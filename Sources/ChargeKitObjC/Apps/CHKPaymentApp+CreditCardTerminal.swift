#if canImport(ObjectiveC)
import ChargeKit
import Foundation
import ObjectiveC

extension CHKPaymentApp {
    /// Inner Fence's Credit Card Terminal, answering on `returnURL`.
    @objc(creditCardTerminalWithReturnURL:)
    public static func creditCardTerminal(returnURL: String) -> CHKPaymentApp {
        CHKPaymentApp(.creditCardTerminal(returnURL: returnURL))
    }
}
#endif
