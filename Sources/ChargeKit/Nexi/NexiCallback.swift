import Foundation

extension Nexi {
    /// The answer of Nexi POS: the request's `uri` with `callerTrxId`, `operationType`,
    /// `result` and `amount`, and after an approved or declined card payment
    /// `actionCode`, `pan`, `transactionType`, `timestamp`, `resultDescription`,
    /// `cardTypeCVM`, `acquirerId`, `stan`, `operationNumber`, `acquirerName`,
    /// `terminalId`, `merchantId`, `authorizationNumber` and `urlTicket`. Any other field
    /// is kept in ``unknownFields``, never a reason to refuse. Values are trimmed of the
    /// spaces Nexi pads `acquirerName` and `merchantId` with.
    ///
    /// Outcomes, from Nexi's `result` table: `0` approved, `21` declined, `20` cancelled,
    /// `22` a general error (failed). Any other value (the negative codes of the app's
    /// checks, such as `-16` NFC not active, and the SoftPOS `X-Y-Z` codes) is failed, as
    /// is a code no source confirms: nothing was paid unless `result` is `0`.
    public struct Callback: Hashable, Sendable, Codable {
        /// The URL opened, without its query.
        public let callbackURL: String
        /// `result` as sent (`0`, `21`, `-16`, `1-2-3`).
        public let result: String
        /// `operationType` as sent (`PAYMENT`, `REVERSAL`).
        public let operationType: String
        /// `callerTrxId` as echoed.
        public let callerTrxID: String?
        /// `amount` in cents, as sent.
        public let amountMinorUnits: Int64?
        /// The card payment's details as sent (trimmed), by wire name, in the order they came.
        public let detailItems: [QueryItem]
        /// Fields Nexi sent that ChargeKit does not know, in order.
        public let unknownFields: [QueryItem]

        /// The card payment's details (`actionCode`, `pan`, `transactionType`,
        /// `timestamp`, `resultDescription`, `cardTypeCVM`, `acquirerId`, `stan`,
        /// `operationNumber`, `acquirerName`, `terminalId`, `merchantId`,
        /// `authorizationNumber`, `urlTicket`), by wire name.
        public var details: [String: String] { detailItems.firstValues }

        /// The documented detail fields.
        public static var detailFields: [String] { Name.detailNames }
        /// The longest value of any field but `urlTicket`.
        static let maximumFieldLength = 256

        /// The names the answer's fields are taken by: the four of every answer, then the details.
        enum Name: Int, DetailFieldName {
            case result, operationType, callerTrxID, amount
            case actionCode, pan, transactionType, timestamp, resultDescription, cardTypeCVM, acquirerID, stan
            case operationNumber, acquirerName, terminalID, merchantID, authorizationNumber, urlTicket
            static let texts: [StaticString] = [
                "result", "operationType", "callerTrxId", "amount", "actionCode", "pan", "transactionType", "timestamp",
                "resultDescription", "cardTypeCVM", "acquirerId", "stan", "operationNumber", "acquirerName", "terminalId",
                "merchantId", "authorizationNumber", "urlTicket",
            ]
            static let all = FieldNames(texts)
            static let firstDetail = Name.actionCode
            var limit: Int { self == .urlTicket ? 2048 : Callback.maximumFieldLength }
        }

        /// Parses and validates an answer of at most `maximumLength` bytes.
        public init(url: String, maximumLength: Int = QueryURL.defaultMaximumLength) throws(ChargeKitError) {
            self = try FieldReader.read(url, maximumLength: maximumLength) { fields throws(ChargeKitError) in try Callback(fields: &fields) }
        }

