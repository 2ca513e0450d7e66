import Foundation

/// iZettle / Zettle's custom URL scheme, in both documented versions:
/// ``PaymentRequest`` for `izettle://x-callback-url/payment/1.0`, and
/// ``APIRequest`` for the later `izettle://api/` operations; ``Callback`` parses
/// the answers of both.
public enum Zettle {
    /// The base URL of a version 1.0 payment.
    public static let paymentBaseURL = "izettle://x-callback-url/payment/1.0"
    /// The base of the later API operations.
    public static let apiBaseURL = "izettle://api/"
    /// The scheme to list under `LSApplicationQueriesSchemes`.
    public static let scheme = "izettle"
    /// The longest `reference` the API operations accept.
    public static let maximumReferenceLength = 128
    /// The largest image (before Base64) ChargeKit will put in a URL: 256 KiB.
    public static let maximumImageBytes = 256 * 1024

    /// The error codes on the failure callback (`errorCode`).
    public enum ErrorCode: OpenWireValue {
        /// An error occurred while processing the payment.
        case technicalError
        /// The user cancelled the purchase.
        case cancelledByUser
        /// The calling app's currency does not match the iZettle app's.
        case invalidCurrency
        /// The iZettle app is not ready (e.g. not logged in).
        case invalidState
        /// A query parameter is missing or empty.
        case missingParameter
        /// A code not documented; kept as sent.
        case other(String)

        /// The wire value, such as `CancelledByUser`.
        public var rawValue: String {
            switch self {
            case .technicalError: return "TechnicalError"
            case .cancelledByUser: return "CancelledByUser"
            case .invalidCurrency: return "InvalidCurrency"
            case .invalidState: return "InvalidState"
            case .missingParameter: return "MissingParameter"
            case .other(let value): return value
            }
        }

        /// The five documented codes.
        public static let documented: [ErrorCode] = [.technicalError, .cancelledByUser, .invalidCurrency, .invalidState, .missingParameter]
    }

    /// A version 1.0 payment request (`izettle://x-callback-url/payment/1.0`).
    ///
    /// It is checked when made: a value of this type always makes a request URL (only
    /// items appended to its callback URLs can still break a length limit).
    public struct PaymentRequest: Hashable, Sendable, Codable {
        /// The app's name as shown in iZettle (`x-source`).
        public let source: String
        /// Opened after a successful purchase (`x-success`).
        public let successURL: String
        /// Opened after a failed purchase, with `errorCode` (`x-failure`).
        public let failureURL: String
        /// The key received from iZettle for your bundle id (`api-key`).
        public let apiKey: String
        /// The amount (`price`) and its currency (`currency`).
        public let price: Money
        /// Shown in iZettle, in the seller's history and on the receipt (`title`).
        public let title: String
        /// Saved with the purchase and echoed on both callbacks (`reference`).
        public let reference: String?
        /// A PNG or JPEG image, sent Base64-encoded (`image`).
        public let image: Data?

        /// Makes and checks a request with every mandatory parameter.
        /// - Throws: ``ChargeKitError`` naming the first field that breaks a rule: an
        ///   empty or over-long `x-source`, `api-key` or `title`, a callback URL without
        ///   a scheme, a price that is not above zero, an empty reference, an image that
        ///   is not a PNG or JPEG within ``Zettle/maximumImageBytes``.
        public init(
            source: String, successURL: String, failureURL: String, apiKey: String, price: Money, title: String,
            reference: String? = nil, image: Data? = nil
        ) throws(ChargeKitError) {
            for (name, value) in [("x-source", source), ("api-key", apiKey), ("title", title)] {
                guard !value.isEmpty else { throw .missingField(name) }
                try FieldRules.text(value, field: name, limit: 255)
            }
            try FieldRules.callbackURL(successURL, field: "x-success")
            try FieldRules.callbackURL(failureURL, field: "x-failure")
            guard price.minorUnits > 0 else { throw .invalidField("price", rule: "must be greater than zero") }
            if let reference { try Zettle.validateReference(reference, field: "reference") }
            if let image { try Zettle.validateImage(image) }
            self.source = source
            self.successURL = successURL
            self.failureURL = failureURL
            self.apiKey = apiKey
            self.price = price
            self.title = title
            self.reference = reference
            self.image = image
        }

