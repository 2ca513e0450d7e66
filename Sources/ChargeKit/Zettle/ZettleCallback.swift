import Foundation

extension Zettle {
    /// The card details on a successful `izettle://api/` callback.
    public struct PaymentInfo: Hashable, Sendable, Codable {
        /// How the card was read.
        public enum EntryMode: OpenWireValue {
            /// `EMV`: the chip was read.
            case emv
            /// `MAGSTRIPE`: the stripe was swiped.
            case magstripe
            /// `MANUAL_ENTRY`: the number was typed.
            case manualEntry
            /// A value not documented; kept as sent.
            case other(String)

            /// `EMV`, `MAGSTRIPE`, `MANUAL_ENTRY`.
            public static let documented: [EntryMode] = [.emv, .magstripe, .manualEntry]

            /// The wire value.
            public var rawValue: String {
                switch self {
                case .emv: return "EMV"
                case .magstripe: return "MAGSTRIPE"
                case .manualEntry: return "MANUAL_ENTRY"
                case .other(let value): return value
                }
            }
        }

        /// `referenceNumber`.
        public var referenceNumber: String?
        /// `entryMode`.
        public var entryMode: EntryMode?
        /// `obfuscatedPan`, like `**** **** **** 1111`.
        public var obfuscatedPan: String?
        /// `panHash`.
        public var panHash: String?
        /// `cardBrand`.
        public var cardBrand: String?
        /// `AID` (EMV only).
        public var aid: String?
        /// `TSI` (EMV only).
        public var tsi: String?
        /// `TVR` (EMV only).
        public var tvr: String?
        /// `applicationName` (EMV only).
        public var applicationName: String?
        /// `numberOfInstallments`.
        public var numberOfInstallments: Int?
        /// `installmentAmount`, as sent.
        public var installmentAmount: String?
        /// `authorizationCode`, the issuer's authorization code.
        public var authorizationCode: String?

        /// The wire names of the payment info fields.
        public static let fieldNames = Name.texts.map(\.description)

        /// The payment info's names, at their slots among a callback's names
        /// (``Callback/Name``; the callback's own come first).
        enum Name: Int, FieldName {
            case referenceNumber = 5, entryMode, obfuscatedPan, panHash, cardBrand, aid, tsi, tvr,
                 applicationName, numberOfInstallments, installmentAmount, authorizationCode
            /// In the order of ``PaymentInfo/fieldNames``.
            static let texts: [StaticString] = ["referenceNumber", "entryMode", "obfuscatedPan", "panHash", "cardBrand",
                                                "AID", "TSI", "TVR", "applicationName", "numberOfInstallments",
                                                "installmentAmount", "authorizationCode"]
        }

        /// Whether no field is set.
        public var isEmpty: Bool { self == PaymentInfo() }

        /// Makes empty payment info.
        public init() {}

        /// Payment info whose text values are at `places` of the callback URL `source`.
        init(source: String, places: Places) {
            referenceNumber = places.referenceNumber.value(in: source)
            entryMode = places.entryMode
            obfuscatedPan = places.obfuscatedPan.value(in: source)
            panHash = places.panHash.value(in: source)
            cardBrand = places.cardBrand.value(in: source)
            aid = places.aid.value(in: source)
            tsi = places.tsi.value(in: source)
            tvr = places.tvr.value(in: source)
            applicationName = places.applicationName.value(in: source)
            numberOfInstallments = places.numberOfInstallments
            installmentAmount = places.installmentAmount.value(in: source)
            authorizationCode = places.authorizationCode.value(in: source)
        }

        /// Where a parsed callback's payment info values are in its URL: plain places,
        /// so that reading them holds the URL's string once (in ``Storage``), not once
        /// per value.
        struct Places: Sendable {
            var referenceNumber = TextPlace.absent, obfuscatedPan = TextPlace.absent, panHash = TextPlace.absent
            var cardBrand = TextPlace.absent, aid = TextPlace.absent, tsi = TextPlace.absent, tvr = TextPlace.absent
            var applicationName = TextPlace.absent, installmentAmount = TextPlace.absent, authorizationCode = TextPlace.absent
            var entryMode: EntryMode?
            var numberOfInstallments: Int?

