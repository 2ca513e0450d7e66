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
        if code != nil, id == nil {
            // A failure: its code and message, and whatever else it carried (only what is
            // there, so that the live API's `fail` shape stays as it is and nothing read is lost).
            try c.encodeIfPresent(object, forKey: .object)
            try c.encodeIfPresent(amount, forKey: .amount)
            try c.encodeIfPresent(currency, forKey: .currency)
            try c.encodeIfPresent(status, forKey: .status)
            try c.encodeIfPresent(timeCanceled, forKey: .timeCanceled)
            try c.encodeIfPresent(expiry, forKey: .expiry)
            try c.encodeIfPresent(timeCreated.map(UPIWire.wireTime), forKey: .timeCreated)
            try c.encodeIfPresent(country, forKey: .country)
            try c.encodeIfPresent(reference, forKey: .reference)
            try c.encodeIfPresent(amountCaptured, forKey: .amountCaptured)
            try c.encodeIfPresent(amountRefunded, forKey: .amountRefunded)
            try c.encodeIfPresent(timeCaptured.map(UPIWire.wireTime), forKey: .timeCaptured)
            try c.encodeIfPresent(timeAuthorized.map(UPIWire.wireTime), forKey: .timeAuthorized)
            try c.encodeIfPresent(timeCompleted.map(UPIWire.wireTime), forKey: .timeCompleted)
            try c.encodeIfPresent(autoCapture, forKey: .autoCapture)
            try c.encodeIfPresent(chargeToken, forKey: .chargeToken)
            try c.encodeIfPresent(payment, forKey: .payment)
            try c.encodeIfPresent(exchange, forKey: .exchange)
            try c.encodeIfPresent(captures, forKey: .captures)
            try c.encodeIfPresent(refunds, forKey: .refunds)
            try c.encodeIfPresent(chargebacks, forKey: .chargebacks)
            return
        }
        try c.encode(id, forKey: .id)
        try c.encode(object, forKey: .object)
        try c.encode(amount, forKey: .amount)
        try c.encode(currency, forKey: .currency)
        try c.encode(status, forKey: .status)
        try c.encode(timeCanceled, forKey: .timeCanceled)
        try c.encode(expiry, forKey: .expiry)
        // Times go out as the live API writes them: Unix seconds (they are read back
        // from seconds or milliseconds).
        try c.encode(timeCreated.map(UPIWire.wireTime), forKey: .timeCreated)
        try c.encode(country, forKey: .country)
        try c.encode(reference, forKey: .reference)
        try c.encode(amountCaptured, forKey: .amountCaptured)
        try c.encode(amountRefunded, forKey: .amountRefunded)
        try c.encode(timeCaptured.map(UPIWire.wireTime), forKey: .timeCaptured)
        try c.encode(timeAuthorized.map(UPIWire.wireTime), forKey: .timeAuthorized)
        try c.encodeIfPresent(timeCompleted.map(UPIWire.wireTime), forKey: .timeCompleted)
        try c.encode(autoCapture, forKey: .autoCapture)
        try c.encodeIfPresent(chargeToken, forKey: .chargeToken)
        try c.encode(payment, forKey: .payment)
        try c.encode(exchange, forKey: .exchange)
        try c.encode(captures, forKey: .captures)
        try c.encode(refunds, forKey: .refunds)
        try c.encode(chargebacks, forKey: .chargebacks)
    }
}

/// The seed's `CPayCheckData`: the same type as ``CPayResultData``.
public typealias CPayCheckData = CPayResultData
