/// SumUp's custom URL scheme `sumupmerchant://pay/1.0`.
///
/// - ``PaymentRequest`` builds and validates the request (SMPPaymentRequest).
/// - ``Callback`` parses the `smp-` callback.
public enum SumUp {
    /// The base URL of a payment request.
    public static let baseURL = "sumupmerchant://pay/1.0"
    /// The scheme to list under `LSApplicationQueriesSchemes`.
    public static let scheme = "sumupmerchant"
    /// The longest `foreign-tx-id` SumUp accepts.
    public static let maximumForeignTransactionIDLength = 128

    /// Checks a `foreign-tx-id`: 1 to 128 printable ASCII characters.
    public static func validateForeignTransactionID(_ id: String, field: String = "foreign-tx-id") throws(ChargeKitError) {
        try id.withUTF8Span { bytes throws(ChargeKitError) in try validateForeignTransactionID(bytes, field: field) }
    }

    /// The rule of `validateForeignTransactionID(_:field:)`, on the id's UTF-8 bytes.
    static func validateForeignTransactionID(_ id: Span<UInt8>, field: @autoclosure () -> String) throws(ChargeKitError) {
        try FieldRules.nonEmpty(id, field: field())
        try FieldRules.printableASCII(id, field: field(), limit: maximumForeignTransactionIDLength)
    }

    /// A payment request: the Swift counterpart of `SMPPaymentRequest`.
    ///
    /// It is checked when made: a value of this type always makes a request URL (only
    /// items appended to its callback URLs can still break a length limit).
    ///
    /// The query is written in the order the reference class writes it: `amount`,
    /// `currency`, `affiliate-key`, `title`, `callbackfail`, `callbacksuccess`, then
    /// `receipt-email`, `receipt-mobilephone`, `foreign-tx-id`, `skip-screen-success`.
    public struct PaymentRequest: Hashable, Sendable, Codable {
        /// The amount to charge; its currency is sent as `currency`.
        public let amount: Money
        /// Your affiliate key, associated with your app's bundle identifier (`affiliate-key`).
        public let affiliateKey: String
        /// A title for the transaction (`title`).
        public let title: String?
        /// Opened when the transaction succeeds (`callbacksuccess`).
        public let callbackSuccess: String?
        /// Opened when the transaction fails (`callbackfail`).
        public let callbackFailure: String?
        /// Prefills the receipt email field (`receipt-email`).
        public let receiptEmail: String?
        /// Prefills the receipt phone field (`receipt-mobilephone`).
        public let receiptMobilePhone: String?
        /// Your id for the transaction, unique per merchant account (`foreign-tx-id`).
        public let foreignTransactionID: String?
        /// Skip SumUp's success screen; your app must then show the result (`skip-screen-success=true`).
        public let skipSuccessScreen: Bool

        /// Makes and checks a request, like
        /// `+[SMPPaymentRequest paymentRequestWithAmount:currency:title:affiliateKey:]`
        /// followed by setting the other properties.
        /// - Throws: ``ChargeKitError`` naming the first field that breaks a rule: an
        ///   amount that is not above zero, an empty or non-ASCII affiliate key, a title
        ///   over 255 characters, a callback URL without a scheme, a `foreign-tx-id` that
        ///   is not 1 to 128 printable ASCII characters.
        public init(
            amount: Money, title: String? = nil, affiliateKey: String, callbackSuccess: String? = nil, callbackFailure: String? = nil,
            receiptEmail: String? = nil, receiptMobilePhone: String? = nil, foreignTransactionID: String? = nil,
            skipSuccessScreen: Bool = false
        ) throws(ChargeKitError) {
            guard amount.minorUnits > 0 else { throw .invalidField("amount", rule: "must be greater than zero") }
            guard !affiliateKey.isEmpty else { throw .missingField("affiliate-key") }
            try FieldRules.printableASCII(affiliateKey, field: "affiliate-key", limit: 128)
            if let title { try FieldRules.text(title, field: "title", limit: 255) }
            if let callbackSuccess { try FieldRules.callbackURL(callbackSuccess, field: "callbacksuccess", allowingFragment: true) }
            if let callbackFailure { try FieldRules.callbackURL(callbackFailure, field: "callbackfail", allowingFragment: true) }
            if let receiptEmail, !receiptEmail.isEmpty { try FieldRules.text(receiptEmail, field: "receipt-email", limit: 255) }
            if let receiptMobilePhone, !receiptMobilePhone.isEmpty {
                try FieldRules.text(receiptMobilePhone, field: "receipt-mobilephone", limit: 32)
            }
            if let foreignTransactionID { try SumUp.validateForeignTransactionID(foreignTransactionID) }
            self.amount = amount
            self.affiliateKey = affiliateKey
            self.title = title
            self.callbackSuccess = callbackSuccess
            self.callbackFailure = callbackFailure
            self.receiptEmail = receiptEmail
            self.receiptMobilePhone = receiptMobilePhone
            self.foreignTransactionID = foreignTransactionID
            self.skipSuccessScreen = skipSuccessScreen
        }

