import Foundation

/// Payment details of a transaction: the seed's `CPayCheckDataPayment`, and its
/// `CPayResultDataPayment` too (``CPayResultDataPayment``), whose one field, `method`,
/// is the first of these.
public struct CPayCheckDataPayment: Sendable, Equatable, Codable {
    /// The method, such as `wechatpay`.
    public var method: String?
    /// A vault token.
    public var token: String?
    /// The payment type.
    public var type: String?
    /// Masked card data (`pan`, `expiry`).
    public var data: CPayPaymentData?

    /// Makes payment details.
    public init(method: String? = nil, token: String? = nil, type: String? = nil, data: CPayPaymentData? = nil) {
        self.method = method
        self.token = token
        self.type = type
        self.data = data
    }

    enum CodingKeys: String, CodingKey { case method, token, type, data }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(method, forKey: .method)
        try c.encode(token, forKey: .token)
        try c.encode(type, forKey: .type)
        try c.encode(data, forKey: .data)
    }
}

/// The seed's `CPayResultDataPayment`: the same type as ``CPayCheckDataPayment``
/// (a result's payment carries at least its `method`).
public typealias CPayResultDataPayment = CPayCheckDataPayment
