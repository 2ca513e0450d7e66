extension CreditCardTerminal {
    /// A charge request to Credit Card Terminal: every field of API 1.0.0 plus extra
    /// return parameters. The Swift counterpart of `IFChargeRequest`.
    ///
    /// Its ``Fields`` are set one by one, as the seed's properties are; the request is
    /// made from them and checked then, against the vendor's documented limits, so a
    /// value of this type always makes a request URL (only a nonce appended to the
    /// return URL can still take it over its length limit). Its fields read as its own
    /// properties (`request.amount`).
    ///
    /// ```swift
    /// var fields = CreditCardTerminal.ChargeRequest.Fields()
    /// fields.setReturnURL("com-innerfence-ChargeDemo://chargeResponse", extraParams: [QueryItem("record_id", "123")])
    /// fields.amount = try Money(parsing: "50.00", currency: .usd)
    /// fields.description = "Test transaction"
    /// fields.invoiceNumber = "321"
    /// fields.taxRate = try .init(parsing: "8.5")
    /// let url = try CreditCardTerminal.ChargeRequest(fields).requestURL()
    /// ```
    ///
    /// Empty fields are omitted; fields appear in the query sorted by name, as the
    /// reference client sends them.
    @dynamicMemberLookup
    public struct ChargeRequest: Hashable, Sendable, Codable {
        /// What a request sends, each field set on its own (`IFChargeRequest`'s
        /// properties); ``ChargeRequest/init(_:)`` checks them. Also what
        /// ``PaymentApp/creditCardTerminal(returnURL:template:)`` takes as a template.
        public struct Fields: Hashable, Sendable, Codable {
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

            /// No field set.
            public init() {}

            /// Sets the return URL and the extra parameters to carry on it, like
            /// `-[IFChargeRequest setReturnURL:withExtraParams:]`.
            public mutating func setReturnURL(_ url: String, extraParams: [QueryItem] = []) {
                returnURL = url
                self.extraParams = extraParams
            }
        }

        /// The request's fields, checked.
        public let fields: Fields

        /// Makes a request of `fields`, checked against the documented limits.
        /// - Throws: the first ``ChargeKitError`` found, naming the field and the rule:
        ///   a text over its documented limit, a malformed email or phone number, an
        ///   amount that is not above zero or has over 15 digits, a currency that is not
        ///   the amount's, a tax rate out of range, extras without a return URL.
        public init(_ fields: Fields) throws(ChargeKitError) {
            try fields.validate()
            self.fields = fields
        }

        /// A field of the request (`request.amount`).
        public subscript<Value>(dynamicMember field: KeyPath<Fields, Value>) -> Value { fields[keyPath: field] }

        /// Decodes a request (its fields) and checks it as ``init(_:)`` does.
        public init(from decoder: any Decoder) throws {
            try self.init(try Fields(from: decoder))
        }

        /// Encodes the request's fields.
        public func encode(to encoder: any Encoder) throws { try fields.encode(to: encoder) }

        /// The vendor's documented limit (in characters) for each text field.
        public static let limits: [String: Int] = Dictionary(uniqueKeysWithValues: WireField.allCases.compactMap { field in
            field.limit.map { (field.name.description, $0) }
        })
        /// The most digits an amount may have.
        public static let maximumAmountDigits = 15
        /// The most digits a phone number may have.
        public static let maximumPhoneDigits = 25

        /// The request URL, `com-innerfence-ccterminal://charge/1.0.0/?...`.
        ///
        /// - Parameter nonce: the correlation nonce to append to the return URL as
        ///   `ifcc_request_nonce` (the ledger supplies it); `nil` sends none.
        /// - Throws: ``ChargeKitError/missingField(_:)`` (`returnURL`) for a nonce without
        ///   a return URL, or the return URL's error when the nonce takes it over its limit.
        public func requestURL(nonce: Nonce? = nil) throws(ChargeKitError) -> String { try fields.requestURL(nonce: nonce) }

        /// The return URL as it is sent: with the extra parameters and the nonce appended.
        public func effectiveReturnURL(nonce: Nonce?) -> String? { fields.effectiveReturnURL(nonce: nonce) }

        /// The query items, non-empty fields only, sorted by name.
        func queryItems(nonce: Nonce?) -> [QueryItem] { fields.queryItems(nonce: nonce) }

        /// Every field of the request, in wire order (sorted by name, byte by byte).
        enum WireField: CaseIterable {
            case address, amount, amountFixed, city, company, country, currency, description, email, firstName, fm,
                 invoiceNumber, lastName, phone, returnAppName, returnImmediately, returnURL, state, taxRate, zip

            /// The name on the wire.
            var name: StaticString {
                switch self {
                case .address: "address"
                case .amount: "amount"
                case .amountFixed: "amountFixed"
                case .city: "city"
                case .company: "company"
                case .country: "country"
                case .currency: "currency"
                case .description: "description"
                case .email: "email"
                case .firstName: "firstName"
                case .fm: "fm"
                case .invoiceNumber: "invoiceNumber"
                case .lastName: "lastName"
                case .phone: "phone"
                case .returnAppName: "returnAppName"
                case .returnImmediately: "returnImmediately"
                case .returnURL: "returnURL"
                case .state: "state"
                case .taxRate: "taxRate"
                case .zip: "zip"
                }
            }

            /// The documented limit of a free-text field, in characters.
            var limit: Int? {
                switch self {
                case .address, .country: 60
                case .city, .state: 40
                case .company, .firstName, .lastName: 50
                case .description, .email, .returnAppName: 255
                case .invoiceNumber, .zip: 20
                default: nil
                }
            }
        }


        static func validateEmail(_ email: String) throws(ChargeKitError) {
            let invalid = ChargeKitError.invalidField("email", rule: "must be an address like name@example.com")
            let bytes = Array(email.utf8)
            guard let at = bytes.firstIndex(of: 0x40), at != 0 else { throw invalid }
            let domain = bytes[(at + 1)...]
            guard !domain.contains(0x40), domain.contains(0x2E), domain.first != 0x2E, domain.last != 0x2E else { throw invalid }
            let valid = !bytes.contains { $0 == 0x20 || ($0 >= 0x09 && $0 <= 0x0D) }, ascii = bytes.allSatisfy { $0 < 0x80 }
            // Beyond ASCII, Unicode's whitespace (no-break and other spaces) is refused too.
            guard valid, ascii || !email.contains(where: \.isWhitespace) else { throw invalid }
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

extension CreditCardTerminal.ChargeRequest.Fields {
    /// Checks every field against the documented limits.
    /// - Throws: the first ``ChargeKitError`` found, naming the field and the rule.
    func validate() throws(ChargeKitError) {
        // In the order the fields are documented (the first error found is the one reported).
        for field in [CreditCardTerminal.ChargeRequest.WireField.returnAppName, .email, .firstName, .lastName, .company, .address, .city, .state, .zip,
                      .country, .invoiceNumber, .description] {
            guard let limit = field.limit, let value = wireValue(field, sent: nil, amount: nil), !value.isEmpty else { continue }
            try FieldRules.text(value, field: field.name.description, limit: limit)
        }
        if let email, !email.isEmpty { try CreditCardTerminal.ChargeRequest.validateEmail(email) }
        if let phone, !phone.isEmpty { try CreditCardTerminal.ChargeRequest.validatePhone(phone) }
        if let amount {
            guard amount.minorUnits > 0 else { throw .invalidField("amount", rule: "must be greater than zero") }
            guard amount.digitCount <= CreditCardTerminal.ChargeRequest.maximumAmountDigits else {
                throw .invalidField("amount", rule: "must have at most \(CreditCardTerminal.ChargeRequest.maximumAmountDigits) digits")
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
        if !extraParams.isEmpty { try CreditCardTerminal.ChargeRequest.validateExtraParams(extraParams, returnURL: returnURL) }
    }

    /// The request URL, `com-innerfence-ccterminal://charge/1.0.0/?...`.
    ///
    /// - Parameter nonce: the correlation nonce to append to the return URL as
    ///   `ifcc_request_nonce` (the ledger supplies it); `nil` sends none.
    /// - Throws: ``ChargeKitError/missingField(_:)`` (`returnURL`) for a nonce without
    ///   a return URL, or the return URL's error when the nonce takes it over its limit.
    func requestURL(nonce: Nonce?) throws(ChargeKitError) -> String {
        if nonce != nil, returnURL?.isEmpty ?? true { throw .missingField("returnURL") }
        let sent = effectiveReturnURL(nonce: nonce)
        // The app refuses a return URL over its limit as sent: extras and nonce included
        // (without either it is the return URL that `validate` checked).
        if let sent, nonce != nil || !extraParams.isEmpty {
            try FieldRules.callbackURL(sent, field: "returnURL")
        }
        // Written once into one string, in wire order, each value percent-encoded in
        // place: a first pass bounds the length (an escape is three bytes), the second writes.
        let amountText = amount?.formatted
        var bound = CreditCardTerminal.baseURL.utf8.count + 1
        forEachSentField(sent: sent, amount: amountText) { field, value in
            bound += field.name.utf8CodeUnitCount + 2 + 3 * value.utf8.count
        }
        var writer = ByteWriter(capacity: bound)
        writer.append(CreditCardTerminal.baseURL)
        writer.append(UInt8(ascii: "?"))
        var first = true
        forEachSentField(sent: sent, amount: amountText) { field, value in
            if !first { writer.append(UInt8(ascii: "&")) }
            first = false
            writer.append(field.name)
            writer.append(UInt8(ascii: "="))
            writer.appendPercentEncoded(value)
        }
        return writer.string
    }

    /// The return URL as it is sent: with the extra parameters and the nonce appended.
    func effectiveReturnURL(nonce: Nonce?) -> String? {
        guard let returnURL, !returnURL.isEmpty else { return nil }
        guard nonce != nil || !extraParams.isEmpty else { return returnURL }
        var appended = extraParams
        if let nonce { appended.append(QueryItem(CreditCardTerminal.nonceField, nonce.value)) }
        return QueryURL.appending(appended, to: returnURL)
    }

    /// The query items, non-empty fields only, sorted by name.
    func queryItems(nonce: Nonce?) -> [QueryItem] {
        var items: [QueryItem] = []
        forEachSentField(sent: effectiveReturnURL(nonce: nonce), amount: amount?.formatted) { field, value in
            items.append(QueryItem(field.name.description, value))
        }
        return items
    }

    /// Calls `body` with each field that is sent (a value, not empty), in wire order;
    /// `sent` and `amount` as for ``wireValue(_:sent:amount:)``.
    @inline(__always)
    private func forEachSentField(sent: String?, amount: String?, _ body: (CreditCardTerminal.ChargeRequest.WireField, String) -> Void) {
        for field in CreditCardTerminal.ChargeRequest.WireField.allCases {
            guard let value = wireValue(field, sent: sent, amount: amount), !value.isEmpty else { continue }
            body(field, value)
        }
    }

    /// A field's value as sent; `sent` is the return URL as it is sent, `amount` the
    /// formatted amount (each made once by the caller).
    func wireValue(_ field: CreditCardTerminal.ChargeRequest.WireField, sent: String?, amount: String?) -> String? {
        switch field {
        case .address: address
        case .amount: amount
        case .amountFixed: amountFixed ? "1" : nil
        case .city: city
        case .company: company
        case .country: country
        case .currency: currency?.code
        case .description: description
        case .email: email
        case .firstName: firstName
        case .fm: fileMakerFormat ? "1" : nil
        case .invoiceNumber: invoiceNumber
        case .lastName: lastName
        case .phone: phone
        case .returnAppName: returnAppName
        case .returnImmediately: returnImmediately ? "1" : nil
        case .returnURL: sent
        case .state: state
        case .taxRate: taxRate?.description
        case .zip: zip
        }
    }
}
