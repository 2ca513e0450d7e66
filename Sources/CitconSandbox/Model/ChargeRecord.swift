import CitconUPI
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

/// A charge as the sandbox stores it.
public struct ChargeRecord: Sendable, Equatable, Codable {
    /// Transaction id: 19 decimal digits, a long numeric string as the live API's.
    public var id: String
    /// The token the app confirms with.
    public var chargeToken: String
    /// The merchant's reference.
    public var reference: String
    /// Amount in minor units.
    public var amount: Int
    /// ISO 4217 currency.
    public var currency: String
    /// ISO 3166-1 country.
    public var country: String
    /// Capture at payment.
    public var autoCapture: Bool
    /// Merchant's note.
    public var note: String
    /// Payment method, once known.
    public var method: String?
    /// Current status.
    public var status: CPayStatus
    /// IPN and browser returns.
    public var urls: CPayUrls
    /// Where the wallet returns to the app (from the confirmation).
    public var returnURL: String?
    /// Times, milliseconds since 1970.
    public var timeCreated: Int64
    /// When the charge expires if still unpaid.
    public var expiresAt: Int64
    /// Authorization time.
    public var timeAuthorized: Int64?
    /// Capture time.
    public var timeCaptured: Int64?
    /// Cancellation time.
    public var timeCanceled: Int64?
    /// Captured amount (`nil` for methods without capture).
    public var amountCaptured: Int?
    /// Refunded amount.
    public var amountRefunded: Int?
    /// Captures made.
    public var captures: [CPayOperation] = []
    /// Refunds made.
    public var refunds: [CPayOperation] = []

    /// Makes a charge record (for the API, and for tests of a store).
    public init(id: String, chargeToken: String, reference: String, amount: Int, currency: String, country: String,
                autoCapture: Bool, note: String, method: String?, status: CPayStatus, urls: CPayUrls, returnURL: String?,
                timeCreated: Int64, expiresAt: Int64) {
        self.id = id
        self.chargeToken = chargeToken
        self.reference = reference
        self.amount = amount
        self.currency = currency
        self.country = country
        self.autoCapture = autoCapture
        self.note = note
        self.method = method
        self.status = status
        self.urls = urls
        self.returnURL = returnURL
        self.timeCreated = timeCreated
        self.expiresAt = expiresAt
    }

    /// The legal status changes; anything else is refused with `4090`.
    public static let transitions: [CPayStatus: Set<CPayStatus>] = [
        .initiated: [.pending, .canceled, .expired],
        .pending: [.authorized, .succeeded, .failed, .canceled, .expired],
        .authorized: [.succeeded, .canceled],
    ]

    /// Whether the status may change to `next`.
    public func canMove(to next: CPayStatus) -> Bool { Self.transitions[status]?.contains(next) ?? false }

    /// Whether the charge is still waiting for payment and its time is up.
    public func isOverdue(now: Int64) -> Bool { (status == .initiated || status == .pending) && now >= expiresAt }

    /// Expires the charge when it is still unpaid and its time is up; `true` if it did.
    @discardableResult
    public mutating func expireIfOverdue(now: Int64) -> Bool {
        guard isOverdue(now: now) else { return false }
        status = .expired
        return true
    }

    /// The amount that may still be refunded.
    public var refundable: Int {
        guard status == .succeeded else { return 0 }
        return (amountCaptured ?? amount) - (amountRefunded ?? 0)
    }

    /// The transaction as the inquiry and the IPN show it (the shape of the seed's
    /// asynchronous example).
    public var checkData: CPayCheckData {
        var data = CPayCheckData()
        data.id = id
        data.object = "charge"
        data.amount = amount
        data.currency = currency
        data.status = status
        data.timeCanceled = timeCanceled.map(CPayNumberOrText.number) ?? .text("")
        data.expiry = .number(expiresAt)
        // The live API has second resolution: times are reported in whole seconds.
        data.timeCreated = wholeSeconds(timeCreated)
        data.country = country
        data.reference = reference
        data.amountCaptured = amountCaptured
        data.amountRefunded = amountRefunded
        data.timeCaptured = timeCaptured.map(wholeSeconds)
        data.timeAuthorized = timeAuthorized.map(wholeSeconds)
        data.autoCapture = autoCapture
        data.payment = CPayCheckDataPayment(method: method, token: nil, type: "",
                                            data: { var card = CPayPaymentData(); card.pan = ""; card.expiry = ""; return card }())
        data.exchange = CPayExchange()
        data.captures = CPayList(captures)
        data.refunds = CPayList(refunds)
        data.chargebacks = CPayList()
        return data
    }

