import Foundation

/// Nexi POS's app-to-app scheme `neximpos://` (MobilePOS: a Nexi card reader paired
/// with the iPhone; the merchant logged in to the Nexi POS app).
///
/// - ``PaymentRequest`` builds a `payment` or a `reversal` (of a payment, by its
///   terminal and time), valid when created.
/// - ``Callback`` reads the answer: the request's `uri` with an ordinary
///   percent-encoded query; `acquirerName` and `merchantId` arrive padded with spaces,
///   which it trims.
///
/// ChargeKit's nonce rides in `callerTrxId`, which Nexi echoes: the nonce, then `.` and
/// your own reference when the order has one. Nexi answers in euro cents.
public enum Nexi {
    /// The scheme to list under `LSApplicationQueriesSchemes`.
    public static let scheme = "neximpos"
    /// What a reference may hold: letters, digits, `.`, `_` and `-`, which no step
    /// between the request and the answer encodes or reads otherwise (Nexi's own iOS
    /// sample splits the answer's query by hand).
    public static let referenceCharacters = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789._-")
    /// The longest `callerTrxId` ChargeKit sends, the nonce included. Nexi documents a
    /// string and no length; its own example is six characters, and its check-transaction
    /// API looks a payment up by it, so ChargeKit keeps it short.
    public static let maximumCallerTrxIDLength = 64
    /// The largest amount, in cents: Nexi's `amount` is an `int` (32 bits).
    public static let maximumAmountMinorUnits: Int64 = 2_147_483_647
    /// The longest `callerName` (the label of Nexi's "Torna a …" button).
    public static let maximumCallerNameLength = 40
    /// At most this many additional tags (`addInfoKeyN`, `addInfoN`).
    public static let maximumTags = 5
    /// The longest key or value of an additional tag.
    public static let maximumTagLength = 30
    /// The bytes a tag's key or value may hold besides letters and digits, as Nexi lists them.
    public static let tagPunctuation = Set("!$%&()*+-./:;<=>?@[]^_{}")

    /// What a request asks (its URL's host).
    public enum Operation: String, Hashable, Sendable, Codable, CaseIterable {
        /// `neximpos://payment`: take a payment.
        case payment
        /// `neximpos://reversal`: reverse a payment, named by its terminal and time.
        case reversal

        /// The `operationType` the answer names (`PAYMENT`, `REVERSAL`).
        public var answerName: String { rawValue.uppercased() }
    }

    /// An additional tag printed with the transaction (`addInfoKeyN`, `addInfoN`).
    public struct Tag: Hashable, Sendable, Codable {
        /// `addInfoKeyN`.
        public let key: String
        /// `addInfoN`.
        public let value: String

        /// Makes a tag: each 1 to 30 letters, digits or `!$%&()*+-./:;<=>?@[]^_{}`.
        /// - Throws: ``ChargeKitError`` naming `addInfoKey` or `addInfo`.
        public init(key: String, value: String) throws(ChargeKitError) {
            try Self.check(key, field: "addInfoKey")
            try Self.check(value, field: "addInfo")
            self.key = key
            self.value = value
        }

        private static func check(_ text: String, field: String) throws(ChargeKitError) {
            guard !text.isEmpty, text.count <= Nexi.maximumTagLength else {
                throw .invalidField(field, rule: "must be 1 to \(Nexi.maximumTagLength) characters")
            }
            guard text.allSatisfy({ ($0.isASCII && ($0.isLetter || $0.isNumber)) || Nexi.tagPunctuation.contains($0) }) else {
                throw .invalidField(field, rule: "may hold letters, digits and !$%&()*+-./:;<=>?@[]^_{} only")
            }
        }
    }

    /// The receipt and result screens; `nil` leaves the app's default.
    public struct Screens: Hashable, Sendable, Codable {
        /// `sendTicket`: the "send receipt" button (Nexi's default: shown).
        public var sendTicket: Bool?
        /// `urlTicket`: a link to the receipt's image in the answer (default: yes).
        public var urlTicket: Bool?
        /// `autoClose`: return to your app by itself after a result that cannot be
        /// retried (the receipt then cannot be sent from Nexi POS).
        public var autoClose: Bool?
        /// `hideRetry`: no "Retry" after a timeout, a cancel or a wrong PIN.
        public var hideRetry: Bool?
        /// `email`: pre-fills the receipt screen's email address.
        public var email: String?
        /// `sms`: pre-fills the receipt screen's phone number.
        public var sms: String?

