extension CreditCardTerminal {
    /// A charge request to Credit Card Terminal: every field of API 1.0.0 plus extra
    /// return parameters. The Swift counterpart of `IFChargeRequest`.
    ///
    /// ```swift
    /// var request = CreditCardTerminal.ChargeRequest()
    /// request.setReturnURL("com-innerfence-ChargeDemo://chargeResponse", extraParams: [QueryItem("record_id", "123")])
    /// request.amount = try Money(parsing: "50.00", currency: .usd)
    /// request.description = "Test transaction"
    /// request.invoiceNumber = "321"
    /// request.taxRate = try .init(parsing: "8.5")
    /// let url = try request.requestURL()
    /// ```
    ///
    /// ``validate()`` applies the vendor's documented limits; ``requestURL(nonce:)``
    /// validates first, so an invalid request never produces a URL. Empty fields are
    /// omitted; fields appear in the query sorted by name, as the reference client
    /// sends them.
    public struct ChargeRequest: Hashable, Sendable, Codable {
        /// Your app's name, shown to the user for context (`returnAppName`).
        public var returnAppName: String?
        /// Your app's URL handler, to which the response is sent (`returnURL`).
        public var returnURL: String?
        /// Parameters appended to `returnURL`'s query; they come back untouched.
        public var extraParams: [QueryItem] = []
        /// Call `returnURL` at once instead of after the "Approved" screen (`returnImmediately=1`).
        public var returnImmediately = false
        /// Ask for the FileMaker-compatible response format (`fm=1`).
        public var fileMakerFormat = false
        /// The amount (subtotal) to charge (`amount`).
        public var amount: Money?
        /// Make the subtotal unchangeable in the app (`amountFixed=1`).
        public var amountFixed = false
        /// The sales tax rate to apply, or `nil` to hide the sales tax option (`taxRate`).
        public var taxRate: TaxRate?
        /// The currency of `amount` (`currency`); Credit Card Terminal assumes USD when absent.
        public var currency: Currency?
        /// Customer's email address for the receipt (`email`).
        public var email: String?
        /// Billing first name (`firstName`).
        public var firstName: String?
        /// Billing last name (`lastName`).
        public var lastName: String?
        /// Billing company name (`company`).
        public var company: String?
        /// Billing street address (`address`).
        public var address: String?
        /// Billing city (`city`).
        public var city: String?
        /// Billing state or province (`state`, e.g. `TX`).
        public var state: String?
        /// Billing ZIP or postal code (`zip`).
        public var zip: String?
        /// Billing phone number (`phone`).
        public var phone: String?
        /// Billing country code (`country`, e.g. `US`).
        public var country: String?
        /// Merchant-assigned invoice number (`invoiceNumber`).
        public var invoiceNumber: String?
        /// Description of goods or services (`description`).
        public var description: String?

        /// An empty request.
        public init() {}

        /// Sets the return URL and the extra parameters to carry on it, like
        /// `-[IFChargeRequest setReturnURL:withExtraParams:]`.
        public mutating func setReturnURL(_ url: String, extraParams: [QueryItem] = []) {
            returnURL = url
            self.extraParams = extraParams
        }

        /// The vendor's documented limit (in characters) for each text field.
        public static let limits: [String: Int] = [
            "address": 60, "city": 40, "company": 50, "country": 60, "description": 255,
            "email": 255, "firstName": 50, "invoiceNumber": 20, "lastName": 50, "state": 40,
            "zip": 20, "returnAppName": 255,
        ]
        /// The most digits an amount may have.
        public static let maximumAmountDigits = 15
        /// The most digits a phone number may have.
        public static let maximumPhoneDigits = 25

        /// Checks every field against the documented limits.
        /// - Throws: the first ``ChargeKitError`` found, naming the field and the rule.
        public func validate() throws(ChargeKitError) {
            for (name, value) in textFields {
                guard let value, !value.isEmpty, let limit = Self.limits[name] else { continue }
                try FieldRules.text(value, field: name, limit: limit)
            }
            if let email, !email.isEmpty { try Self.validateEmail(email) }
            if let phone, !phone.isEmpty { try Self.validatePhone(phone) }
            if let amount {
                guard amount.minorUnits > 0 else { throw .invalidField("amount", rule: "must be greater than zero") }
                guard amount.formatted.utf8.count(where: DecimalText.isDigit) <= Self.maximumAmountDigits else {
                    throw .invalidField("amount", rule: "must have at most \(Self.maximumAmountDigits) digits")
                }
                if let currency, currency != amount.currency {
                    throw .invalidField("currency", rule: "must match the amount's currency \(amount.currency.code)")
                }
                if currency == nil, amount.currency != .usd {
                    throw .invalidField("currency", rule: "must be set for an amount in \(amount.currency.code); USD is assumed when absent")
                }
            }
            if case .percent(let text) = taxRate, !CreditCardTerminal.isTaxRate(text) {
                throw .invalidField("taxRate", rule: "must be 'default' or 0 to 99.999 with up to 3 decimals (e.g. 8.25)")
            }
            guard let returnURL, !returnURL.isEmpty else {
                if !extraParams.isEmpty {
                    throw .missingField("returnURL")
                }
                return
            }
            try FieldRules.callbackURL(returnURL, field: "returnURL")
            try Self.validateExtraParams(extraParams, returnURL: returnURL)
        }

