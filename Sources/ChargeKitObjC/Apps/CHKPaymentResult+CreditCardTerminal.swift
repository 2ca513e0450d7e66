#if canImport(ObjectiveC)
import ChargeKit
import Foundation
import ObjectiveC

extension CHKPaymentResult {
    /// Credit Card Terminal: the tax charged (`0.93`), if the app reported it.
    @objc public var taxAmount: String? { result.callback.creditCardTerminal?.taxAmount?.formatted }
    /// Credit Card Terminal: the tax rate applied (`8.5`).
    @objc public var taxRate: String? { result.callback.creditCardTerminal?.taxRate }
    /// Credit Card Terminal: the tip (`1.50`).
    @objc public var tipAmount: String? { result.callback.creditCardTerminal?.tipAmount?.formatted }
    /// Credit Card Terminal: the card number as redacted by the app (`XXXXXXXXXXXX1111`).
    @objc public var redactedCardNumber: String? { result.callback.creditCardTerminal?.redactedCardNumber }
    /// Credit Card Terminal: the card type (`Visa`, `MasterCard`…).
    @objc public var cardType: String? { result.callback.creditCardTerminal?.cardType?.rawValue }
}
#endif