        private enum CodingKeys: String, CodingKey {
            case amount, affiliateKey, title, callbackSuccess, callbackFailure, receiptEmail, receiptMobilePhone, foreignTransactionID
            case skipSuccessScreen
        }

        /// Decodes a request and checks it as ``init(amount:title:affiliateKey:callbackSuccess:callbackFailure:receiptEmail:receiptMobilePhone:foreignTransactionID:skipSuccessScreen:)`` does.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            try self.init(
                amount: container.decode(Money.self, forKey: .amount), title: container.decodeIfPresent(String.self, forKey: .title),
                affiliateKey: container.decode(String.self, forKey: .affiliateKey),
                callbackSuccess: container.decodeIfPresent(String.self, forKey: .callbackSuccess),
                callbackFailure: container.decodeIfPresent(String.self, forKey: .callbackFailure),
                receiptEmail: container.decodeIfPresent(String.self, forKey: .receiptEmail),
                receiptMobilePhone: container.decodeIfPresent(String.self, forKey: .receiptMobilePhone),
                foreignTransactionID: container.decodeIfPresent(String.self, forKey: .foreignTransactionID),
                skipSuccessScreen: container.decodeIfPresent(Bool.self, forKey: .skipSuccessScreen) ?? false)
        }

        /// The request URL. With `callbackItems`, those items (extras and the nonce) are
        /// appended to both callback URLs first.
        public func requestURL(callbackItems: [QueryItem] = []) throws(ChargeKitError) -> String {
            let failure = callbackFailure.map { QueryURL.appending(callbackItems, to: $0) }
            let success = callbackSuccess.map { QueryURL.appending(callbackItems, to: $0) }
            if let failure { try FieldRules.callbackURL(failure, field: "callbackfail", allowingFragment: true) }
            if let success { try FieldRules.callbackURL(success, field: "callbacksuccess", allowingFragment: true) }
            let fields: [(String, String?)] = [
                ("amount", amount.formatted),
                ("currency", amount.currency.code),
                ("affiliate-key", affiliateKey),
                ("title", title),
                ("callbackfail", failure),
                ("callbacksuccess", success),
                ("receipt-email", receiptEmail),
                ("receipt-mobilephone", receiptMobilePhone),
                ("foreign-tx-id", foreignTransactionID),
                ("skip-screen-success", skipSuccessScreen ? "true" : nil),
            ]
            let items = fields.compactMap { name, value in value.flatMap { $0.isEmpty ? nil : QueryItem(name, $0) } }
            return SumUp.baseURL + "?" + QueryURL.encode(items)
        }
    }

    /// A SumUp callback: `smp-status`, `smp-tx-code`, `foreign-tx-id`, `smp-message`,
    /// and what the real app also sends: `smp-receipt-sent`, `smp-failure-cause` and
    /// the framework's `smpprtag-<key>` tags. Any other `smp-` parameter is kept in
    /// ``unknownFields`` and reported, never a reason to refuse the callback.
    ///
    /// A `failed` callback that carries `smp-tx-code` stays a failure: a transaction
    /// code never means success.
    public struct Callback: Hashable, Sendable, Codable {
        /// Why a payment failed (`smp-failure-cause`).
        public enum FailureCause: OpenWireValue {
            /// `transaction-failed`: the payment itself failed.
            case transactionFailed
            /// `geolocation-required`: the app needs location access to take payments.
            case geolocationRequired
            /// `invalid-param`: a request parameter was missing or invalid.
            case invalidParameter
            /// `invalid-token`: the affiliate key or login was not accepted.
            case invalidToken
            /// A cause not documented; kept as sent.
            case other(String)

            /// `transaction-failed`, `geolocation-required`, `invalid-param`, `invalid-token`.
            public static let documented: [FailureCause] = [.transactionFailed, .geolocationRequired, .invalidParameter, .invalidToken]

            /// The wire value.
            public var rawValue: String {
                switch self {
                case .transactionFailed: "transaction-failed"
                case .geolocationRequired: "geolocation-required"
                case .invalidParameter: "invalid-param"
                case .invalidToken: "invalid-token"
                case .other(let value): value
                }
            }
        }

        /// The documented `smp-status` values.
        public enum Status: String, Hashable, Sendable, Codable, CaseIterable {
            /// The transaction has succeeded.
            case success
            /// The transaction has failed.
            case failed
            /// The SumUp app is not ready to accept payments (user must open it).
            case invalidState = "invalidstate"
        }

        /// The URL opened, without its query.
        public var callbackURL: String { storage.fields.callbackURL.wrappedValue }
        /// `smp-status`.
        public var status: Status { storage.fields.status }
        /// `smp-tx-code`, SumUp's transaction code (app 1.53 and later).
        public var transactionCode: String? { storage.fields.transactionCode.wrappedValue }
        /// `foreign-tx-id`, echoed when it was sent.
        public var foreignTransactionID: String? { storage.fields.foreignTransactionID.wrappedValue }
        /// `smp-message`, a localized human-readable message.
        public var message: String? { storage.fields.message.wrappedValue }
        /// `smp-receipt-sent`: whether the app sent the customer a receipt.
        public var receiptSent: Bool? { storage.fields.receiptSent }
        /// `smp-failure-cause`, on a failed payment.
        public var failureCause: FailureCause? { storage.fields.failureCause }
        /// The `smpprtag-<key>` tags, in order, with their full names.
        public var tags: [QueryItem] { storage.fields.tags }
        /// Other `smp-` parameters, kept as sent and reported.
        public var unknownFields: [QueryItem] { storage.fields.unknownFields }
        /// The callback URL's `#fragment`, the merchant's own, left as it was.
        public var fragment: String? { storage.fields.fragment.wrappedValue }
        /// The correlation nonce ChargeKit put on the callback URL.
        public var nonce: Nonce? { storage.fields.nonce }
        /// Every other parameter (your extras), in order.
        public var extraItems: [QueryItem] { storage.fields.extraItems }

        /// The fields, held once (see ``SharedFields``).
        private var storage: SharedFields<Fields>

        /// The stored fields: what the properties above read and write (the text
        /// ones as places in the callback URL, see ``CallbackText``).
        struct Fields: Hashable, Sendable, Codable {
            var callbackURL: RequiredCallbackText
            var status: Status
            var transactionCode: CallbackText
            var foreignTransactionID: CallbackText
            var message: CallbackText
            var receiptSent: Bool?
            var failureCause: FailureCause?
            var tags: [QueryItem]
            var unknownFields: [QueryItem]
            var fragment: CallbackText
            var nonce: Nonce?
            var extraItems: [QueryItem]

            /// The names the callback's fields are taken by.
            enum Name: Int, FieldName {
                case status, transactionCode, foreignTransactionID, message, receiptSent, failureCause, nonce, callback
                static let texts: [StaticString] = ["smp-status", "smp-tx-code", "foreign-tx-id", "smp-message",
                                                    "smp-receipt-sent", "smp-failure-cause",
                                                    ChargeKitParameter.nonceName, ChargeKitParameter.callbackName]
                static let all = FieldNames(texts)
            }

            /// Reads a callback's fields (built at once at the end, straight into their
            /// box: assigning them one by one, or boxing the returned value, copied them).
            static func read(_ fields: inout FieldReader) throws(ChargeKitError) -> SharedFields<Fields> {
                try fields.refuseDuplicates()
                guard let statusIndex = fields.index(of: Name.status) else { throw .missingField("smp-status") }
                fields.markTaken(statusIndex)
                let status = try fields.withValue(statusIndex) { bytes throws(ChargeKitError) in
                    try FieldRules.nonEmpty(bytes, field: "smp-status")
                    guard let status = Status(wireBytes: bytes) else {
                        throw .invalidField("smp-status", rule: "must be success, failed or invalidstate")
                    }
                    return status
                }
                let transactionCode = try fields.takeText(Name.transactionCode) { bytes throws(ChargeKitError) in
                    try FieldRules.nonEmpty(bytes, field: "smp-tx-code")
                    try FieldRules.printableASCII(bytes, field: "smp-tx-code", limit: 64)
                }
                let foreignTransactionID = try fields.takeText(Name.foreignTransactionID) { bytes throws(ChargeKitError) in
                    try SumUp.validateForeignTransactionID(bytes, field: "foreign-tx-id")
                }
                let message = try fields.takeText(Name.message) { bytes throws(ChargeKitError) in
                    try FieldRules.text(bytes, field: "smp-message", limit: 1024)
                }
                var receiptSent: Bool?
                if let receipt = fields.take(Name.receiptSent) {
                    guard receipt == "true" || receipt == "false" else {
                        throw .invalidField("smp-receipt-sent", rule: "must be true or false")
                    }
                    receiptSent = receipt == "true"
                }
                var failureCause: FailureCause?
                if let cause = fields.take(Name.failureCause) {
                    try FieldRules.printableASCII(cause, field: "smp-failure-cause", limit: 64)
                    failureCause = FailureCause(rawValue: cause)
                }
                let nonce = try fields.take(Name.nonce).map { text throws(ChargeKitError) in
                    try Nonce(text, field: ChargeKitParameter.nonce)
                }
                if fields.contains(Name.callback) {
                    throw .unexpectedField(ChargeKitParameter.callback, rule: "SumUp callbacks carry smp-status instead")
                }
                // Split only when something is left (most callbacks leave nothing).
                var tags: [QueryItem] = [], unknownFields: [QueryItem] = [], extraItems: [QueryItem] = []
                for item in fields.hasRemaining ? fields.remaining : [] {
                    if item.name.hasPrefix("smpprtag-") {
                        tags.append(item)
                    } else if item.name.hasPrefix("smp-") {
                        unknownFields.append(item)
                    } else {
                        extraItems.append(item)
                    }
                }
                return SharedFields(Fields(
                    callbackURL: fields.baseText, status: status, transactionCode: transactionCode,
                    foreignTransactionID: foreignTransactionID, message: message, receiptSent: receiptSent,
                    failureCause: failureCause, tags: tags, unknownFields: unknownFields, fragment: fields.fragmentText,
                    nonce: nonce, extraItems: extraItems))
            }
        }

        /// Parses and validates a callback URL.
        public init(url: String, maximumLength: Int = QueryURL.defaultMaximumLength) throws(ChargeKitError) {
            self = try FieldReader.read(url, maximumLength: maximumLength) { fields throws(ChargeKitError) in try Callback(fields: &fields) }
        }

        /// Reads a callback from its scanned fields.
        init(fields: inout FieldReader) throws(ChargeKitError) {
            fields.match(Fields.Name.all)
            self.init(storage: try Fields.read(&fields))
        }

        /// Validates an already split URL.
        public init(_ url: QueryURL) throws(ChargeKitError) {
            try self.init(url: url.string, maximumLength: .max)
        }

        private init(storage: SharedFields<Fields>) { self.storage = storage }

        /// Equal when every field is equal (as the properties read them).
        public static func == (lhs: Callback, rhs: Callback) -> Bool { SharedFields.same(lhs.storage, rhs.storage) }

        /// Hashes every field.
        public func hash(into hasher: inout Hasher) { storage.fields.hash(into: &hasher) }

        /// Decodes the fields, keyed by the properties' names.
        public init(from decoder: any Decoder) throws { storage = SharedFields(try Fields(from: decoder)) }

        /// Encodes the fields, keyed by the properties' names (an absent value leaves its key out).
        public func encode(to encoder: any Encoder) throws { try storage.fields.encode(to: encoder) }
    }
}