        /// The request URL, `com-innerfence-ccterminal://charge/1.0.0/?...`.
        ///
        /// - Parameter nonce: the correlation nonce to append to the return URL as
        ///   `ifcc_request_nonce` (the ledger supplies it); `nil` sends none.
        /// - Throws: the first validation error; no URL is produced for an invalid request.
        public func requestURL(nonce: Nonce? = nil) throws(ChargeKitError) -> String {
            try validate()
            if nonce != nil, returnURL?.isEmpty ?? true { throw .missingField("returnURL") }
            // The app refuses a return URL over its limit as sent: extras and nonce included.
            if let sent = effectiveReturnURL(nonce: nonce) {
                try FieldRules.callbackURL(sent, field: "returnURL")
            }
            return CreditCardTerminal.baseURL + "?" + QueryURL.encode(queryItems(nonce: nonce))
        }

        /// The return URL as it is sent: with the extra parameters and the nonce appended.
        public func effectiveReturnURL(nonce: Nonce?) -> String? {
            guard let returnURL, !returnURL.isEmpty else { return nil }
            var appended = extraParams
            if let nonce { appended.append(QueryItem(CreditCardTerminal.nonceField, nonce.value)) }
            return QueryURL.appending(appended, to: returnURL)
        }

        /// The query items, non-empty fields only, sorted by name.
        func queryItems(nonce: Nonce?) -> [QueryItem] {
            var fields: [(String, String?)] = textFields
            fields += [
                ("returnURL", effectiveReturnURL(nonce: nonce)),
                ("returnImmediately", returnImmediately ? "1" : nil),
                ("fm", fileMakerFormat ? "1" : nil),
                ("amount", amount?.formatted),
                ("amountFixed", amountFixed ? "1" : nil),
                ("taxRate", taxRate?.description),
                ("currency", currency?.code),
            ]
            return fields.compactMap { name, value in
                guard let value, !value.isEmpty else { return nil }
                return QueryItem(name, value)
            }
            .sorted { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) }
        }

        /// The free-text fields in wire order, each with how to read it: the one list
        /// that building and validating walk (a closure reads one field without copying
        /// the request, which a key path applied thirteen times did).
        static let textFieldList: [(name: String, read: @Sendable (Self) -> String?)] = [
            ("returnAppName", { $0.returnAppName }), ("email", { $0.email }), ("firstName", { $0.firstName }),
            ("lastName", { $0.lastName }), ("company", { $0.company }), ("address", { $0.address }), ("city", { $0.city }),
            ("state", { $0.state }), ("zip", { $0.zip }), ("phone", { $0.phone }), ("country", { $0.country }),
            ("invoiceNumber", { $0.invoiceNumber }), ("description", { $0.description }),
        ]

        /// The text fields' names and values, in ``textFieldList`` order.
        private var textFields: [(String, String?)] { Self.textFieldList.map { ($0.name, $0.read(self)) } }

        static func validateEmail(_ email: String) throws(ChargeKitError) {
            let bytes = email.utf8
            let invalid = ChargeKitError.invalidField("email", rule: "must be an address like name@example.com")
            guard let at = bytes.firstIndex(of: 0x40), at != bytes.startIndex else { throw invalid }
            let domain = bytes[bytes.index(after: at)...]
            guard !domain.contains(0x40), domain.contains(0x2E), domain.first != 0x2E, domain.last != 0x2E else { throw invalid }
            let whitespace = bytes.allSatisfy({ $0 < 0x80 })
                ? bytes.contains { $0 == 0x20 || (0x09...0x0D).contains($0) }
                : email.contains(where: \.isWhitespace)
            guard !whitespace else { throw invalid }
        }

        static func validatePhone(_ phone: String) throws(ChargeKitError) {
            let allowed: Set<UInt8> = Set("0123456789+-(). ".utf8)
            guard phone.utf8.allSatisfy(allowed.contains) else {
                throw .invalidField("phone", rule: "may contain only digits, spaces and + - ( ) .")
            }
            let digits = phone.utf8.count(where: DecimalText.isDigit)
            guard (1...maximumPhoneDigits).contains(digits) else {
                throw .invalidField("phone", rule: "must have 1 to \(maximumPhoneDigits) digits")
            }
        }

        static func validateExtraParams(_ extras: [QueryItem], returnURL: String) throws(ChargeKitError) {
            let existing = (try? QueryURL(parsing: returnURL))?.items ?? []
            try FieldRules.extras(extras, field: "extraParams", alreadyOn: existing) { item in
                item.fileMakerName.name.hasPrefix(CreditCardTerminal.responsePrefix)
                    ? "names starting with ifcc_ are reserved for the response" : nil
            }
        }
    }
}
