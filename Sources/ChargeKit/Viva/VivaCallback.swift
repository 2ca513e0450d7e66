import Foundation

extension Viva {
    /// The answer of Viva.com Terminal: the request's `callback` URL with `status`,
    /// `message`, `action`, `clientTransactionId` and `amount`, and on a card payment
    /// `tipAmount`, `verificationMethod`, `rrn`, `cardType`, `accountNumber`,
    /// `referenceNumber`, `authorisationCode`, `tid`, `orderCode`, `shortOrderCode`,
    /// `transactionDate`, `transactionId`, `installments`, `aid` and `paymentMethod`.
    /// Any other field (fiscal ones such as `aadeTransactionId`) is kept in
    /// ``unknownFields``, never a reason to refuse.
    ///
    /// Read from the raw string the app was opened with: a raw space, a `*` and a `+`
    /// are kept as sent, and a `%` that starts no escape is a percent sign.
    ///
    /// Outcomes: `status=success` is approved. `status=fail` is **failed**: Viva's answer
    /// does not tell a declined card from an error (its `message` does, in words), so
    /// ChargeKit reads it as the outcome that claims least; either way nothing was
    /// paid. `action=User_cancel` is cancelled. Any other status is failed, kept as sent.
    public struct Callback: Hashable, Sendable, Codable {
        /// The URL opened, without its query.
        public let callbackURL: String
        /// `status` as sent (`success`, `fail`); empty when only `action` was sent.
        public let status: String
        /// `message`, for people.
        public let message: String?
        /// `action`, echoed (`sale`), or `User_cancel`.
        public let action: String?
        /// `clientTransactionId` as echoed.
        public let clientTransactionID: String?
        /// `amount` in minor units, as sent.
        public let amountMinorUnits: Int64?
        /// `tipAmount` in minor units, as sent.
        public let tipMinorUnits: Int64?
        /// The card payment's details as sent, by wire name, in the order they came.
        public let detailItems: [QueryItem]
        /// Fields Viva sent that ChargeKit does not know, in order.
        public let unknownFields: [QueryItem]

        /// The card payment's details (`verificationMethod`, `rrn`, `cardType`,
        /// `accountNumber`, `referenceNumber`, `authorisationCode`, `tid`, `orderCode`,
        /// `shortOrderCode`, `transactionDate`, `transactionId`, `installments`, `aid`,
        /// `paymentMethod`), by wire name.
        public var details: [String: String] { detailItems.firstValues }

        /// The documented detail fields.
        public static var detailFields: [String] { Name.detailNames }
        /// The longest value of any field but `clientTransactionId`.
        static let maximumFieldLength = 1024

        /// The names the answer's fields are taken by: the five of every answer, then the details.
        enum Name: Int, DetailFieldName {
            case status, message, action, clientTransactionID, amount, tipAmount
            case verificationMethod, rrn, cardType, accountNumber, referenceNumber, authorisationCode, tid, orderCode
            case shortOrderCode, transactionDate, transactionID, installments, aid, paymentMethod
            static let texts: [StaticString] = [
                "status", "message", "action", "clientTransactionId", "amount", "tipAmount", "verificationMethod", "rrn",
                "cardType", "accountNumber", "referenceNumber", "authorisationCode", "tid", "orderCode", "shortOrderCode",
                "transactionDate", "transactionId", "installments", "aid", "paymentMethod",
            ]
            static let all = FieldNames(texts)
            static let firstDetail = Name.verificationMethod
            var limit: Int { self == .clientTransactionID ? Viva.maximumClientTransactionIDLength : Callback.maximumFieldLength }
        }

        /// Parses and validates an answer of at most `maximumLength` bytes, read by the
        /// one URL reader after its raw spaces and stray `%` are escaped.
        public init(url: String, maximumLength: Int = QueryURL.defaultMaximumLength) throws(ChargeKitError) {
            guard url.utf8.count <= maximumLength else { throw .urlTooLong(limit: maximumLength) }
            self = try FieldReader.read(UnencodedAnswer.escaped(url) ?? url, maximumLength: .max) { fields throws(ChargeKitError) in
                try Callback(fields: &fields)
            }
        }

