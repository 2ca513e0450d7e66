extension CreditCardTerminal {
    /// A validated Credit Card Terminal response: the Swift counterpart of
    /// `IFChargeResponse`, with typed values and every rule of the reference client.
    ///
    /// Parsing is all or nothing: a response that breaks any rule is refused as a
    /// whole with a ``ChargeKitError`` naming the field. Parsing alone does not prove
    /// that the response answers a request of yours; ``ChargeLedger`` does that.
    public struct ChargeResponse: Hashable, Sendable, Codable {
        /// The four response types (`ifcc_responseType`).
        public enum ResponseCode: String, Hashable, Sendable, Codable, CaseIterable {
            case approved, cancelled, declined, error
        }

        /// How the response names its fields.
        public enum Format: String, Hashable, Sendable, Codable {
            /// `ifcc_responseType=...`
            case standard
            /// `$ifcc_responseType=...`, sent when the request had `fm=1`.
            case fileMaker
        }

        /// The URL the response was opened on, without its query (`com-your-app://action/`).
        public var returnURL: String
        /// The outcome (`ifcc_responseType`).
        public var responseCode: ResponseCode
        /// The transaction id (`ifcc_transactionId`), 1 to 255 characters of untrusted text.
        public var transactionId: String?
        /// The amount charged, tax and tip included (`ifcc_amount`).
        public var amount: Money?
        /// The currency (`ifcc_currency`, USD when absent but an amount is present).
        public var currency: Currency?
        /// Whether `ifcc_currency` was absent and USD was assumed.
        public var currencyDefaulted: Bool
        /// The tax portion of `amount` (`ifcc_taxAmount`).
        public var taxAmount: Money?
        /// The tax rate applied to the original amount (`ifcc_taxRate`), as sent (`8.5`).
        public var taxRate: String?
        /// The tip portion of `amount` (`ifcc_tipAmount`).
        public var tipAmount: Money?
        /// The redacted card number (`ifcc_redactedCardNumber`, e.g. `XXXXXXXXXXXX1111`).
        public var redactedCardNumber: String?
        /// The card type (`ifcc_cardType`).
        public var cardType: CardType?
        /// The app's diagnostic (`ifcc_errorMessage`), sent with `responseType=error`.
        public var errorMessage: String?
        /// `ifcc_` fields this version of ChargeKit does not know, kept as sent (full
        /// wire names) and reported, never a reason to refuse the response.
        public var unknownFields: [QueryItem] = []
        /// Every other parameter of the URL (your extra parameters), in order; no
        /// `ifcc_` field and no nonce.
        public var extraItems: [QueryItem]
        /// The correlation nonce (`ifcc_request_nonce`), when present.
        public var nonce: Nonce?
        /// Standard or FileMaker naming.
        public var format: Format

        /// Your extra parameters by name. Validate them before use: they come from a URL.
        public var extraParams: [String: String] {
            Dictionary(extraItems.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
        }

        /// The amount before tax and tip (`amount − taxAmount − tipAmount`), when an amount is present.
        public var subtotal: Money? {
            guard var result = amount else { return nil }
            for part in [taxAmount, tipAmount].compactMap({ $0 }) {
                guard let next = result.subtracting(part) else { return nil }
                result = next
            }
            return result
        }

        /// The response fields, by their names without `ifcc_`.
        static let fieldNames: Set<String> = [
            "responseType", "transactionId", "amount", "currency", "taxAmount", "taxRate",
            "tipAmount", "redactedCardNumber", "cardType", "errorMessage",
        ]

        /// Parses and validates a callback URL.
        /// - Parameters:
        ///   - url: the URL Credit Card Terminal opened the app with.
        ///   - maximumLength: the bound on the URL's length in bytes.
        /// - Throws: ``ChargeKitError`` naming the first field that breaks a rule.
        public init(url: String, maximumLength: Int = QueryURL.defaultMaximumLength) throws(ChargeKitError) {
            try self.init(QueryURL(parsing: url, maximumLength: maximumLength))
        }

        /// Validates an already split URL.
        public init(_ url: QueryURL) throws(ChargeKitError) {
            var protocolItems: [QueryItem] = []
            var extras: [QueryItem] = []
            var format: Format?
            var nonceText: String?
            var unknown: [QueryItem] = []
            for item in url.items {
                if item.name == CreditCardTerminal.nonceField {
                    guard nonceText == nil else { throw .duplicateField(item.name) }
                    nonceText = item.value
                    continue
                }
                let (name, prefixed) = item.fileMakerName
                guard Self.hasResponsePrefix(name) else {
                    extras.append(item)
                    continue
                }
                let itemFormat: Format = prefixed ? .fileMaker : .standard
                if let format, format != itemFormat {
                    throw .invalidField(item.name, rule: "mixes FileMaker ($) and plain response names")
                }
                format = itemFormat
                let field = String(decoding: name.utf8.dropFirst(CreditCardTerminal.responsePrefix.utf8.count), as: UTF8.self)
                guard ChargeResponse.fieldNames.contains(field) else {
                    // The app's own namespace: a newer app's field is reported, not refused
                    // (the URL's length bound already bounds it).
                    guard !unknown.contains(where: { $0.name == item.name }) else { throw .duplicateField(item.name) }
                    unknown.append(item)
                    continue
                }
                guard !protocolItems.contains(where: { $0.name == field }) else { throw .duplicateField(item.name) }
                protocolItems.append(QueryItem(field, item.value))
            }
            _ = try FieldReader(extras)
            var fields = try FieldReader(protocolItems)
            let wire = format == .fileMaker ? "$ifcc_" : "ifcc_"

            returnURL = url.base
            self.format = format ?? .standard
            extraItems = extras
            unknownFields = unknown
            nonce = try nonceText.map { text throws(ChargeKitError) in try Nonce(text, field: CreditCardTerminal.nonceField) }

            guard let type = fields.take("responseType") else { throw .missingField(wire + "responseType") }
            guard let code = ResponseCode(rawValue: type) else {
                throw .invalidField(wire + "responseType", rule: "must be approved, cancelled, declined or error")
            }
            responseCode = code

            transactionId = fields.take("transactionId")
            if let transactionId, !(1...255).contains(transactionId.count) {
                throw .invalidField(wire + "transactionId", rule: "must be 1 to 255 characters")
            }

            let currencyText = fields.take("currency")
            let amountText = fields.take("amount")
            if let currencyText {
                guard currencyText.utf8.count == 3, currencyText.utf8.allSatisfy({ (0x41...0x5A).contains($0) }) else {
                    throw .invalidField(wire + "currency", rule: "must match ^[A-Z]{3}$")
                }
                currency = try Currency(code: currencyText, field: wire + "currency")
                currencyDefaulted = false
            } else {
                currency = amountText == nil ? nil : .usd
                currencyDefaulted = amountText != nil
            }
            let moneyCurrency = currency ?? .usd
            amount = try amountText.map { text throws(ChargeKitError) in try Self.money(text, moneyCurrency, field: wire + "amount") }
            taxAmount = try fields.take("taxAmount").map { text throws(ChargeKitError) in try Self.money(text, moneyCurrency, field: wire + "taxAmount") }
            tipAmount = try fields.take("tipAmount").map { text throws(ChargeKitError) in try Self.money(text, moneyCurrency, field: wire + "tipAmount") }

            taxRate = fields.take("taxRate")
            if let taxRate, !CreditCardTerminal.isTaxRate(taxRate) {
                throw .invalidField(wire + "taxRate", rule: "must match ^[0-9]{1,2}(\\.[0-9]{1,3})?$")
            }

            redactedCardNumber = fields.take("redactedCardNumber")
            if let number = redactedCardNumber {
                let bytes = Array(number.utf8)
                guard bytes.count >= 4, bytes.count <= 64, bytes.suffix(4).allSatisfy(DecimalText.isDigit),
                      bytes.dropLast(4).allSatisfy({ $0 == 0x58 })
                else { throw .invalidField(wire + "redactedCardNumber", rule: "must match ^X*[0-9]{4}$") }
            }

            let cardText = fields.take("cardType")
            if let cardText {
                guard cardText.utf8.count <= 20, cardText.utf8.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || $0 == 0x20 }) else {
                    throw .invalidField(wire + "cardType", rule: "must match ^[A-Za-z ]{0,20}$")
                }
            }
            cardType = cardText.map(CardType.init(wireValue:))

            errorMessage = fields.take("errorMessage")
            if let errorMessage { try FieldRules.text(errorMessage, field: wire + "errorMessage", limit: 1024) }

            if code == .approved {
                if amount == nil { throw .missingField(wire + "amount") }
                if redactedCardNumber == nil { throw .missingField(wire + "redactedCardNumber") }
            } else {
                for (name, present) in [("amount", amountText != nil), ("currency", currencyText != nil),
                                        ("cardType", cardText != nil), ("redactedCardNumber", redactedCardNumber != nil)]
                where present {
                    throw .unexpectedField(wire + name, rule: "a \(code.rawValue) response carries no transaction data")
                }
            }
        }

        /// Whether `name` starts with `ifcc_` (compared byte by byte: the generic
        /// `starts(with:)` cost more than the rest of the check).
        @inline(__always)
        static func hasResponsePrefix(_ name: String) -> Bool {
            var bytes = name.utf8.makeIterator()
            return bytes.next() == 0x69 && bytes.next() == 0x66 && bytes.next() == 0x63 && bytes.next() == 0x63
                && bytes.next() == 0x5F
        }

        /// Reads a response amount: `^(0|[1-9][0-9]*)\.[0-9]{2}$`, then exact in `currency`.
        static func money(_ text: String, _ currency: Currency, field: String) throws(ChargeKitError) -> Money {
            guard CreditCardTerminal.isWireAmount(text) else {
                throw .invalidField(field, rule: "must match ^(0|[1-9][0-9]*)\\.[0-9]{2}$")
            }
            // The wire has exactly two decimals: a currency with fewer must have zeros there.
            guard currency.minorUnits < 2 else { return try Money(parsing: text, currency: currency, field: field) }
            guard text.utf8.suffix(2 - currency.minorUnits).allSatisfy({ $0 == 0x30 }) else {
                throw .invalidField(field, rule: "has more decimals than \(currency.code) allows")
            }
            let kept = String(text.dropLast(currency.minorUnits == 0 ? 3 : 2 - currency.minorUnits))
            return try Money(parsing: kept, currency: currency, field: field)
        }
    }
}
