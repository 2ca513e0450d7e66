import Foundation

/// The transaction inside a ``CPayResult`` (or a ``CPayCheck``, the same type): the
/// seed's `CPayResultData` and `CPayCheckData`, one type with the fields of both and
/// the asynchronous example's `exchange`, `captures`, `refunds` and `chargebacks`.
/// On failure only ``code`` and ``message`` are set. Encoding writes `null` for absent
/// values, as the UPI server does.
public struct CPayResultData: Sendable, Equatable, Codable {
    /// Error code on failure.
    public var code: String?
    /// Error description on failure.
    public var message: String?
    /// Citcon's transaction id.
    public var id: String?
    /// Transaction type, such as `charge`.
    public var object: String?
    /// Amount in minor units.
    public var amount: Int?
    /// ISO 4217 currency.
    public var currency: String?
    /// The transaction status.
    public var status: CPayStatus?
    /// Cancellation time (the seed sends `""` when there is none).
    public var timeCanceled: CPayNumberOrText?
    /// Expiry time.
    public var expiry: CPayNumberOrText?
    /// Creation time, milliseconds since 1970.
    public var timeCreated: Int64?
    /// ISO 3166-1 alpha-2 country.
    public var country: String?
    /// The merchant's reference.
    public var reference: String?
    /// Captured amount in minor units (`null` for methods without capture).
    public var amountCaptured: Int?
    /// Refunded amount in minor units.
    public var amountRefunded: Int?
    /// Capture time.
    public var timeCaptured: Int64?
    /// Authorization time.
    public var timeAuthorized: Int64?
    /// Completion time (refund answers; milliseconds, sent in seconds).
    public var timeCompleted: Int64?
    /// Whether the charge is captured automatically.
    public var autoCapture: Bool?
    /// The charge token (set by ``CPayManager/generateOrder(_:)``; not sent by inquiries).
    public var chargeToken: String?
    /// Payment details.
    public var payment: CPayCheckDataPayment?
    /// Currency exchange.
    public var exchange: CPayExchange?
    /// Captures.
    public var captures: CPayList?
    /// Refunds.
    public var refunds: CPayList?
    /// Chargebacks.
    public var chargebacks: CPayList?

    /// Makes empty data.
    public init() {}

    /// ``code`` as a typed value.
    public var clientCode: CPayClientCode? { code.map(CPayClientCode.init(rawValue:)) }

    enum CodingKeys: String, CodingKey {
        case code, message, id, object, amount, currency, status, expiry, country, reference, payment
        case exchange, captures, refunds, chargebacks
        case timeCanceled = "time_canceled", timeCreated = "time_created"
        case amountCaptured = "amount_captured", amountRefunded = "amount_refunded"
        case timeCaptured = "time_captured", timeAuthorized = "time_authorized", autoCapture = "auto_capture"
        case timeCompleted = "time_completed", chargeToken = "charge_token"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        code = try c.decodeLenientString(.code)
        message = try c.decodeIfPresent(String.self, forKey: .message)
        id = try c.decodeIfPresent(String.self, forKey: .id)
        object = try c.decodeIfPresent(String.self, forKey: .object)
        amount = try c.decodeIfPresent(Int.self, forKey: .amount)
        currency = try c.decodeIfPresent(String.self, forKey: .currency)
        status = try c.decodeIfPresent(CPayStatus.self, forKey: .status)
        timeCompleted = try c.decodeEpochMilliseconds(.timeCompleted)
        timeCanceled = try c.decodeIfPresent(CPayNumberOrText.self, forKey: .timeCanceled)
        expiry = try c.decodeIfPresent(CPayNumberOrText.self, forKey: .expiry)
        timeCreated = try c.decodeEpochMilliseconds(.timeCreated)
        country = try c.decodeIfPresent(String.self, forKey: .country)
        reference = try c.decodeIfPresent(String.self, forKey: .reference)
        amountCaptured = try c.decodeIfPresent(Int.self, forKey: .amountCaptured)
        amountRefunded = try c.decodeIfPresent(Int.self, forKey: .amountRefunded)
        timeCaptured = try c.decodeEpochMilliseconds(.timeCaptured)
        timeAuthorized = try c.decodeEpochMilliseconds(.timeAuthorized)
        autoCapture = try c.decodeLenientBool(.autoCapture)
        chargeToken = try c.decodeIfPresent(String.self, forKey: .chargeToken)
        payment = try c.decodeIfPresent(CPayCheckDataPayment.self, forKey: .payment)
        exchange = try c.decodeIfPresent(CPayExchange.self, forKey: .exchange)
        captures = try c.decodeIfPresent(CPayList.self, forKey: .captures)
        refunds = try c.decodeIfPresent(CPayList.self, forKey: .refunds)
        chargebacks = try c.decodeIfPresent(CPayList.self, forKey: .chargebacks)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        if let code { try c.encode(code, forKey: .code) }
        if let message { try c.encode(message, forKey: .message) }
        // A failure (a code, no id) writes only what it carried, so that the live API's
        // `fail` shape stays as it is and nothing read is lost; an answer writes every
        // member, `null` where absent, as the live API does.
        let failure = code != nil && id == nil
        func put<T: Encodable>(_ value: T?, _ key: CodingKeys, always: Bool = true) throws {
            if always && !failure { try c.encode(value, forKey: key) } else { try c.encodeIfPresent(value, forKey: key) }
        }
        if !failure { try c.encode(id, forKey: .id) }
        try put(object, .object)
        try put(amount, .amount)
        try put(currency, .currency)
        try put(status, .status)
        try put(timeCanceled, .timeCanceled)
        try put(expiry, .expiry)
        // Times go out as the live API writes them: Unix seconds (they are read back
        // from seconds or milliseconds).
        try put(timeCreated.map(UPIWire.wireTime), .timeCreated)
        try put(country, .country)
        try put(reference, .reference)
        try put(amountCaptured, .amountCaptured)
        try put(amountRefunded, .amountRefunded)
        try put(timeCaptured.map(UPIWire.wireTime), .timeCaptured)
        try put(timeAuthorized.map(UPIWire.wireTime), .timeAuthorized)
        try put(timeCompleted.map(UPIWire.wireTime), .timeCompleted, always: false)
        try put(autoCapture, .autoCapture)
        try put(chargeToken, .chargeToken, always: false)
        try put(payment, .payment)
        try put(exchange, .exchange)
        try put(captures, .captures)
        try put(refunds, .refunds)
        try put(chargebacks, .chargebacks)
    }
}

/// The seed's `CPayCheckData`: the same type as ``CPayResultData``.
public typealias CPayCheckData = CPayResultData