    /// The IPN's fields as Citcon sends them (protocol notes §5), in order, unsigned:
    /// the worker adds `fields` and `sign` with the merchant's IPN secret when it
    /// delivers. Stored in the outbox as a JSON array of `[name, value]` pairs.
    public var notificationFields: [(String, String)] {
        let completed = timeCaptured ?? timeCanceled ?? timeAuthorized
        return [
            ("id", id),
            ("transaction_type", "charge"),
            ("reference", reference),
            ("amount", String(amount)),
            ("currency", currency),
            ("status", ipnStatus),
            ("time_created", Self.iso8601(timeCreated)),
            ("time_completed", completed.map(Self.iso8601) ?? ""),
            ("payment_method", method ?? ""),
            ("amount_captured", amountCaptured.map(String.init) ?? ""),
            ("amount_refunded", amountRefunded.map(String.init) ?? ""),
        ]
    }

    /// The outbox payload: ``notificationFields`` as a JSON array of pairs.
    public var notificationPayload: Data {
        (try? JSONEncoder().encode(notificationFields.map { [$0.0, $0.1] })) ?? Data("[]".utf8)
    }

    /// The status in the words IPNs use: `authorized`, `captured`, `success`,
    /// `cancelled`, `fail` (and `pending` for a charge the consumer has not finished).
    public var ipnStatus: String {
        switch status {
        case .authorized: "authorized"
        case .succeeded: autoCapture || timeCaptured == nil ? "success" : "captured"
        case .canceled, .expired: "cancelled"
        case .failed: "fail"
        default: "pending"
        }
    }

    static func iso8601(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }
}

/// `milliseconds` cut to the whole second, as the live API reports times.
func wholeSeconds(_ milliseconds: Int64) -> Int64 { milliseconds - milliseconds % 1000 }

/// An access token as stored.
public struct AccessTokenRecord: Sendable, Equatable, Codable {
    /// The token.
    public var token: String
    /// `server` or `client`.
    public var type: String
    /// Granted permissions.
    public var permissions: [String]
    /// Expiry, milliseconds since 1970.
    public var expiresAt: Int64

    /// Makes a token record.
    public init(token: String, type: String, permissions: [String], expiresAt: Int64) {
        self.token = token
        self.type = type
        self.permissions = permissions
        self.expiresAt = expiresAt
    }

    /// Permissions of each token type.
    public static let permissions: [String: [String]] = [
        "server": ["charge", "inquiry", "capture", "refund", "cancel"],
        "client": ["confirm", "inquiry"],
    ]
}

/// An IPN in the outbox.
public struct OutboxEntry: Sendable, Equatable {
    /// Row id.
    public var id: Int64
    /// The transaction.
    public var transactionID: String
    /// The status the notification reports.
    public var status: String
    /// Where it goes.
    public var url: String
    /// The JSON body.
    public var payload: Data
    /// Attempts made so far.
    public var attempts: Int
    /// When the next attempt is due (ms since 1970).
    public var nextAttemptAt: Int64
    /// `pending`, `delivered` or `dead`.
    public var state: String
    /// The last failure.
    public var lastError: String?

    /// Makes an entry (for stores).
    public init(id: Int64, transactionID: String, status: String, url: String, payload: Data, attempts: Int,
                nextAttemptAt: Int64, state: String, lastError: String?) {
        self.id = id
        self.transactionID = transactionID
        self.status = status
        self.url = url
        self.payload = payload
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.state = state
        self.lastError = lastError
    }
}

/// The error the API answers with: a `fail` envelope with `data.code` and `data.message`.
public struct APIError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The UPI code.
    public var code: UPIWire.Code
    /// What went wrong; names the field.
    public var message: String

    /// Makes an error.
    public init(_ code: UPIWire.Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// The HTTP status for the code, as the live API pairs them where it was seen
    /// (`4100` with 400, `4202` with 406; protocol notes §5).
    public var httpStatus: Int {
        switch code {
        case .invalidRequest, .malformedJSON, .duplicateReference: 400
        case .notFound: 404
        case .unauthorized: 401
        case .forbidden: 403
        case .methodNotAllowed: 405
        case .refundFailed: 406
        case .illegalState: 409
        case .gatewayError: 502
        case .bodyTooLarge: 413
        case .amountExceeded, .partialRefundIneligible: 422
        case .expired: 410
        }
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
