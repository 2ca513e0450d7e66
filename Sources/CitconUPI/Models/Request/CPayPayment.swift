import Foundation

/// The payment method and its details: the seed's `CPayPayment`.
public struct CPayPayment: Sendable, Equatable, Codable {
    /// The method, lower case: `wechatpay`, `alipay`, `unionpay`, `card`, `paypal`, `venmo`…
    public var method = ""
    /// Source of the transaction, such as `authenticated`.
    public var indicator: String?
    /// Ask for a vault token (card, PayPal, Venmo).
    public var requestToken = false
    /// A vault token from an earlier payment.
    public var token: String?
    /// The request type; the SDK always sends `["mobile_native"]`.
    public var client = ["mobile_native"]
    /// Absolute order timeout.
    public var expiry: Int?
    /// Card details.
    public var data: CPayPaymentData?
    /// The cardholder's billing address (required for 3-D Secure).
    public var billingAddress: CPayBillingAddr?
    /// Payment data format (published SDK).
    public var format: String?
    /// Payment nonce (published SDK).
    public var nonce: String?

    /// Makes an empty payment.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case method, indicator, token, client, expiry, data, format, nonce
        case requestToken = "request_token", billingAddress = "billing_address"
    }

    /// Reads the wire form: `method` is required, the rest optional.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        method = try c.decode(String.self, forKey: .method)
        indicator = try c.decodeIfPresent(String.self, forKey: .indicator)
        requestToken = try c.decodeIfPresent(Bool.self, forKey: .requestToken) ?? false
        token = try c.decodeIfPresent(String.self, forKey: .token)
        client = try c.decodeIfPresent([String].self, forKey: .client) ?? ["mobile_native"]
        expiry = try c.decodeIfPresent(Int.self, forKey: .expiry)
        data = try c.decodeIfPresent(CPayPaymentData.self, forKey: .data)
        billingAddress = try c.decodeIfPresent(CPayBillingAddr.self, forKey: .billingAddress)
        format = try c.decodeIfPresent(String.self, forKey: .format)
        nonce = try c.decodeIfPresent(String.self, forKey: .nonce)
    }
}