        /// Reads an answer from its scanned fields (its raw spaces already escaped).
        init(fields: inout FieldReader) throws(ChargeKitError) {
            fields.match(Name.all)
            try fields.refuseDuplicates()
            func take(_ name: Name) throws(ChargeKitError) -> String? { try fields.takeChecked(name) }
            let status = try take(.status) ?? ""
            let action = try take(.action)
            guard !status.isEmpty || action?.lowercased() == "user_cancel" else { throw .missingField("status") }
            let message = try take(.message)
            let clientTransactionID = try take(.clientTransactionID)
            let amount = try take(.amount).map { text throws(ChargeKitError) in try Self.minorUnits(text, field: "amount") }
            let tip = try take(.tipAmount).map { text throws(ChargeKitError) in try Self.minorUnits(text, field: "tipAmount") }
            let details = try fields.takeDetails(Name.self)
            let unknown = try fields.unknownFields(limit: Self.maximumFieldLength)
            self.init(callbackURL: fields.baseText.wrappedValue, status: status, message: message, action: action,
                      clientTransactionID: clientTransactionID, amountMinorUnits: amount, tipMinorUnits: tip,
                      detailItems: details, unknownFields: unknown)
        }

        private init(callbackURL: String, status: String, message: String?, action: String?, clientTransactionID: String?,
                     amountMinorUnits: Int64?, tipMinorUnits: Int64?, detailItems: [QueryItem], unknownFields: [QueryItem]) {
            self.callbackURL = callbackURL
            self.status = status
            self.message = message
            self.action = action
            self.clientTransactionID = clientTransactionID
            self.amountMinorUnits = amountMinorUnits
            self.tipMinorUnits = tipMinorUnits
            self.detailItems = detailItems
            self.unknownFields = unknownFields
        }

        private static func minorUnits(_ text: String, field: String) throws(ChargeKitError) -> Int64 {
            guard !text.isEmpty, text.utf8.count <= 15, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), let value = Int64(text) else {
                throw .invalidField(field, rule: "must be a whole number of minor units")
            }
            return value
        }

        /// Whether the customer cancelled (`action=User_cancel`).
        public var isUserCancel: Bool { action?.lowercased() == "user_cancel" }

        /// The nonce at the start of `clientTransactionId`, when it carries one.
        public var nonce: Nonce? { Nonce.leading(clientTransactionID).nonce }

        /// Your reference, after the nonce in `clientTransactionId`.
        public var reference: String? { Nonce.leading(clientTransactionID).rest.flatMap { $0.isEmpty ? nil : $0 } }

        /// `transactionId`, Viva's id of the transaction (a UUID).
        public var transactionID: String? { detail(.transactionID) }

        /// `accountNumber`: the masked card number (`535686******1364`).
        public var maskedCardNumber: String? { detail(.accountNumber) }

        /// `transactionDate` read as a date: fractions of any length (Viva sends seven
        /// digits) and a `+hh:mm` or `-hh:mm` offset or `Z`; `nil` when absent or unreadable.
        public var transactionDate: Date? { detail(.transactionDate).flatMap(Viva.date(from:)) }

        private func detail(_ name: Name) -> String? { detailItems.first(named: name.name) }
    }

    /// Reads `2024-11-17T00:16:11.4043324+02:00` (fractions of any length, offset or `Z`).
    static func date(from text: String) -> Date? {
        let chars = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= chars.count, chars[range].allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
            return chars[range].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard chars.count >= 20, chars[4] == 0x2D, chars[7] == 0x2D, chars[10] == 0x54, chars[13] == 0x3A, chars[16] == 0x3A,
              let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
              let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return nil }
        var index = 19
        var fraction = 0.0, scale = 0.1
        if chars[index] == 0x2E {
            index += 1
            let start = index
            while index < chars.count, chars[index] >= 0x30, chars[index] <= 0x39 {
                fraction += Double(chars[index] - 0x30) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset = 0
        if index == chars.count - 1, chars[index] == 0x5A {
            offset = 0
        } else if index + 6 == chars.count, chars[index] == 0x2B || chars[index] == 0x2D, chars[index + 3] == 0x3A,
                  let hours = number(index + 1..<index + 3), let minutes = number(index + 4..<index + 6) {
            offset = (hours * 3600 + minutes * 60) * (chars[index] == 0x2B ? 1 : -1)
        } else {
            return nil
        }
        var calendar = Calendar(identifier: .gregorian)
        guard let utc = TimeZone(secondsFromGMT: 0) else { return nil }
        calendar.timeZone = utc
        let components = DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        guard (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61,
              let base = calendar.date(from: components) else { return nil }
        return base.addingTimeInterval(fraction - Double(offset))
    }
}
