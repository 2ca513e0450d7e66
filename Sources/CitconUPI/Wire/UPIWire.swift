import Foundation

/// The UPI REST API's wire format, shared by ``UPIClient`` and the local sandbox
/// server so that both speak exactly the same JSON. Keys are snake_case.
///
/// Not API for apps (an app calls ``CPayManager``): it is SPI for ChargeKit's own
/// tools, the sandbox and the `chargekit` command, which import it with
/// `@_spi(Tools) import CitconUPI`.
@_spi(Tools) public enum UPIWire {
    /// The API name every envelope carries.
    public static let app = "citcon_upi"
    /// The API version this SDK and the sandbox speak.
    public static let version = "v0.1.1"
    /// The `Authorization` header scheme.
    public static let bearer = "Bearer "
    /// The largest response body the client reads, and request body the sandbox accepts.
    public static let maximumBodyBytes = 64 * 1024

    /// A Unix time in seconds or milliseconds, as milliseconds: a value above 10^11
    /// is already milliseconds (10^11 seconds is the year 5138), else it is seconds.
    /// The live API sends seconds; the seed and older documents milliseconds.
    public static func epochMilliseconds(_ value: Int64) -> Int64 {
        let bound = Int64(100_000) * 1_000_000  // 10^11, written so that no literal needs a 64-bit Int
        return value > bound || value < -bound ? value : value.multipliedReportingOverflow(by: 1000).partialValue
    }

    /// A time in milliseconds as the live API writes it: Unix seconds when it is a
    /// whole second, else milliseconds.
    ///
    /// ``epochMilliseconds(_:)`` reads the result back to the same value for every time
    /// it can produce: a whole second whose count of seconds is beyond 10^11 (after the
    /// year 5138) stays in milliseconds, since that many seconds would be read as
    /// milliseconds. (A time within 10^11 ms of 1970, before March 1973, with a part of a
    /// second, has no unambiguous form; it is written in milliseconds.)
    public static func wireTime(_ milliseconds: Int64) -> Int64 {
        let seconds = milliseconds / 1000
        return milliseconds % 1000 == 0 && epochMilliseconds(seconds) == milliseconds ? seconds : milliseconds
    }

    /// `{"status", "app", "version", "data"}`. Decoding takes envelopes without
    /// `app` or `version` (the live API omits `version` on some errors) and never
    /// checks the version (`v1.0.0` live, `v0.1.1` in the seed).
    public struct Envelope<Payload: Sendable>: Sendable {
        /// `success` or `fail`.
        public var status: String
        /// `citcon_upi`.
        public var app: String
        /// The API version.
        public var version: String
        /// The payload or a ``Failure``.
        public var data: Payload

        /// Wraps a payload.
        public init(status: String = "success", data: Payload) {
            self.status = status
            self.app = UPIWire.app
            self.version = UPIWire.version
            self.data = data
        }

        enum CodingKeys: String, CodingKey { case status, app, version, data }
    }

    /// The `data` of a `fail` envelope.
    public struct Failure: Codable, Sendable, Equatable {
        /// The numeric code as a string, such as `4010`.
        public var code: String
        /// What went wrong, naming the field.
        public var message: String

        /// Makes a failure.
        public init(code: String, message: String) {
            self.code = code
            self.message = message
        }
    }

    /// `POST /v1/access-tokens` body.
    public struct AccessTokenRequest: Encodable, Sendable, Equatable {
        /// `server` or `client`.
        public var tokenType: String

        /// Makes a request.
        public init(tokenType: String) { self.tokenType = tokenType }

        enum CodingKeys: String, CodingKey { case tokenType = "token_type" }
    }

    /// `POST /v1/access-tokens` answer.
    public struct AccessToken: Codable, Sendable, Equatable {
        /// The token to send as `Authorization: Bearer …`.
        public var accessToken: String
        /// `server` or `client`.
        public var tokenType: String
        /// Expiry, milliseconds since 1970 (read from seconds or milliseconds; written
        /// in seconds, as the live API does).
        public var expiry: Int64
        /// What the token may do, such as `charge`, `confirm`, `inquiry`: the live API's
        /// `permission` (singular), or `permissions` as the seed and 2022 documents write it.
        public var permissions: [String]

        /// Makes an answer.
        public init(accessToken: String, tokenType: String, expiry: Int64, permissions: [String]) {
            self.accessToken = accessToken
            self.tokenType = tokenType
            self.expiry = expiry
            self.permissions = permissions
        }

