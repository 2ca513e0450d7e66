import Foundation

/// The order an app pays with ``CPayManager/requestOrder(_:callback:)``: the seed's
/// `CPayRequest`. `transaction`, `payment` and `urls` exist from the start, so the
/// seed's samples read the same in Swift:
///
/// ```swift
/// var order = CPayRequest()
/// order.transaction.reference = "wechatpay_ref_123erg0234s"
/// order.transaction.amount = 1
/// order.transaction.currency = "USD"
/// order.transaction.country = "US"
/// order.payment = CPayPayment()
/// order.payment.method = "wechatpay"
/// order.urls.ipn = "https://ipn.com/"
/// order.universalLink = "https://www.merchant.com/apps/"
/// order.chargeToken = tokenFromYourServer
/// ```
///
/// Encodes to the UPI wire format (snake_case keys). The SDK-only fields (`scheme`,
/// `universalLink`, `request3DSecureVerification`, `unionpayMode`, `chargeToken`)
/// are not part of the wire body.
public struct CPayRequest: Sendable, Equatable, Codable {
    /// What is sold: reference, amount in minor units, currency, country.
    public var transaction = CPayTransaction()
    /// The consumer; required for 3-D Secure cards, PayPal and Venmo vaulting.
    public var consumer: CPayConsumer?
    /// The payment method and its details.
    public var payment = CPayPayment()
    /// Products and shipping; rarely needed.
    public var goods: CPayGoods?
    /// Installment plan, for wallets that support it.
    public var installments: CPayInstallments?
    /// IPN and browser return URLs.
    public var urls = CPayUrls()
    /// Extra data: receipt type and device information.
    public var ext: CPayExt?
    /// The app's URL scheme the wallet returns to (required for `alipay`), such as
    /// `com.citcon.citconpay`.
    public var scheme: String?
    /// The app's universal link the wallet returns to (required for `wechatpay`),
    /// such as `https://www.merchant.com/apps/`.
    public var universalLink: String?
    /// Whether a card payment uses 3-D Secure; then consumer and billing address are required.
    public var request3DSecureVerification = false
    /// UnionPay mode: `"00"` production (default), `"01"` development.
    public var unionpayMode = "00"
    /// The charge token the merchant's server obtained with `POST /v1/charges`.
    public var chargeToken = ""

    /// Makes an empty order.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case transaction, consumer, payment, goods, installments, urls, ext
    }

    /// Reads the wire body; `transaction` is required, `payment` and `urls` default to empty.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        transaction = try c.decode(CPayTransaction.self, forKey: .transaction)
        consumer = try c.decodeIfPresent(CPayConsumer.self, forKey: .consumer)
        payment = try c.decodeIfPresent(CPayPayment.self, forKey: .payment) ?? CPayPayment()
        goods = try c.decodeIfPresent(CPayGoods.self, forKey: .goods)
        installments = try c.decodeIfPresent(CPayInstallments.self, forKey: .installments)
        urls = try c.decodeIfPresent(CPayUrls.self, forKey: .urls) ?? CPayUrls()
        ext = try c.decodeIfPresent(CPayExt.self, forKey: .ext)
    }
}
