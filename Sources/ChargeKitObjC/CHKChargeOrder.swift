#if canImport(ObjectiveC)
import ChargeKit
import Foundation
import ObjectiveC

/// What to charge, for Objective-C: ``ChargeOrder`` behind Cocoa's conventions.
///
/// Valid when made: the initializer reads the amount in the currency's ISO 4217 minor
/// units and returns `nil` for an amount or currency it cannot read;
/// ``validationError(amount:currency:)`` says why, naming the field. (An `@objc`
/// initializer that throws would give `error:` directly, but the Objective-C face is
/// type-checked on Linux, where the compiler cannot check one: see the Development article.)
///
/// ```objc
/// CHKChargeOrder *order = [[CHKChargeOrder alloc] initWithAmount:@"10.99" currency:@"USD"];
/// if (!order) {
///     NSError *why = [CHKChargeOrder validationErrorForAmount:@"10.99" currency:@"USD"];
/// }
/// order.orderDescription = @"Coffee";
/// order.reference = @"order-42";
/// ```
@objc(CHKChargeOrder) public final class CHKChargeOrder: NSObject, @unchecked Sendable {
    // (@unchecked: its properties are read once, when a charge starts, on the caller's thread.)

    /// The amount, as a decimal string in major units (`10.99`).
    @objc public let amount: String
    /// The ISO 4217 currency code (`USD`).
    @objc public let currencyCode: String
    /// What is sold (the field each app has for it: its description or title).
    @objc public var orderDescription: String?
    /// Your reference (the field each app echoes: its invoice number or reference).
    @objc public var reference: String?
    /// Your parameters, returned untouched on the callback (sent in the order of their names).
    @objc public var extraParams: [String: String] = [:]

    private let money: Money

    /// Makes an order of `amount` (major units, such as `10.99`) in `currency`, or `nil`
    /// when either cannot be read (``validationError(amount:currency:)`` says why).
    @objc public init?(amount: String, currency: String) {
        guard case .success(let money) = Self.read(amount: amount, currency: currency) else { return nil }
        self.money = money
        self.amount = money.formatted
        currencyCode = money.currency.code
    }

    /// Why `amount` in `currency` makes no order (an error of ``CHKErrorDomain`` naming
    /// the field), or `nil` when it makes one.
    @objc(validationErrorForAmount:currency:)
    public static func validationError(amount: String, currency: String) -> NSError? {
        guard case .failure(let error) = read(amount: amount, currency: currency) else { return nil }
        return error.objcError
    }

    private static func read(amount: String, currency: String) -> Result<Money, ChargeKitError> {
        Result { () throws(ChargeKitError) in try Money(parsing: amount, currency: try Currency(code: currency)) }
    }

    /// The Swift order.
    var order: ChargeOrder {
        ChargeOrder(amount: money, description: orderDescription, reference: reference,
                    extras: extraParams.sorted { $0.key < $1.key }.map { QueryItem($0.key, $0.value) })
    }
}
#endif