        /// Reads an answer from its scanned fields.
        init(fields: inout FieldReader) throws(ChargeKitError) {
            fields.match(Name.all)
            try fields.refuseDuplicates()
            func take(_ name: Name) throws(ChargeKitError) -> String? { try fields.takeChecked(name).map(Self.trimmingSpaces) }
            guard let result = try take(.result) else { throw .missingField("result") }
            guard Self.isResultCode(result) else {
                throw .invalidField("result", rule: "must be a whole number (0, 20, 21, 22, -16…) or an X-Y-Z code")
            }
            guard let operationType = try take(.operationType), !operationType.isEmpty else { throw .missingField("operationType") }
            let callerTrxID = try take(.callerTrxID)
            let amount = try take(.amount).map { text throws(ChargeKitError) in try Self.minorUnits(text) }
            let details = try fields.takeDetails(Name.self, clean: Self.trimmingSpaces)
            let unknown = try fields.unknownFields(limit: Self.maximumFieldLength)
            self.callbackURL = fields.baseText.wrappedValue
            self.result = result
            self.operationType = operationType
            self.callerTrxID = callerTrxID
            self.amountMinorUnits = amount
            self.detailItems = details
            self.unknownFields = unknown
        }

        /// `value` without the spaces Nexi pads fixed-width fields with (`NEXI` + 12 spaces);
        /// most values have none and are returned as they are.
        static func trimmingSpaces(_ value: String) -> String {
            let bytes = value.utf8
            guard bytes.first == 0x20 || bytes.last == 0x20 else { return value }
            guard let first = bytes.firstIndex(where: { $0 != 0x20 }), let last = bytes.lastIndex(where: { $0 != 0x20 }) else { return "" }
            return String(value[first...last])
        }

        /// A whole number (`0`, `-16`) or a SoftPOS `X-Y-Z` code of digits and letters.
        static func isResultCode(_ text: String) -> Bool {
            let bytes = Array(text.utf8)
            guard !bytes.isEmpty, bytes.count <= 32 else { return false }
            func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }
            if bytes[0] == 0x2D { return bytes.count > 1 && bytes.dropFirst().allSatisfy(isDigit) }
            if bytes.allSatisfy(isDigit) { return true }
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            return parts.count == 3 && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
        }

        private static func minorUnits(_ text: String) throws(ChargeKitError) -> Int64 {
            guard !text.isEmpty, text.utf8.count <= 12, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int64(text) else {
                throw .invalidField("amount", rule: "must be a whole number of cents")
            }
            return value
        }

        /// The outcome by Nexi's `result` table: only `0` is approved.
        public var outcome: ChargeOutcome {
            switch result {
            case "0": .approved
            case "21": .declined
            case "20": .cancelled
            default: .failed
            }
        }

        /// The nonce at the start of `callerTrxId`, when it carries one.
        public var nonce: Nonce? { Nonce.leading(callerTrxID).nonce }

        /// Your reference, after the nonce in `callerTrxId`.
        public var reference: String? { Nonce.leading(callerTrxID).rest.flatMap { $0.isEmpty ? nil : $0 } }

        /// `actionCode`: the bank's code (`000` approved).
        public var actionCode: String? { detail(.actionCode) }

        /// `pan`: the masked card number (`************5938`).
        public var maskedCardNumber: String? { detail(.pan) }

        /// `operationNumber`, Nexi's number of the transaction on its terminal.
        public var operationNumber: String? { detail(.operationNumber) }

        /// `authorizationNumber`, the issuer's approval code.
        public var authorizationNumber: String? { detail(.authorizationNumber) }

        /// `terminalId`, which a reversal of this payment names.
        public var terminalID: String? { detail(.terminalID) }

        /// `resultDescription`, for people; `nil` when empty.
        public var resultDescription: String? { detail(.resultDescription).flatMap { $0.isEmpty ? nil : $0 } }

        /// `timestamp` (`ddMMyyHHmm`, the terminal's local time) as date components,
        /// with no time zone; `nil` when absent or unreadable.
        public var timestamp: DateComponents? { detail(.timestamp).flatMap(Nexi.timestampComponents) }

        /// `urlTicket`: the link to the receipt's image, when the request asked for one.
        public var receiptURL: String? { detail(.urlTicket).flatMap { $0.isEmpty ? nil : $0 } }

        private func detail(_ name: Name) -> String? { detailItems.first(named: name.name) }
    }
}
