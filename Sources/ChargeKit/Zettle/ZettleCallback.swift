import Foundation

extension Zettle {
    /// The card details on a successful `izettle://api/` callback.
    public struct PaymentInfo: Hashable, Sendable, Codable {
        /// How the card was read.
        public enum EntryMode: OpenWireValue {
            case emv, magstripe, manualEntry
            /// A value not documented; kept as sent.
            case other(String)

            /// `EMV`, `MAGSTRIPE`, `MANUAL_ENTRY`.
            public static let documented: [EntryMode] = [.emv, .magstripe, .manualEntry]

            /// The wire value.
            public var wireValue: String {
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
        public static let fieldNames = wireNames.map(\.description)
        /// ``fieldNames``, for comparing with a callback's bytes.
        static let wireNames: [StaticString] = [
            "referenceNumber", "entryMode", "obfuscatedPan", "panHash", "cardBrand", "AID", "TSI", "TVR",
            "applicationName", "numberOfInstallments", "installmentAmount", "authorizationCode",
        ]

        /// Whether no field is set.
        public var isEmpty: Bool { self == PaymentInfo() }

        /// Makes empty payment info.
        public init() {}

        mutating func read(_ fields: inout FieldReader) throws(ChargeKitError) {
            func text(_ name: StaticString, limit: Int = 128) throws(ChargeKitError) -> String? {
                guard let value = fields.take(name) else { return nil }
                guard !value.isEmpty else { throw .invalidField(name.description, rule: "must not be empty") }
                try FieldRules.printableASCII(value, field: name.description, limit: limit)
                return value
            }
            referenceNumber = try text("referenceNumber")
            entryMode = try text("entryMode").map(EntryMode.init(wireValue:))
            obfuscatedPan = try text("obfuscatedPan", limit: 32)
            if var pan = obfuscatedPan {
                let masked = pan.withUTF8 { bytes in
                    bytes.allSatisfy { DecimalText.isDigit($0) || $0 == 0x2A || $0 == 0x20 } && bytes.suffix(4).allSatisfy(DecimalText.isDigit)
                }
                guard masked else { throw .invalidField("obfuscatedPan", rule: "must be masked like '**** **** **** 1111'") }
            }
            panHash = try text("panHash", limit: 256)
            cardBrand = try text("cardBrand", limit: 40)
            aid = try text("AID", limit: 32)
            tsi = try text("TSI", limit: 16)
            tvr = try text("TVR", limit: 16)
            applicationName = try text("applicationName", limit: 64)
            authorizationCode = try text("authorizationCode", limit: 64)
            if let count = try text("numberOfInstallments", limit: 3) {
                guard let number = Int(count), (1...999).contains(number) else {
                    throw .invalidField("numberOfInstallments", rule: "must be a whole number from 1 to 999")
                }
                numberOfInstallments = number
            }
            if let amount = try text("installmentAmount", limit: 20) {
                _ = try DecimalText.parse(amount, field: "installmentAmount")
                installmentAmount = amount
            }
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
        public var callbackURL: String
        /// Whether the success callback was opened.
        public var succeeded: Bool
        /// `errorCode` on a version 1.0 failure.
        public var errorCode: ErrorCode?
        /// `errorMessage` on failure.
        public var errorMessage: String?
        /// `errorMessage` split into domain, code and message, when it has the 3.0 shape.
        public var structuredError: StructuredError? { errorMessage.flatMap(StructuredError.init) }
        /// The 3.0 wrapper's `operationUUID`, which it puts on its own callback URLs.
        public var operationUUID: String? { extraItems.first { $0.name == "operationUUID" }?.value }
        /// `reference`, echoed when it was sent.
        public var reference: String?
        /// The payment info on an `izettle://api/` success.
        public var paymentInfo: PaymentInfo
        /// The correlation nonce ChargeKit put on the callback URL.
        public var nonce: Nonce?
        /// Every other parameter (your extras), in order.
        public var extraItems: [QueryItem]
        /// The `chargekit-callback` marker (`success` or `failure`) of the URL opened,
        /// when ChargeKit built the request.
        public var callbackMarker: String?

        /// Parses and validates a callback URL.
        public init(url: String, maximumLength: Int = QueryURL.defaultMaximumLength) throws(ChargeKitError) {
            self = try FieldReader.read(url, maximumLength: maximumLength) { fields throws(ChargeKitError) in
                try Callback(reading: &fields)
            }
        }

        /// Validates an already split URL.
        public init(_ url: QueryURL) throws(ChargeKitError) {
            try self.init(url: url.string, maximumLength: .max)
        }

        private init(reading fields: inout FieldReader) throws(ChargeKitError) {
            try fields.refuseDuplicates()
            callbackURL = fields.base
            let code = fields.take("errorCode")
            errorMessage = fields.take("errorMessage")
            if let errorMessage { try FieldRules.text(errorMessage, field: "errorMessage", limit: 1024) }
            if let code {
                guard !code.isEmpty, code.count <= 64, code.unicodeScalars.allSatisfy({ $0.properties.isAlphabetic && $0.isASCII }) else {
                    throw .invalidField("errorCode", rule: "must be a code such as CancelledByUser")
                }
            }
            errorCode = code.map(ErrorCode.init(wireValue:))
            reference = fields.take("reference")
            if let reference { try Zettle.validateReference(reference, field: "reference") }
            nonce = try fields.take(ChargeKitParameter.nonceName).map { text throws(ChargeKitError) in
                try Nonce(text, field: ChargeKitParameter.nonce)
            }
            let failed = code != nil || errorMessage != nil
            callbackMarker = fields.take(ChargeKitParameter.callbackName)
            switch callbackMarker {
            case nil: break
            case "success" where failed:
                throw .unexpectedField(code == nil ? "errorMessage" : "errorCode", rule: "the success callback carries no error")
            case "failure" where !failed:
                throw .missingField("errorCode")
            case "success", "failure": break
            default: throw .invalidField(ChargeKitParameter.callback, rule: "must be success or failure")
            }
            succeeded = !failed
            paymentInfo = PaymentInfo()
            try paymentInfo.read(&fields)
            if failed, let name = PaymentInfo.wireNames.first(where: fields.contains) {
                throw .unexpectedField(name.description, rule: "a failure callback carries no payment info")
            }
            extraItems = fields.remaining
        }
    }
}