            /// Takes and checks the payment info fields.
            init(reading fields: inout FieldReader) throws(ChargeKitError) {
                /// The rule of every payment info field: non-empty printable ASCII, at most `limit` bytes.
                @inline(__always)
                func checkField(_ bytes: Span<UInt8>, _ name: Name, limit: Int) throws(ChargeKitError) {
                    try FieldRules.nonEmpty(bytes, field: name.text.description)
                    try FieldRules.printableASCII(bytes, field: name.text.description, limit: limit)
                }
                /// A text field that passes the rule and then `check`.
                @inline(__always)
                func text(
                    _ name: Name, limit: Int = 128,
                    check: (Span<UInt8>) throws(ChargeKitError) -> Void = { _ in }
                ) throws(ChargeKitError) -> TextPlace {
                    try fields.takePlace(name) { bytes throws(ChargeKitError) in
                        try checkField(bytes, name, limit: limit)
                        try check(bytes)
                    }
                }
                referenceNumber = try text(Name.referenceNumber)
                entryMode = try fields.take(Name.entryMode) { bytes throws(ChargeKitError) in
                    try checkField(bytes, Name.entryMode, limit: 128)
                    return EntryMode(wireBytes: bytes)
                }
                obfuscatedPan = try text(Name.obfuscatedPan, limit: 32) { bytes throws(ChargeKitError) in
                    guard FieldRules.isMaskedCardNumber(bytes) else { throw .invalidField("obfuscatedPan", rule: "must be masked like '**** **** **** 1111'") }
                }
                panHash = try text(Name.panHash, limit: 256)
                cardBrand = try text(Name.cardBrand, limit: 40)
                aid = try text(Name.aid, limit: 32)
                tsi = try text(Name.tsi, limit: 16)
                tvr = try text(Name.tvr, limit: 16)
                applicationName = try text(Name.applicationName, limit: 64)
                authorizationCode = try text(Name.authorizationCode, limit: 64)
                numberOfInstallments = try fields.take(Name.numberOfInstallments) { bytes throws(ChargeKitError) in
                    try checkField(bytes, Name.numberOfInstallments, limit: 3)
                    guard let number = Int(bytes.string), (1...999).contains(number) else {
                        throw .invalidField("numberOfInstallments", rule: "must be a whole number from 1 to 999")
                    }
                    return number
                }
                installmentAmount = try text(Name.installmentAmount, limit: 20) { bytes throws(ChargeKitError) in
                    _ = try DecimalText.parse(bytes.string, field: "installmentAmount")
                }
            }
        }

        /// The payment info a parsed callback keeps: its places in the callback URL
        /// (made into ``PaymentInfo`` when read), or a value set in code. Equal, hashed
        /// and coded as the ``PaymentInfo`` it stands for.
        struct Storage: Hashable, Sendable, Codable {
            private enum Form: Sendable {
                case places(source: String, Places)
                /// Boxed: the parsed form stays small (and a parser never makes this one).
                indirect case value(PaymentInfo)
            }
            private var form: Form

            /// The payment info read from a callback URL.
            init(source: String, places: Places) { form = .places(source: source, places) }

            /// Payment info set in code.
            init(_ value: PaymentInfo) { form = .value(value) }

            /// The payment info.
            var value: PaymentInfo {
                switch form {
                case .places(let source, let places): PaymentInfo(source: source, places: places)
                case .value(let value): value
                }
            }

            static func == (lhs: Storage, rhs: Storage) -> Bool { lhs.value == rhs.value }

            func hash(into hasher: inout Hasher) { value.hash(into: &hasher) }

