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

    /// Credit Card Terminal with the fields `IFChargeRequest` set beside the order's:
    /// the customer's billing details and the tax rate (``CHKCreditCardTerminalFields``).
    /// A field the app would refuse is refused when the charge is made, through the
    /// completion, naming it.
    @objc(creditCardTerminalWithReturnURL:fields:)
    public static func creditCardTerminal(returnURL: String, fields: CHKCreditCardTerminalFields) -> CHKPaymentApp {
        CHKPaymentApp(.creditCardTerminal(returnURL: returnURL, template: fields.template))
    }
}

/// The fields of Inner Fence's `IFChargeRequest` beyond the order (amount, currency,
/// description, invoice number and extra parameters come from ``CHKChargeOrder``):
/// the billing customer and the sales tax. Each maps to the field of the same name.
///
/// ```objc
/// CHKCreditCardTerminalFields *fields = [CHKCreditCardTerminalFields new];
/// fields.firstName = @"Ada"; fields.lastName = @"Lovelace"; fields.email = @"ada@example.com";
/// fields.taxRate = @"default";   // the rate the user preset; @"8.5" for 8.5 %; nil hides sales tax
/// CHKPaymentApp *app = [CHKPaymentApp creditCardTerminalWithReturnURL:@"my-shop://paid" fields:fields];
/// ```
@objc(CHKCreditCardTerminalFields) public final class CHKCreditCardTerminalFields: NSObject, @unchecked Sendable {
    // (@unchecked: read once, when the app is made, on the caller's thread.)

    /// Billing first name (`firstName`).
    @objc public var firstName: String?
    /// Billing last name (`lastName`).
    @objc public var lastName: String?
    /// Billing company (`company`).
    @objc public var company: String?
    /// Billing street address (`address`).
    @objc public var address: String?
    /// Billing city (`city`).
    @objc public var city: String?
    /// Billing state or province (`state`).
    @objc public var state: String?
    /// Billing postal code (`zip`).
    @objc public var zip: String?
    /// Billing country (`country`).
    @objc public var country: String?
    /// Billing phone (`phone`).
    @objc public var phone: String?
    /// Billing e-mail (`email`).
    @objc public var email: String?
    /// The sales tax rate (`taxRate`): a percentage such as `8.5`, or `default` for the
    /// rate the user preset in Credit Card Terminal; `nil` hides the sales tax option.
    @objc public var taxRate: String?

    /// The Swift request's fields.
    var template: CreditCardTerminal.ChargeRequest.Fields {
        var fields = CreditCardTerminal.ChargeRequest.Fields()
        (fields.firstName, fields.lastName, fields.company, fields.address) = (firstName, lastName, company, address)
        (fields.city, fields.state, fields.zip, fields.country) = (city, state, zip, country)
        (fields.phone, fields.email) = (phone, email)
        // A rate the app would refuse stays as written, so that the request refuses it by name.
        fields.taxRate = taxRate.map { rate in (try? CreditCardTerminal.TaxRate(parsing: rate)) ?? .percent(rate) }
        return fields
    }
}
#endif
