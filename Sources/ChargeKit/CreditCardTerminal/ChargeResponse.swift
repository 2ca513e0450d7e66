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
            /// The card was charged.
            case approved
            /// The user cancelled in Credit Card Terminal.
            case cancelled
            /// The card was declined.
            case declined
            /// Credit Card Terminal could not process the request (`ifcc_errorMessage` says why).
            case error
        }

        /// How the response names its fields.
        public enum Format: String, Hashable, Sendable, Codable {
            /// `ifcc_responseType=...`
            case standard
            /// `$ifcc_responseType=...`, sent when the request had `fm=1`.
            case fileMaker
        }

        /// The URL the response was opened on, without its query (`com-your-app://action/`).
        public var returnURL: String { storage.fields.returnURL.wrappedValue }
        /// The outcome (`ifcc_responseType`).
        public var responseCode: ResponseCode { storage.fields.responseCode }
        /// The transaction id (`ifcc_transactionId`), 1 to 255 characters of untrusted text.
        public var transactionId: String? { storage.fields.transactionId.wrappedValue }
        /// The amount charged, tax and tip included (`ifcc_amount`).
        public var amount: Money? { storage.fields.amount }
        /// The currency (`ifcc_currency`, USD when absent but an amount is present).
        public var currency: Currency? { storage.fields.currency }
        /// Whether `ifcc_currency` was absent and USD was assumed.
        public var currencyDefaulted: Bool { storage.fields.currencyDefaulted }
        /// The tax portion of `amount` (`ifcc_taxAmount`).
        public var taxAmount: Money? { storage.fields.taxAmount }
        /// The tax rate applied to the original amount (`ifcc_taxRate`), as sent (`8.5`).
        public var taxRate: String? { storage.fields.taxRate.wrappedValue }
        /// The tip portion of `amount` (`ifcc_tipAmount`).
        public var tipAmount: Money? { storage.fields.tipAmount }
        /// The redacted card number (`ifcc_redactedCardNumber`, e.g. `XXXXXXXXXXXX1111`).
        public var redactedCardNumber: String? { storage.fields.redactedCardNumber.wrappedValue }
        /// The card type (`ifcc_cardType`).
        public var cardType: CardType? { storage.fields.cardType }
        /// The app's diagnostic (`ifcc_errorMessage`), sent with `responseType=error`.
        public var errorMessage: String? { storage.fields.errorMessage.wrappedValue }
        /// `ifcc_` fields this version of ChargeKit does not know, kept as sent (full
        /// wire names) and reported, never a reason to refuse the response.
        public var unknownFields: [QueryItem] { storage.fields.unknownFields }
        /// Every other parameter of the URL (your extra parameters), in order; no
        /// `ifcc_` field and no nonce.
        public var extraItems: [QueryItem] { storage.fields.extraItems }
        /// The correlation nonce (`ifcc_request_nonce`), when present.
        public var nonce: Nonce? { storage.fields.nonce }
        /// Standard or FileMaker naming.
        public var format: Format { storage.fields.format }

        /// The fields, held once (see ``SharedFields``).
        private var storage: SharedFields<Fields>

        /// The stored fields: what the properties above read and write (the text
        /// ones as places in the callback URL, see ``CallbackText``).
        struct Fields: Hashable, Sendable, Codable {
            var returnURL: RequiredCallbackText
            var responseCode: ResponseCode
            var transactionId: CallbackText
            var amount: Money?
            var currency: Currency?
            var currencyDefaulted: Bool
            var taxAmount: Money?
            var taxRate: CallbackText
            var tipAmount: Money?
            var redactedCardNumber: CallbackText
            var cardType: CardType?
            var errorMessage: CallbackText
            var unknownFields: [QueryItem]
            var extraItems: [QueryItem]
            var nonce: Nonce?
            var format: Format
        }

        /// Your extra parameters by name. Validate them before use: they come from a URL.
        public var extraParams: [String: String] {
            extraItems.firstValues
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

        /// Parses and validates a callback URL.
        /// - Parameters:
        ///   - url: the URL Credit Card Terminal opened the app with.
        ///   - maximumLength: the bound on the URL's length in bytes.
        /// - Throws: ``ChargeKitError`` naming the first field that breaks a rule.
        public init(url: String, maximumLength: Int = QueryURL.defaultMaximumLength) throws(ChargeKitError) {
            self = try FieldReader.read(url, maximumLength: maximumLength) { fields throws(ChargeKitError) in try ChargeResponse(fields: &fields) }
        }

        /// Reads a response from its scanned fields.
        init(fields: inout FieldReader) throws(ChargeKitError) {
            self.init(storage: try ChargeResponse.read(&fields))
        }

        /// Validates an already split URL.
        public init(_ url: QueryURL) throws(ChargeKitError) {
            try self.init(url: url.string, maximumLength: .max)
        }

        /// The response's own fields, by their names without `ifcc_`.
        private enum Field: Int, CaseIterable {
            case responseType, transactionId, amount, currency, taxAmount, taxRate, tipAmount, redactedCardNumber,
                 cardType, errorMessage

            var name: StaticString {
                switch self {
                case .responseType: "responseType"
                case .transactionId: "transactionId"
                case .amount: "amount"
                case .currency: "currency"
                case .taxAmount: "taxAmount"
                case .taxRate: "taxRate"
                case .tipAmount: "tipAmount"
                case .redactedCardNumber: "redactedCardNumber"
                case .cardType: "cardType"
                case .errorMessage: "errorMessage"
                }
            }

            /// The field whose name the reader's field at `index` has (past the bytes skipped).
            static func named(by reader: FieldReader, at index: Int) -> Field? {
                let length = reader.nameLength(index)
                var raw = 0
                while let field = Field(rawValue: raw) {
                    if field.name.utf8CodeUnitCount == length && reader.name(index, is: field.name) { return field }
                    raw += 1
                }
                return nil
            }
        }

        /// Where each response field is in the reader, once found.
        private struct Positions {
            /// One place per ``Field`` case, in raw-value order.
            private var positions = [Int](repeating: -1, count: Field.allCases.count)

            subscript(field: Field) -> Int {
                get { positions[field.rawValue] }
                set { positions[field.rawValue] = newValue }
            }

            /// The field's value, kept in the URL's string, after `check` accepts its bytes.
            func text(_ field: Field, from reader: FieldReader,
                      check: (Span<UInt8>) throws(ChargeKitError) -> Void) throws(ChargeKitError) -> CallbackText {
                guard self[field] >= 0 else { return CallbackText(wrappedValue: nil) }
                return try reader.text(self[field], check: check)
            }
        }

        /// Reads a response's fields (built at once at the end, straight into their box:
        /// assigning them one by one, or boxing the returned value, copied them).
        private static func read(_ reader: inout FieldReader) throws(ChargeKitError) -> SharedFields<Fields> {
            var fields = Positions()
            var format: Format?
            var nonceIndex: Int?
            var unknown: [QueryItem] = []
            for index in reader.indices {
                if reader.name(index, is: "ifcc_request_nonce") {
                    guard nonceIndex == nil else { throw .duplicateField(reader.name(index)) }
                    nonceIndex = index
                    reader.markTaken(index)
                    continue
                }
                let prefixed = reader.name(index, hasPrefix: "$")
                if prefixed { reader.skip(1, ofNameAt: index) }
                guard reader.name(index, hasPrefix: "ifcc_") else {
                    if prefixed { reader.skip(-1, ofNameAt: index) }
                    continue
                }
                reader.markTaken(index)
                let itemFormat: Format = prefixed ? .fileMaker : .standard
                if let format, format != itemFormat {
                    throw .invalidField(reader.name(index), rule: "mixes FileMaker ($) and plain response names")
                }
                format = itemFormat
                reader.skip(5, ofNameAt: index)
                guard let field = Field.named(by: reader, at: index) else {
                    // The app's own namespace: a newer app's field is reported, not refused
                    // (the URL's length bound already bounds it).
                    let item = reader.item(index)
                    guard !unknown.contains(where: { $0.name == item.name }) else { throw .duplicateField(item.name) }
                    unknown.append(item)
                    continue
                }
                guard fields[field] < 0 else { throw .duplicateField(reader.name(index)) }
                fields[field] = index
            }
            // The rest are the app's extras: each name once among them.
            try reader.refuseDuplicates(untakenOnly: true)
            let fileMaker = format == .fileMaker
            /// A field's wire name, for an error (made only when one is thrown).
            func wire(_ field: Field) -> String { (fileMaker ? "$ifcc_" : "ifcc_") + field.name.description }

            let nonce = try nonceIndex.map { index throws(ChargeKitError) in try Nonce(reader.value(index), field: CreditCardTerminal.nonceField) }

            // Each value is checked on its bytes; strings are made only for the text fields kept.
            guard fields[.responseType] >= 0 else { throw .missingField(wire(.responseType)) }
            let code = try reader.withValue(fields[.responseType]) { bytes throws(ChargeKitError) in
                guard let code = ResponseCode(wireBytes: bytes) else {
                    throw .invalidField(wire(.responseType), rule: "must be approved, cancelled, declined or error")
                }
                return code
            }

            let transactionId = try fields.text(.transactionId, from: reader) { bytes throws(ChargeKitError) in
                // Characters are counted only past 255 bytes (fewer bytes are fewer characters).
                guard (1...255).contains(bytes.count <= 255 ? bytes.count : bytes.string.count) else {
                    throw .invalidField(wire(.transactionId), rule: "must be 1 to 255 characters")
                }
            }

            let hasCurrency = fields[.currency] >= 0, hasAmount = fields[.amount] >= 0
            let currency: Currency?, currencyDefaulted: Bool
            if hasCurrency {
                currency = try reader.withValue(fields[.currency]) { bytes throws(ChargeKitError) in
                    guard bytes.count == 3, bytes.allSatisfy({ $0 >= 0x41 && $0 <= 0x5A }) else {
                        throw .invalidField(wire(.currency), rule: "must match ^[A-Z]{3}$")
                    }
                    return try Currency(code: bytes, field: wire(.currency))
                }
                currencyDefaulted = false
            } else {
                currency = hasAmount ? .usd : nil
                currencyDefaulted = hasAmount
            }
            let moneyCurrency = currency ?? .usd
            func money(_ field: Field) throws(ChargeKitError) -> Money? {
                guard fields[field] >= 0 else { return nil }
                return try reader.withValue(fields[field]) { bytes throws(ChargeKitError) in
                    try Self.money(bytes, moneyCurrency, field: wire(field))
                }
            }
            let amount = try money(.amount), taxAmount = try money(.taxAmount), tipAmount = try money(.tipAmount)

            let taxRate = try fields.text(.taxRate, from: reader) { bytes throws(ChargeKitError) in
                guard CreditCardTerminal.isTaxRate(bytes) else {
                    throw .invalidField(wire(.taxRate), rule: "must match ^[0-9]{1,2}(\\.[0-9]{1,3})?$")
                }
            }

            let redactedCardNumber = try fields.text(.redactedCardNumber, from: reader) { bytes throws(ChargeKitError) in
                guard bytes.count <= 64, FieldRules.isRedactedCardNumber(bytes) else { throw .invalidField(wire(.redactedCardNumber), rule: "must match ^X*[0-9]{4}$") }
            }

            let cardType = try fields[.cardType] < 0 ? nil : reader.withValue(fields[.cardType]) { bytes throws(ChargeKitError) in
                guard bytes.count <= 20, bytes.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A || $0 == 0x20 }) else {
                    throw .invalidField(wire(.cardType), rule: "must match ^[A-Za-z ]{0,20}$")
                }
                return CardType(wireBytes: bytes)
            }

            let errorMessage = try fields.text(.errorMessage, from: reader) { bytes throws(ChargeKitError) in
                try FieldRules.text(bytes, field: wire(.errorMessage), limit: 1024)
            }

            if code == .approved {
                if amount == nil { throw .missingField(wire(.amount)) }
                if !redactedCardNumber.isPresent { throw .missingField(wire(.redactedCardNumber)) }
            } else {
                for field in [Field.amount, .currency, .cardType, .redactedCardNumber] where fields[field] >= 0 {
                    throw .unexpectedField(wire(field), rule: "a \(code.rawValue) response carries no transaction data")
                }
            }
            return SharedFields(Fields(
                returnURL: reader.baseText, responseCode: code, transactionId: transactionId, amount: amount, currency: currency,
                currencyDefaulted: currencyDefaulted, taxAmount: taxAmount, taxRate: taxRate, tipAmount: tipAmount,
                redactedCardNumber: redactedCardNumber, cardType: cardType, errorMessage: errorMessage, unknownFields: unknown,
                extraItems: reader.remaining, nonce: nonce, format: format ?? .standard))
        }

        private init(storage: SharedFields<Fields>) { self.storage = storage }

        /// Equal when every field is equal (as the properties read them).
        public static func == (lhs: ChargeResponse, rhs: ChargeResponse) -> Bool { SharedFields.same(lhs.storage, rhs.storage) }

        /// Hashes every field.
        public func hash(into hasher: inout Hasher) { storage.fields.hash(into: &hasher) }

        /// Decodes the fields, keyed by the properties' names.
        public init(from decoder: any Decoder) throws { storage = SharedFields(try Fields(from: decoder)) }

        /// Encodes the fields, keyed by the properties' names (an absent value leaves its key out).
        public func encode(to encoder: any Encoder) throws { try storage.fields.encode(to: encoder) }

        /// Reads a response amount: `^(0|[1-9][0-9]*)\.[0-9]{2}$`, then exact in `currency`.
        static func money(_ bytes: Span<UInt8>, _ currency: Currency, field: @autoclosure () -> String) throws(ChargeKitError) -> Money {
            guard CreditCardTerminal.isWireAmount(bytes) else {
                throw .invalidField(field(), rule: "must match ^(0|[1-9][0-9]*)\\.[0-9]{2}$")
            }
            // The wire has exactly two decimals: a currency with fewer must have zeros there.
            guard currency.minorUnits < 2 else { return try Money(parsing: bytes, currency: currency, field: field()) }
            guard bytes.extracting(last: 2 - currency.minorUnits).allSatisfy({ $0 == 0x30 }) else {
                throw .invalidField(field(), rule: "has more decimals than \(currency.code) allows")
            }
            let kept = bytes.extracting(droppingLast: currency.minorUnits == 0 ? 3 : 2 - currency.minorUnits)
            return try Money(parsing: kept, currency: currency, field: field())
        }
    }
}