            init(from decoder: any Decoder) throws { form = .value(try PaymentInfo(from: decoder)) }

            func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }
        }
    }

    /// A 3.0 `errorMessage` in its structured form, `domain(code) - message`,
    /// optionally followed by ` <UnderlyingError>: …`.
    public struct StructuredError: Hashable, Sendable, Codable {
        /// The error domain, such as `com.izettle.session.error`.
        public var domain: String
        /// The code within the domain (`10` with the session domain: an operation is
        /// already in progress).
        public var code: Int
        /// The message, without the underlying error.
        public var message: String
        /// The text after ` <UnderlyingError>: `, when present.
        public var underlying: String?

        /// Reads `domain(code) - message`; `nil` for a message without that shape
        /// (1.0 messages and free text are kept as they are).
        public init?(_ text: String) {
            guard let open = text.firstIndex(of: "("), let close = text[open...].firstIndex(of: ")"),
                  text[close...].hasPrefix(") - ")
            else { return nil }
            let domain = text[..<open]
            let digits = text[text.index(after: open)..<close]
            guard !domain.isEmpty, !domain.contains(" "), let code = Int(digits) else { return nil }
            var rest = text[text.index(close, offsetBy: 4)...]
            var underlying: String?
            if let marker = rest.range(of: " <UnderlyingError>") {
                var tail = rest[marker.upperBound...]
                if tail.hasPrefix(":") { tail = tail.dropFirst() }
                underlying = tail.trimmingCharacters(in: .whitespaces)
                rest = rest[..<marker.lowerBound]
            }
            self.domain = String(domain)
            self.code = code
            message = String(rest)
            self.underlying = underlying
        }
    }

    /// An answer from the Zettle app to either version of the scheme.
    ///
    /// Which callback was opened is read from `errorCode` / `errorMessage` (present
    /// only on failure) and, when ChargeKit built the URLs, cross-checked with the
    /// `chargekit-callback` marker.
    public struct Callback: Hashable, Sendable, Codable {
        /// The URL opened, without its query.
        public var callbackURL: String { storage.fields.callbackURL.wrappedValue }
        /// Whether the success callback was opened.
        public var succeeded: Bool { storage.fields.succeeded }
        /// `errorCode` on a version 1.0 failure.
        public var errorCode: ErrorCode? { storage.fields.errorCode }
        /// `errorMessage` on failure.
        public var errorMessage: String? { storage.fields.errorMessage.wrappedValue }
        /// `errorMessage` split into domain, code and message, when it has the 3.0 shape.
        public var structuredError: StructuredError? { errorMessage.flatMap(StructuredError.init) }
        /// The 3.0 wrapper's `operationUUID`, which it puts on its own callback URLs.
        public var operationUUID: String? { extraItems.first { $0.name == "operationUUID" }?.value }
        /// `reference`, echoed when it was sent.
        public var reference: String? { storage.fields.reference.wrappedValue }
        /// The payment info on an `izettle://api/` success.
        public var paymentInfo: PaymentInfo { storage.fields.paymentInfo.value }
        /// The correlation nonce ChargeKit put on the callback URL.
        public var nonce: Nonce? { storage.fields.nonce }
        /// Every other parameter (your extras), in order.
        public var extraItems: [QueryItem] { storage.fields.extraItems.items }
        /// The `chargekit-callback` marker (`success` or `failure`) of the URL opened,
        /// when ChargeKit built the request.
        public var callbackMarker: String? { storage.fields.callbackMarker.wrappedValue }

        /// The fields, held once (see ``SharedFields``).
        private var storage: SharedFields<Fields>

        /// The stored fields: what the properties above read and write (the text
        /// ones as places in the callback URL, see ``CallbackText``).
        struct Fields: Hashable, Sendable, Codable {
            var callbackURL: RequiredCallbackText
            var succeeded: Bool
            var errorCode: ErrorCode?
            var errorMessage: CallbackText
            var reference: CallbackText
            var paymentInfo: PaymentInfo.Storage
            var nonce: Nonce?
            var extraItems: CallbackItems
            var callbackMarker: CallbackText
        }

        /// Parses and validates a callback URL.
        public init(url: String, maximumLength: Int = QueryURL.defaultMaximumLength) throws(ChargeKitError) {
            self = try FieldReader.read(url, maximumLength: maximumLength) { fields throws(ChargeKitError) in try Callback(fields: &fields) }
        }

        /// Reads a callback from its scanned fields.
        init(fields: inout FieldReader) throws(ChargeKitError) {
            fields.match(Name.fields)
            self.init(storage: try Callback.read(&fields))
        }

        /// Validates an already split URL.
        public init(_ url: QueryURL) throws(ChargeKitError) {
            try self.init(url: url.string, maximumLength: .max)
        }

        /// The names a callback's fields are taken by: its own, then the payment info's
        /// (``PaymentInfo/Name``).
        enum Name: Int, FieldName {
            case errorMessage, errorCode, reference, nonce, callback
            static let texts: [StaticString] = ["errorMessage", "errorCode", "reference",
                                                ChargeKitParameter.nonceName, ChargeKitParameter.callbackName]
            /// These names, then the payment info's (whose slots follow).
            static let fields = FieldNames(texts + PaymentInfo.Name.texts)
        }

        /// Reads a callback's fields (built at once at the end, straight into their box:
        /// assigning them one by one, or boxing the returned value, copied them).
        private static func read(_ fields: inout FieldReader) throws(ChargeKitError) -> SharedFields<Fields> {
            try fields.refuseDuplicates()
            let errorMessage = try fields.takeText(Name.errorMessage) { bytes throws(ChargeKitError) in
                try FieldRules.text(bytes, field: "errorMessage", limit: 1024)
            }
            let errorCode = try fields.take(Name.errorCode) { bytes throws(ChargeKitError) in
                guard !bytes.isEmpty, bytes.count <= 64, bytes.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) else {
                    throw .invalidField("errorCode", rule: "must be a code such as CancelledByUser")
                }
                return ErrorCode(wireBytes: bytes)
            }
            let reference = try fields.takeText(Name.reference) { bytes throws(ChargeKitError) in
                try Zettle.validateReference(bytes, field: "reference")
            }
            let nonce = try fields.take(Name.nonce).map { text throws(ChargeKitError) in
                try Nonce(text, field: ChargeKitParameter.nonce)
            }
            let failed = errorCode != nil || errorMessage.isPresent
            enum Marker { case success, failure }
            let marker = try fields.take(Name.callback) { bytes throws(ChargeKitError) -> Marker in
                if bytes.spells("success") { return .success }
                if bytes.spells("failure") { return .failure }
                throw .invalidField(ChargeKitParameter.callback, rule: "must be success or failure")
            }
            let callbackMarker: CallbackText
            switch marker {
            case nil: callbackMarker = CallbackText(wrappedValue: nil)
            case .success:
                if failed { throw .unexpectedField(errorCode == nil ? "errorMessage" : "errorCode", rule: "the success callback carries no error") }
                callbackMarker = CallbackText(wrappedValue: "success")
            case .failure:
                if !failed { throw .missingField("errorCode") }
                callbackMarker = CallbackText(wrappedValue: "failure")
            }
            let paymentInfo = try PaymentInfo.Places(reading: &fields)
            if failed, let name = PaymentInfo.Name.allCases.first(where: fields.contains) {
                throw .unexpectedField(name.text.description, rule: "a failure callback carries no payment info")
            }
            return SharedFields(Fields(callbackURL: fields.baseText, succeeded: !failed, errorCode: errorCode, errorMessage: errorMessage,
                          reference: reference, paymentInfo: PaymentInfo.Storage(source: fields.source, places: paymentInfo), nonce: nonce, extraItems: fields.remainingItems,
                          callbackMarker: callbackMarker))
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
