@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI
import Foundation

/// What the sandbox knows about a payment method.
public struct SandboxMethod: Sendable, Equatable {
    /// The wire name, such as `wechatpay`.
    public var name: String
    /// Whether a charge is authorized first and captured later (cards, PayPal, Venmo);
    /// wallets such as wechatpay, alipay and unionpay settle at once.
    public var supportsCapture: Bool
    /// Whether a refund may be smaller than what is left to refund.
    public var allowsPartialRefund: Bool

    /// The methods the sandbox accepts.
    public static let all: [SandboxMethod] = [
        SandboxMethod(name: "card", supportsCapture: true, allowsPartialRefund: true),
        SandboxMethod(name: "paypal", supportsCapture: true, allowsPartialRefund: true),
        SandboxMethod(name: "venmo", supportsCapture: true, allowsPartialRefund: false),
        SandboxMethod(name: "alipay", supportsCapture: false, allowsPartialRefund: true),
        SandboxMethod(name: "wechatpay", supportsCapture: false, allowsPartialRefund: true),
        SandboxMethod(name: "unionpay", supportsCapture: false, allowsPartialRefund: false),
        // UnionPay online, as the live API names it.
        SandboxMethod(name: "upop", supportsCapture: false, allowsPartialRefund: false),
    ]

    /// Looks a method up by name.
    public static func named(_ name: String) -> SandboxMethod? { all.first { $0.name == name } }

    /// The method `name` of a request's `payment.method`: a method's name, and one the
    /// sandbox plays (`4000` naming the field otherwise).
    static func checked(_ name: String) throws(APIError) -> SandboxMethod {
        try SandboxAPI.field { () throws(ChargeKitError) in try CPayOrderValidator.method(name) }
        guard let method = named(name) else {
            let names = all.map(\.name).joined(separator: ", ")
            throw APIError(.invalidRequest, "payment.method: '\(name)' is not supported by the sandbox (\(names))")
        }
        return method
    }
}