        /// Makes the settings.
        public init(sendTicket: Bool? = nil, urlTicket: Bool? = nil, autoClose: Bool? = nil, hideRetry: Bool? = nil,
                    email: String? = nil, sms: String? = nil) {
            self.sendTicket = sendTicket
            self.urlTicket = urlTicket
            self.autoClose = autoClose
            self.hideRetry = hideRetry
            self.email = email
            self.sms = sms
        }
    }

    /// The payment a reversal undoes: its terminal and when it was made.
    public struct Original: Hashable, Sendable, Codable {
        /// `terminalId`, as the payment's answer gave it.
        public let terminalID: String
        /// `timestamp`, as the payment's answer gave it (`ddMMyyHHmm`).
        public let timestamp: String

        /// Makes the reference to a payment.
        /// - Throws: ``ChargeKitError`` naming `terminalId` or `timestamp`.
        public init(terminalID: String, timestamp: String) throws(ChargeKitError) {
            try FieldRules.identifier(terminalID, field: "terminalId", limit: 16)
            guard Nexi.timestampComponents(timestamp) != nil else {
                throw .invalidField("timestamp", rule: "must be a date and time as ddMMyyHHmm, such as 0912202317")
            }
            self.terminalID = terminalID
            self.timestamp = timestamp
        }
    }

    /// A request to Nexi POS, valid when created.
    public struct PaymentRequest: Hashable, Sendable, Codable {
        /// What is asked.
        public let operation: Operation
        /// The amount, in euro (`amount`, sent in cents).
        public let amount: Money
        /// The label of Nexi's button back to your app (`callerName`).
        public let callerName: String
        /// Where the answer goes (`uri`): a URL with a scheme and no query.
        public let callbackURL: String
        /// Your reference, sent after the nonce in `callerTrxId` and echoed.
        public let reference: String?
        /// The receipt and result screens.
        public let screens: Screens
        /// Additional tags (payments only).
        public let tags: [Tag]
        /// The payment a reversal undoes.
        public let original: Original?

        /// Makes a request, checking every field.
        /// - Throws: ``ChargeKitError`` naming the field: `amount`, `callerName`, `uri`,
        ///   `callerTrxId` (the reference), `sendTicket`, `email`, `sms`, `addInfoKey`,
        ///   `terminalId`…
        public init(
            operation: Operation, amount: Money, callerName: String, callbackURL: String, reference: String? = nil,
            screens: Screens = .init(), tags: [Tag] = [], original: Original? = nil
        ) throws(ChargeKitError) {
            guard amount.currency == .eur else { throw .invalidField("amount", rule: "must be in euro: Nexi POS takes euro cents") }
            guard amount.minorUnits > 0 else { throw .invalidField("amount", rule: "must be greater than zero") }
            guard amount.minorUnits <= Nexi.maximumAmountMinorUnits else {
                throw .invalidField("amount", rule: "must be at most \(Nexi.maximumAmountMinorUnits) cents")
            }
            guard !callerName.isEmpty else { throw .missingField("callerName") }
            try FieldRules.text(callerName, field: "callerName", limit: Nexi.maximumCallerNameLength)
            try FieldRules.callbackURL(callbackURL, field: "uri")
            guard callbackURL.contains(":") else { throw .invalidURL("uri", rule: "must be a URL such as my-app://payment") }
            guard !callbackURL.contains("?") else {
                throw .invalidURL("uri", rule: "must not carry a query: Nexi POS appends its own")
            }
            if let reference {
                guard !reference.isEmpty else { throw .invalidField("callerTrxId", rule: "the reference must not be empty") }
                guard reference.count <= Nexi.maximumCallerTrxIDLength - Nonce.length - 1 else {
                    throw .fieldTooLong("callerTrxId", limit: Nexi.maximumCallerTrxIDLength - Nonce.length - 1)
                }
                if let character = reference.first(where: { !Nexi.referenceCharacters.contains($0) }) {
                    throw .invalidField("callerTrxId", rule: "the reference may hold letters, digits, '.', '_' and '-' only, "
                                        + "so that Nexi POS echoes it as sent; got '\(character)'")
                }
            }
            if screens.sendTicket == true, screens.autoClose == true {
                throw .invalidField("sendTicket", rule: "cannot be true with autoClose: Nexi POS allows one or the other")
            }
            if let email = screens.email {
                try FieldRules.printableASCII(email, field: "email", limit: 254)
                guard email.contains("@"), !email.contains(" ") else { throw .invalidField("email", rule: "must be an email address") }
            }
            if let sms = screens.sms {
                guard (4...20).contains(sms.count), sms.enumerated().allSatisfy({ $1.isASCII && ($1.isNumber || ($0 == 0 && $1 == "+")) }) else {
                    throw .invalidField("sms", rule: "must be a phone number: 4 to 20 digits, '+' first if any")
                }
            }
            guard tags.count <= Nexi.maximumTags else { throw .invalidField("addInfoKey", rule: "at most \(Nexi.maximumTags) tags") }
            guard Set(tags.map(\.key)).count == tags.count else {
                throw .invalidField("addInfoKey", rule: "each key once: Nexi POS ignores a repeated one")
            }
            switch operation {
            case .payment:
                guard original == nil else { throw .unexpectedField("terminalId", rule: "only a reversal names the payment it undoes") }
            case .reversal:
                guard original != nil else { throw .missingField("terminalId") }
                guard tags.isEmpty else { throw .unexpectedField("addInfoKey", rule: "only a payment takes tags") }
            }
            self.operation = operation
            self.amount = amount
            self.callerName = callerName
            self.callbackURL = callbackURL
            self.reference = reference
            self.screens = screens
            self.tags = tags
            self.original = original
        }

