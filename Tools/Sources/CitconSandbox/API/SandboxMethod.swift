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
}
