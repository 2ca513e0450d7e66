import Foundation

/// The synchronous payment result delivered to ``CPayManager/requestOrder(_:callback:)``:
/// the seed's `CPayResult`. `status == "success"` and `data.status == .succeeded`
/// together mean the payment succeeded.
public struct CPayResult: Sendable, Equatable, Codable {
    /// `success` or `fail`: whether the request worked, not whether the payment did.
    public var status: String
    /// `citcon_upi`.
    public var app: String?
    /// The API version, such as `v0.1.1`.
    public var version: String
    /// The transaction.
    public var data: CPayResultData?

    /// Makes a result.
    public init(status: String, app: String? = "citcon_upi", version: String, data: CPayResultData?) {
        self.status = status
        self.app = app
        self.version = version
        self.data = data
    }

    /// Whether both `status` and `data.status` say the payment succeeded.
    public var isPaid: Bool { status == "success" && data?.status == .succeeded }
}

/// The transaction inside a ``CPayResult``: the seed's `CPayResultData`.
public struct CPayResultData: Sendable, Equatable, Codable {
    /// Error code when the payment failed (see ``CPayClientCode``).
    public var code: String?
    /// Error description.
    public var message: String?
    /// Citcon's transaction id.
    public var id: String?
    /// Transaction type, such as `charge`.
    public var object: String?
    /// The merchant's reference.
    public var reference: String?
    /// Amount in minor units.
    public var amount: Int?
    /// Captured amount in minor units.
    public var amountCaptured: Int?
    /// Refunded amount in minor units.
    public var amountRefunded: Int?
    /// ISO 4217 currency.
    public var currency: String?
    /// ISO 3166-1 alpha-2 country.
    public var country: String?
    /// Whether the charge is captured automatically.
    public var autoCapture: Bool?
    /// The transaction status.
    public var status: CPayStatus?
    /// Creation time, milliseconds since 1970.
    public var timeCreated: Int64?
    /// Authorization time.
    public var timeAuthorized: Int64?
    /// Capture time.
    public var timeCaptured: Int64?
    /// The charge token (not used by the SDK).
    public var chargeToken: String?
    /// The payment method.
    public var payment: CPayResultDataPayment?

    /// Makes empty data.
    public init() {}

    /// ``code`` as a typed value.
    public var clientCode: CPayClientCode? { code.map(CPayClientCode.init(rawValue:)) }

    enum CodingKeys: String, CodingKey {
        case code, message, id, object, reference, amount, currency, country, status, payment
        case amountCaptured = "amount_captured", amountRefunded = "amount_refunded"
        case autoCapture = "auto_capture", timeCreated = "time_created"
        case timeAuthorized = "time_authorized", timeCaptured = "time_captured", chargeToken = "charge_token"
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        code = try c.decodeLenientString(.code)
        message = try c.decodeIfPresent(String.self, forKey: .message)
        id = try c.decodeIfPresent(String.self, forKey: .id)
        object = try c.decodeIfPresent(String.self, forKey: .object)
        reference = try c.decodeIfPresent(String.self, forKey: .reference)
        amount = try c.decodeIfPresent(Int.self, forKey: .amount)
        amountCaptured = try c.decodeIfPresent(Int.self, forKey: .amountCaptured)
        amountRefunded = try c.decodeIfPresent(Int.self, forKey: .amountRefunded)
        currency = try c.decodeIfPresent(String.self, forKey: .currency)
        country = try c.decodeIfPresent(String.self, forKey: .country)
        autoCapture = try c.decodeLenientBool(.autoCapture)
        status = try c.decodeIfPresent(CPayStatus.self, forKey: .status)
        timeCreated = try c.decodeEpochMilliseconds(.timeCreated)
        timeAuthorized = try c.decodeEpochMilliseconds(.timeAuthorized)
        timeCaptured = try c.decodeEpochMilliseconds(.timeCaptured)
        chargeToken = try c.decodeIfPresent(String.self, forKey: .chargeToken)
        payment = try c.decodeIfPresent(CPayResultDataPayment.self, forKey: .payment)
    }
}

/// The payment method of a ``CPayResultData``.
public struct CPayResultDataPayment: Sendable, Equatable, Codable {
    /// The method, such as `paypal`.
    public var method: String?

    /// Makes a payment object.
    public init(method: String? = nil) { self.method = method }
}

/// The inquiry and asynchronous-notification result: the seed's `CPayCheck`, posted
/// with ``CPayManager/NTFY_ASYNC()`` and delivered to
/// ``CPayManager/inquireOrder(_:callback:)``. The UPI sandbox sends the same JSON as IPN.
public struct CPayCheck: Sendable, Equatable, Codable {
    /// `success` or `fail`.
    public var status: String
    /// The API version.
    public var version: String
    /// `citcon_upi`.
    public var app: String
    /// The transaction, or `code`/`message` on failure.
    public var data: CPayCheckData?