        /// A payment of `amount` (in euro).
        public static func payment(
            _ amount: Money, callerName: String, callbackURL: String, reference: String? = nil, screens: Screens = .init(),
            tags: [Tag] = []
        ) throws(ChargeKitError) -> PaymentRequest {
            try PaymentRequest(operation: .payment, amount: amount, callerName: callerName, callbackURL: callbackURL,
                               reference: reference, screens: screens, tags: tags)
        }

        /// `callerTrxId`: the nonce, then `.` and the reference when there is one.
        func callerTrxID(nonce: Nonce?) -> String? {
            guard let nonce else { return reference }
            return nonce.value + (reference.map { "." + $0 } ?? "")
        }

        /// The request URL, carrying `nonce` (when given) in `callerTrxId`.
        public func requestURL(nonce: Nonce? = nil) -> String {
            func flag(_ value: Bool?) -> String? { value.map { $0 ? "true" : "false" } }
            var fields: [(String, String?)] = [
                ("amount", String(amount.minorUnits)),
                ("callerTrxId", callerTrxID(nonce: nonce)),
                ("callerName", callerName),
                ("uri", callbackURL),
                ("timestamp", original?.timestamp),
                ("terminalId", original?.terminalID),
                ("email", screens.email),
                ("sms", screens.sms),
                ("sendTicket", flag(screens.sendTicket)),
                ("urlTicket", flag(screens.urlTicket)),
                ("autoClose", flag(screens.autoClose)),
                ("hideRetry", flag(screens.hideRetry)),
            ]
            for (index, tag) in tags.enumerated() {
                fields += [("addInfoKey\(index + 1)", tag.key), ("addInfo\(index + 1)", tag.value)]
            }
            return "\(Nexi.scheme)://\(operation.rawValue)?"
                + QueryURL.encode(fields.compactMap { name, value in value.map { QueryItem(name, $0) } })
        }
    }

    /// `ddMMyyHHmm` as date components (no time zone: Nexi writes the terminal's local
    /// time); `nil` unless ten digits of a real day and time.
    static func timestampComponents(_ text: String) -> DateComponents? {
        let digits = Array(text.utf8)
        guard digits.count == 10, digits.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        func number(_ at: Int) -> Int { Int(digits[at] - 0x30) * 10 + Int(digits[at + 1] - 0x30) }
        let day = number(0), month = number(2), year = 2000 + number(4), hour = number(6), minute = number(8)
        guard (1...12).contains(month), hour < 24, minute < 60 else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: 0) ?? calendar.timeZone
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute)
        guard day >= 1, let date = calendar.date(from: components),
              calendar.component(.day, from: date) == day, calendar.component(.month, from: date) == month else { return nil }
        return components
    }
}