        enum CodingKeys: String, CodingKey {
            case expiry, permissions, permission
            case accessToken = "access_token", tokenType = "token_type"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            accessToken = try c.decode(String.self, forKey: .accessToken)
            tokenType = try c.decode(String.self, forKey: .tokenType)
            expiry = UPIWire.epochMilliseconds(try c.decode(Int64.self, forKey: .expiry))
            permissions = try c.decodeIfPresent([String].self, forKey: .permission)
                ?? c.decodeIfPresent([String].self, forKey: .permissions) ?? []
        }

        /// Writes what the live API writes: `permission` (singular) and `expiry` in Unix seconds.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(accessToken, forKey: .accessToken)
            try c.encode(tokenType, forKey: .tokenType)
            try c.encode(UPIWire.wireTime(expiry), forKey: .expiry)
            try c.encode(permissions, forKey: .permission)
        }
    }

    /// `POST /v1/charges` body: what the merchant's server sends (encoded only: the
    /// sandbox reads the body with its own type).
    public struct ChargeRequest: Encodable, Sendable, Equatable {
        /// The trade.
        public var transaction: CPayTransaction
        /// The method (optional at creation; the SDK confirms with one).
        public var payment: CPayPayment?
        /// IPN and browser returns.
        public var urls: CPayUrls?
        /// The consumer.
        public var consumer: CPayConsumer?
        /// Goods.
        public var goods: CPayGoods?

        /// Makes a body.
        public init(transaction: CPayTransaction, payment: CPayPayment? = nil, urls: CPayUrls? = nil,
                    consumer: CPayConsumer? = nil, goods: CPayGoods? = nil) {
            self.transaction = transaction
            self.payment = payment
            self.urls = urls
            self.consumer = consumer
            self.goods = goods
        }

        /// The body for an order: its transaction, payment, URLs, consumer and goods.
        public init(order: CPayRequest) {
            self.init(transaction: order.transaction, payment: order.payment.method.isEmpty ? nil : order.payment,
                      urls: order.urls, consumer: order.consumer, goods: order.goods)
        }
    }

    /// One way to pay a created charge (`payment.client[]` of the create answer), as read.
    public struct PaymentClient: Decodable, Sendable, Equatable {
        /// `desktop`, `mobile_browser` or `mobile_native`.
        public var client: String
        /// `redirect` or `qr`.
        public var format: String
        /// The HTTP method to open `content` with (`GET`).
        public var method: String
        /// The landing page or the QR code's URL.
        public var content: String
    }

    /// The `payment` of a create answer, as read.
    public struct CreatedPayment: Decodable, Sendable, Equatable {
        /// The method, when the charge was created with one.
        public var method: String?
        /// Where and how the consumer can pay.
        public var client: [PaymentClient]
    }

    /// `POST /v1/charges` answer, in the live API's shape (protocol notes §5): `object`,
    /// `charge_token`, `id`, `reference`, `amount`, `currency`, `time_created` (Unix
    /// seconds), `time_captured` (`null` until captured), `auto_capture`, `status`,
    /// `country`, optional `exchange`, and `payment` with its `client` entries. Reads
    /// the seed's shorter shape too. Read only: the sandbox writes its own.
    public struct ChargeCreated: Decodable, Sendable, Equatable {
        /// `charge`.
        public var object: String
        /// The transaction id.
        public var id: String
        /// The token the app confirms with.
        public var chargeToken: String
        /// `initiated`.
        public var status: CPayStatus
        /// The merchant's reference.
        public var reference: String
        /// Amount in minor units.
        public var amount: Int
        /// Currency.
        public var currency: String
        /// When the charge expires unpaid, milliseconds since 1970 (the sandbox's own;
        /// read from seconds or milliseconds, written in seconds).
        public var expiry: Int64?
        /// Creation time, milliseconds since 1970 (sent in seconds).
        public var timeCreated: Int64?
        /// Capture time (`null` until captured).
        public var timeCaptured: Int64?
        /// Whether the charge is captured automatically.
        public var autoCapture: Bool?
        /// ISO 3166-1 alpha-2 country.
        public var country: String?
        /// Currency exchange, when the wallet settles in another currency.
        public var exchange: CPayExchange?
        /// How the consumer can pay.
        public var payment: CreatedPayment?

        enum CodingKeys: String, CodingKey {
            case object, id, status, reference, amount, currency, expiry, country, exchange, payment
            case chargeToken = "charge_token", timeCreated = "time_created", timeCaptured = "time_captured"
            case autoCapture = "auto_capture"
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            object = try c.decodeIfPresent(String.self, forKey: .object) ?? "charge"
            id = try c.decode(String.self, forKey: .id)
            chargeToken = try c.decode(String.self, forKey: .chargeToken)
            status = try c.decode(CPayStatus.self, forKey: .status)
            reference = try c.decode(String.self, forKey: .reference)
            amount = try c.decode(Int.self, forKey: .amount)
            currency = try c.decode(String.self, forKey: .currency)
            expiry = try c.decodeEpochMilliseconds(.expiry)
            timeCreated = try c.decodeEpochMilliseconds(.timeCreated)
            timeCaptured = try c.decodeEpochMilliseconds(.timeCaptured)
            autoCapture = try c.decodeLenientBool(.autoCapture)
            country = try c.decodeIfPresent(String.self, forKey: .country)
            exchange = try? c.decodeIfPresent(CPayExchange.self, forKey: .exchange)
            payment = try? c.decodeIfPresent(CreatedPayment.self, forKey: .payment)
        }
    }

    /// `POST /v1/charges/{charge-token}` body: what the SDK sends (encoded only).
    public struct ConfirmRequest: Encodable, Sendable, Equatable {
        /// The method chosen.
        public var payment: CPayPayment
        /// The consumer.
        public var consumer: CPayConsumer?
        /// Where the wallet returns to the app: its scheme URL or universal link.
        public var returnURL: String?
        /// Extra data.
        public var ext: CPayExt?
        /// Installments.
        public var installments: CPayInstallments?

        /// Makes a body.
        public init(payment: CPayPayment, consumer: CPayConsumer? = nil, returnURL: String? = nil,
                    ext: CPayExt? = nil, installments: CPayInstallments? = nil) {
            self.payment = payment
            self.consumer = consumer
            self.returnURL = returnURL
            self.ext = ext
            self.installments = installments
        }

        enum CodingKeys: String, CodingKey {
            case payment, consumer, ext, installments
            case returnURL = "return_url"
        }
    }

    /// What the app must do next after a confirmation: open the wallet.
    public struct NextAction: Decodable, Sendable, Equatable {
        /// `redirect`.
        public var type: String
        /// The wallet page (sandbox) or wallet app URL.
        public var url: String
    }

    /// `POST /v1/charges/{charge-token}` answer: the transaction plus `next_action`.
    /// Read only: the sandbox writes its own.
    public struct Confirmation: Decodable, Sendable, Equatable {
        /// The transaction as an inquiry shows it.
        public var transaction: CPayCheckData
        /// Where to send the consumer.
        public var nextAction: NextAction

        enum CodingKeys: String, CodingKey { case nextAction = "next_action" }

        public init(from decoder: any Decoder) throws {
            transaction = try CPayCheckData(from: decoder)
            nextAction = try decoder.container(keyedBy: CodingKeys.self).decode(NextAction.self, forKey: .nextAction)
        }
    }

    /// `POST /v1/captures`, `/v1/refunds` and `/v1/cancels` body (encoded only).
    public struct OperationRequest: Encodable, Sendable, Equatable {
        /// The charge's id.
        public var transactionID: String
        /// The operation's own reference (an idempotency key; must differ from the charge's).
        public var reference: String
        /// Amount in minor units (captures and refunds; absent means all).
        public var amount: Int?
        /// Why (refunds).
        public var reason: String?
        /// The amount's currency, where the caller states it; it must be the charge's.
        public var currency: String?
        /// The charge's own reference (the live API's cancels send it); it must be the charge's.
        public var transactionReference: String?

        /// Makes a body.
        public init(transactionID: String, reference: String, amount: Int? = nil, reason: String? = nil,
                    currency: String? = nil, transactionReference: String? = nil) {
            self.transactionID = transactionID
            self.reference = reference
            self.amount = amount
            self.reason = reason
            self.currency = currency
            self.transactionReference = transactionReference
        }

        enum CodingKeys: String, CodingKey {
            case reference, amount, reason, currency
            case transactionID = "transaction_id", transactionReference = "transaction_reference"
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(transactionID, forKey: .transactionID)
            try c.encode(reference, forKey: .reference)
            try c.encodeIfPresent(amount, forKey: .amount)
            try c.encodeIfPresent(reason, forKey: .reason)
            try c.encodeIfPresent(currency, forKey: .currency)
            try c.encodeIfPresent(transactionReference, forKey: .transactionReference)
        }
    }

    /// A JSON encoder for the wire: sorted keys, so bodies are stable.
    public static func encoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

/// An envelope is read when its payload is (every answer and IPN the SDK reads).
extension UPIWire.Envelope: Decodable where Payload: Decodable {
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        status = try c.decode(String.self, forKey: .status)
        app = try c.decodeIfPresent(String.self, forKey: .app) ?? UPIWire.app
        version = try c.decodeIfPresent(String.self, forKey: .version) ?? ""
        data = try c.decode(Payload.self, forKey: .data)
    }
}

/// An envelope is written when its payload is (the sandbox's refusals, the tests' answers).
extension UPIWire.Envelope: Encodable where Payload: Encodable {}
