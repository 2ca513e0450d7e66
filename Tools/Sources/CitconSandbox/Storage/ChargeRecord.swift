@_spi(Tools) import CitconUPI
import ChargeKit
import Foundation

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
    /// The outcome a test asked for with the `ChargeKit-Scenario` header
    /// (a `SandboxScenario`'s raw value: `declined`, `capture-fails`…), if any.
    public var scenario: String?
    /// What the `ChargeKit-IPN-Fault` header asked of its IPNs (``IPNFault/text``), if anything.
    public var ipnFault: String?
    /// The status changes as stored (absent from records written before the sandbox
    /// kept them); read ``statusHistory``.
    private var history: [StatusChange]?

    /// One status the charge took, and when.
    public struct StatusChange: Sendable, Equatable, Codable {
        /// The status taken.
        public var status: CPayStatus
        /// When, milliseconds since 1970.
        public var time: Int64

        /// Makes a status change.
        public init(status: CPayStatus, time: Int64) {
            self.status = status
            self.time = time
        }
    }

    /// Every status the charge took, oldest first, starting with the one it was created
    /// in. A record written before the sandbox kept its history shows its creation and,
    /// when it has moved since, its current status at an unknown time (`0`).
    public var statusHistory: [StatusChange] {
        if let history { return history }
        let created = StatusChange(status: .initiated, time: timeCreated)
        return status == .initiated ? [created] : [created, StatusChange(status: status, time: 0)]
    }

    /// Runs `change` on the charge and, when it moved the status, adds the new status
    /// at `now` to ``statusHistory``. What every store's `updateCharge` runs its body with.
    /// - Returns: what `change` returned, and whether the status changed.
    public mutating func apply<T>(now: Int64, _ change: (inout ChargeRecord) throws -> T) rethrows -> (value: T, notification: Notification?) {
        let before = status, refundsBefore = refunds.count
        let value = try change(&self)
        let fault = ipnFault.flatMap(IPNFault.init(header:))
        if refunds.count > refundsBefore, let refund = refunds.last {
            return (value, Notification(status: .refunded, payload: Self.payload(refundNotificationFields(refund)),
                                        hold: fault?.hold(status: "refunded") ?? 0))
        }
        guard status != before else { return (value, nil) }
        history = statusHistory + [StatusChange(status: status, time: now)]
        return (value, Notification(status: .charge(status), payload: notificationPayload, hold: fault?.hold(status: status.rawValue) ?? 0))
    }

    /// An IPN a change owes: what the outbox records of it (`status` names it on the
    /// dashboard) and its unsigned fields.
    public struct Notification: Sendable {
        public let status: NotificationStatus
        public let payload: Data
        /// How long after the change its first attempt is due, in milliseconds
        /// (``IPNFault``; 0 for at once). Every store's `updateCharge` adds it to `now`.
        public var hold: Int64 = 0
    }

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
        history = [StatusChange(status: status, time: timeCreated)]
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
        // Every time in Unix seconds, as the live API writes them (the seed's empty
        // string for a charge never canceled).
        data.timeCanceled = timeCanceled.map { .number(UPIWire.wireTime(wholeSeconds($0))) } ?? .text("")
        data.expiry = .number(UPIWire.wireTime(wholeSeconds(expiresAt)))
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

    /// A refund's IPN, as the live API's transaction IPNs are shaped (protocol notes
    /// §5): the refund's own `id`, `reference`, `amount` and times, `transaction_type`
    /// `refund`, status `success`, and the charge's `amount_captured` and
    /// `amount_refunded` so far.
    func refundNotificationFields(_ refund: CPayOperation) -> [(String, String)] {
        let time = Self.iso8601(refund.timeCreated ?? timeCreated)
        return [
            ("id", refund.id),
            ("transaction_type", "refund"),
            ("reference", refund.reference ?? ""),
            ("amount", String(refund.amount)),
            ("currency", refund.currency ?? currency),
            ("status", "success"),
            ("time_created", time),
            ("time_completed", time),
            ("payment_method", method ?? ""),
            ("amount_captured", amountCaptured.map(String.init) ?? ""),
            ("amount_refunded", amountRefunded.map(String.init) ?? ""),
        ]
    }

    /// The outbox payload: ``notificationFields`` as a JSON array of pairs.
    public var notificationPayload: Data { Self.payload(notificationFields) }

    /// Fields as the outbox keeps them: a JSON array of `[name, value]` pairs.
    static func payload(_ fields: [(String, String)]) -> Data {
        (try? JSONEncoder().encode(fields.map { [$0.0, $0.1] })) ?? Data("[]".utf8)
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

extension ChargeRecord {
    /// The record as stored (SQLite's and PostgreSQL's `doc`): the JSON its `Codable`
    /// conformance reads, keys sorted, absent optionals left out.
    public var document: Data {
        get throws { try UPIWire.encoder().encode(self) }
    }
}

/// `milliseconds` cut to the whole second, as the live API reports times.
func wholeSeconds(_ milliseconds: Int64) -> Int64 { milliseconds - milliseconds % 1000 }

extension ChargeRecord {
    /// `minorUnits` of the charge's currency as people read them, with the minor units
    /// the API took: `50.00 USD (5000)`. Messages use it, so that they speak in the
    /// units of `--amount` (major) and of the API and `--amount-minor` (minor) alike.
    func money(_ minorUnits: Int) -> String {
        guard let currency = try? Currency(code: currency) else { return "\(minorUnits) \(self.currency)" }
        return "\(Money(minorUnits: Int64(minorUnits), currency: currency)) (\(minorUnits))"
    }
}