    /// Makes a check.
    public init(status: String, version: String, app: String = "citcon_upi", data: CPayCheckData?) {
        self.status = status
        self.version = version
        self.app = app
        self.data = data
    }

    /// Whether both `status` and `data.status` say the payment succeeded.
    public var isPaid: Bool { status == "success" && data?.status == .succeeded }
}

/// The transaction inside a ``CPayCheck``: the seed's `CPayCheckData`, with the
/// asynchronous example's `exchange`, `captures`, `refunds` and `chargebacks`.
/// Encoding writes `null` for absent values, as the UPI server does.
public struct CPayCheckData: Sendable, Equatable, Codable {
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
        case timeCompleted = "time_completed"
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
        if code != nil, id == nil { return }
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
        try c.encode(payment, forKey: .payment)
        try c.encode(exchange, forKey: .exchange)
        try c.encode(captures, forKey: .captures)
        try c.encode(refunds, forKey: .refunds)
        try c.encode(chargebacks, forKey: .chargebacks)
    }
}

/// Payment details inside a ``CPayCheckData``: the seed's `CPayCheckDataPayment`.
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

/// Currency exchange of a transaction.
public struct CPayExchange: Sendable, Equatable, Codable {
    /// Amount in the settlement currency's minor unit.
    public var amount: Int?
    /// Settlement currency.
    public var currency: String?
    /// Rate, exact.
    public var rate: Decimal?

    /// Makes an exchange object.
    public init(amount: Int? = nil, currency: String? = nil, rate: Decimal? = nil) {
        self.amount = amount
        self.currency = currency
        self.rate = rate
    }

    enum CodingKeys: String, CodingKey { case amount, currency, rate }

    /// Reads `rate` as a JSON number or a decimal string (either may come: the live
    /// API's `exchange` is not documented, and an unknown shape must not refuse a charge).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        amount = try? c.decodeIfPresent(Int.self, forKey: .amount)
        currency = try? c.decodeIfPresent(String.self, forKey: .currency)
        if let number = try? c.decodeIfPresent(Decimal.self, forKey: .rate) {
            rate = number
        } else if let text = try? c.decodeIfPresent(String.self, forKey: .rate) {
            rate = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(amount, forKey: .amount)
        try c.encode(currency, forKey: .currency)
        try c.encode(rate, forKey: .rate)
    }
}

/// A `{"data": [...]}` list of captures, refunds or chargebacks.
public struct CPayList: Sendable, Equatable, Codable {
    /// The entries.
    public var data: [CPayOperation]

    /// Makes a list.
    public init(_ data: [CPayOperation] = []) { self.data = data }
}

/// A capture, refund or chargeback of a transaction.
public struct CPayOperation: Sendable, Equatable, Codable {
    /// Its id.
    public var id: String
    /// `capture`, `refund` or `chargeback`.
    public var object: String
    /// The merchant's reference for the operation.
    public var reference: String?
    /// Amount in minor units.
    public var amount: Int
    /// Currency.
    public var currency: String?
    /// Status, such as `succeeded`.
    public var status: CPayStatus
    /// Creation time, milliseconds since 1970.
    public var timeCreated: Int64?
    /// Reason given (refunds).
    public var reason: String?

    /// Makes an operation.
    public init(id: String, object: String, reference: String?, amount: Int, currency: String?,
                status: CPayStatus, timeCreated: Int64?, reason: String? = nil) {
        self.id = id
        self.object = object
        self.reference = reference
        self.amount = amount
        self.currency = currency
        self.status = status
        self.timeCreated = timeCreated
        self.reason = reason
    }

    enum CodingKeys: String, CodingKey {
        case id, object, reference, amount, currency, status, reason
        case timeCreated = "time_created"
    }
}

extension KeyedDecodingContainer {
    /// A time as milliseconds since 1970, read from either world: the live API sends
    /// Unix **seconds**, the seed's examples and older documents milliseconds. A value
    /// above 10^11 is taken as milliseconds (10^11 seconds is the year 5138), anything
    /// else as seconds. `null` and absence are `nil`.
    func decodeEpochMilliseconds(_ key: Key) throws -> Int64? {
        guard let value = try decodeIfPresent(Int64.self, forKey: key) else { return nil }
        return UPIWire.epochMilliseconds(value)
    }

    /// A string that the server may send as a number (`"code": 4010`).
    func decodeLenientString(_ key: Key) throws -> String? {
        if let number = try? decodeIfPresent(Int64.self, forKey: key) { return String(number) }
        return try decodeIfPresent(String.self, forKey: key)
    }

    /// A Bool that the seed's table types as String (`"true"`/`"false"`).
    func decodeLenientBool(_ key: Key) throws -> Bool? {
        if let text = try? decodeIfPresent(String.self, forKey: key) {
            switch text {
            case "true": return true
            case "false": return false
            default:
                throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "expected true or false")
            }
        }
        return try decodeIfPresent(Bool.self, forKey: key)
    }
}