        private enum CodingKeys: String, CodingKey {
            case source, successURL, failureURL, apiKey, price, title, reference, image
        }

        /// Decodes a request and checks it as the initializer does.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            try self.init(
                source: container.decode(String.self, forKey: .source), successURL: container.decode(String.self, forKey: .successURL),
                failureURL: container.decode(String.self, forKey: .failureURL), apiKey: container.decode(String.self, forKey: .apiKey),
                price: container.decode(Money.self, forKey: .price), title: container.decode(String.self, forKey: .title),
                reference: container.decodeIfPresent(String.self, forKey: .reference), image: container.decodeIfPresent(Data.self, forKey: .image))
        }

        /// The request URL; `callbackItems` (extras, nonce) are appended to both callback
        /// URLs, and each gets `chargekit-callback=success|failure` so that the answer
        /// says which one was opened.
        public func requestURL(callbackItems: [QueryItem] = []) throws(ChargeKitError) -> String {
            let (success, failure) = try Zettle.callbackURLs(
                successURL, failureURL, appending: callbackItems, fields: ("x-success", "x-failure")
            )
            var items = [
                QueryItem("x-source", source), QueryItem("x-success", success), QueryItem("x-failure", failure),
                QueryItem("api-key", apiKey), QueryItem("price", price.formatted),
                QueryItem("currency", price.currency.code), QueryItem("title", title),
            ]
            if let reference, !reference.isEmpty { items.append(QueryItem("reference", reference)) }
            if let image { items.append(QueryItem("image", image.base64EncodedString())) }
            return Zettle.paymentBaseURL + "?" + QueryURL.encode(items)
        }
    }

    /// An operation of the later `izettle://api/` scheme.
    public struct APIRequest: Hashable, Sendable, Codable {
        /// The operation and its own parameters.
        public enum Operation: Hashable, Sendable, Codable {
            /// `payment/charge`: take a payment.
            case charge(amount: Money, reference: String)
            /// `payment/refund`: refund the payment made with `originalReference`.
            case refund(originalReference: String, reference: String, amount: Money?)
            /// `payment/query`: ask for the result of the payment with `reference`
            /// (recovery after a crash).
            case query(reference: String)
            /// `open`: bring the Zettle app to the front.
            case open

            /// The path after `izettle://api/`.
            public var path: String {
                switch self {
                case .charge: return "payment/charge"
                case .refund: return "payment/refund"
                case .query: return "payment/query"
                case .open: return "open"
                }
            }

            /// The reference the answer will concern, if any.
            public var reference: String? {
                switch self {
                case .charge(_, let reference), .refund(_, let reference, _), .query(let reference): return reference
                case .open: return nil
                }
            }
        }

        /// What to do.
        public let operation: Operation
        /// Opened on success with the payment info (`successURL`).
        public let successURL: String
        /// Opened on failure with `errorMessage` (`failureURL`).
        public let failureURL: String
        /// Your referral code (`referralCode`).
        public let referralCode: String?
        /// Only this logged-in Zettle account may take the payment (`enforcedUserAccount`).
        public let enforcedUserAccount: String?

        /// Makes and checks an operation request: it always makes a request URL.
        /// - Throws: ``ChargeKitError`` naming the first field that breaks a rule: a
        ///   callback URL without a scheme, an amount that is not above zero, an empty
        ///   reference, a refund whose reference is its original's.
        public init(
            operation: Operation, successURL: String, failureURL: String, referralCode: String? = nil,
            enforcedUserAccount: String? = nil
        ) throws(ChargeKitError) {
            try FieldRules.callbackURL(successURL, field: "successURL")
            try FieldRules.callbackURL(failureURL, field: "failureURL")
            if let referralCode { try FieldRules.text(referralCode, field: "referralCode", limit: 128) }
            if let enforcedUserAccount { try FieldRules.text(enforcedUserAccount, field: "enforcedUserAccount", limit: 255) }
            switch operation {
            case .charge(let amount, let reference):
                guard amount.minorUnits > 0 else { throw .invalidField("amount", rule: "must be greater than zero") }
                try Zettle.validateReference(reference, field: "reference")
            case .refund(let original, let reference, let amount):
                try Zettle.validateReference(original, field: "originalReference")
                try Zettle.validateReference(reference, field: "reference")
                guard original != reference else {
                    throw .invalidField("reference", rule: "must differ from originalReference")
                }
                if let amount, amount.minorUnits <= 0 { throw .invalidField("amount", rule: "must be greater than zero") }
            case .query(let reference):
                try Zettle.validateReference(reference, field: "reference")
            case .open:
                break
            }
            self.operation = operation
            self.successURL = successURL
            self.failureURL = failureURL
            self.referralCode = referralCode
            self.enforcedUserAccount = enforcedUserAccount
        }

        private enum CodingKeys: String, CodingKey {
            case operation, successURL, failureURL, referralCode, enforcedUserAccount
        }

        /// Decodes a request and checks it as the initializer does.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            try self.init(
                operation: container.decode(Operation.self, forKey: .operation), successURL: container.decode(String.self, forKey: .successURL),
                failureURL: container.decode(String.self, forKey: .failureURL),
                referralCode: container.decodeIfPresent(String.self, forKey: .referralCode),
                enforcedUserAccount: container.decodeIfPresent(String.self, forKey: .enforcedUserAccount))
        }

        /// The request URL, `izettle://api/<operation>?...`.
        public func requestURL(callbackItems: [QueryItem] = []) throws(ChargeKitError) -> String {
            var items: [QueryItem] = []
            switch operation {
            case .charge(let amount, let reference):
                items += [QueryItem("amount", amount.formatted), QueryItem("currency", amount.currency.code), QueryItem("reference", reference)]
            case .refund(let original, let reference, let amount):
                items += [QueryItem("originalReference", original), QueryItem("reference", reference)]
                if let amount { items += [QueryItem("amount", amount.formatted), QueryItem("currency", amount.currency.code)] }
            case .query(let reference):
                items.append(QueryItem("reference", reference))
            case .open:
                break
            }
            let (success, failure) = try Zettle.callbackURLs(
                successURL, failureURL, appending: callbackItems, fields: ("successURL", "failureURL")
            )
            items += [QueryItem("successURL", success), QueryItem("failureURL", failure)]
            if let referralCode, !referralCode.isEmpty { items.append(QueryItem("referralCode", referralCode)) }
            if let enforcedUserAccount, !enforcedUserAccount.isEmpty { items.append(QueryItem("enforcedUserAccount", enforcedUserAccount)) }
            return Zettle.apiBaseURL + operation.path + "?" + QueryURL.encode(items)
        }
    }

    /// Both callback URLs with `items` appended, each marked with which one it is.
    /// The sent URLs are checked against the length the app takes.
    static func callbackURLs(
        _ success: String, _ failure: String, appending items: [QueryItem], fields: (String, String)
    ) throws(ChargeKitError) -> (String, String) {
        guard !items.isEmpty else { return (success, failure) }
        let sent = (
            QueryURL.appending(items + [QueryItem(ChargeKitParameter.callback, "success")], to: success),
            QueryURL.appending(items + [QueryItem(ChargeKitParameter.callback, "failure")], to: failure)
        )
        try FieldRules.callbackURL(sent.0, field: fields.0)
        try FieldRules.callbackURL(sent.1, field: fields.1)
        return sent
    }

    static func validateReference(_ reference: String, field: String) throws(ChargeKitError) {
        guard !reference.isEmpty else { throw .invalidField(field, rule: "must not be empty") }
        try FieldRules.text(reference, field: field, limit: maximumReferenceLength)
    }

    /// The rule of `validateReference(_:field:)`, on the reference's UTF-8 bytes.
    static func validateReference(_ reference: Span<UInt8>, field: @autoclosure () -> String) throws(ChargeKitError) {
        try FieldRules.nonEmpty(reference, field: field())
        try FieldRules.text(reference, field: field(), limit: maximumReferenceLength)
    }

    static func validateImage(_ image: Data) throws(ChargeKitError) {
        guard !image.isEmpty else { throw .invalidField("image", rule: "must not be empty") }
        guard image.count <= maximumImageBytes else { throw .fieldTooLong("image", limit: maximumImageBytes) }
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF]
        guard image.starts(with: png) || image.starts(with: jpeg) else {
            throw .invalidField("image", rule: "must be a PNG or JPEG image")
        }
    }
}
