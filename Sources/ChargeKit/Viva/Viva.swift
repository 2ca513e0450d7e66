import Foundation

/// Viva.com Terminal's app-to-app scheme `vivapayclient://pay/v1`.
///
/// - ``PaymentRequest`` builds a sale, a cancel (void or refund) or an abort, valid
///   when created.
/// - ``Callback`` reads the answer from the raw string the app was opened with: Viva
///   writes values unencoded, so spaces and `*` arrive raw and the `+` of a
///   `transactionDate` offset is a plus, never a space.
///
/// ChargeKit's nonce rides in `clientTransactionId`, which Viva stores with the
/// transaction and echoes (up to 2048 characters): the nonce, then `.` and your own
/// reference when the order has one.
///
/// When Viva's PIN screen shows, iOS resets the calling app: the answer commonly
/// cold-launches your app, and the pending charge is found in the ledger on disk.
public enum Viva {
    /// The base URL of a request.
    public static let baseURL = "vivapayclient://pay/v1"
    /// The scheme to list under `LSApplicationQueriesSchemes`.
    public static let scheme = "vivapayclient"
    /// What a reference may not hold: Viva echoes `clientTransactionId` unencoded, so `&`
    /// would split it, `#` start a fragment, `%` an escape, and `?`, `=`, `+` read as
    /// the query's own.
    public static let unechoableReferenceCharacters: Set<Character> = ["&", "#", "%", "?", "=", "+"]

    /// The longest `clientTransactionId` Viva keeps, ChargeKit's nonce included.
    public static let maximumClientTransactionIDLength = 2048
    /// The most digits an amount in minor units may have.
    public static let maximumAmountDigits = 10

    /// What a request asks the app to do (`action`).
    public enum Action: String, Hashable, Sendable, Codable, CaseIterable {
        /// Take a payment.
        case sale
        /// Void a payment of the same day, or refund it fully or partly: the customer
        /// presents the card, and the app matches it against that card's last three
        /// transactions (Viva's demo app answers this with an error).
        case cancel
        /// Stop a transaction that has started (often impossible once the card was read).
        case abort
    }

    /// A payment method the app may be asked to use (`paymentMethod`).
    public enum PaymentMethod: String, Hashable, Sendable, Codable, CaseIterable {
        /// `CardPresent`: a card tapped, inserted or swiped.
        case cardPresent = "CardPresent"
        /// `MOTO`: a card keyed in for a mail or telephone order.
        case moto = "MOTO"
        /// `QrDefault`: the app's default QR payment.
        case qrDefault = "QrDefault"
        /// `Payconiq`.
        case payconiq = "Payconiq"
        /// `AliPay`.
        case aliPay = "AliPay"
        /// `Paypal`.
        case paypal = "Paypal"
        /// `Klarna`.
        case klarna = "Klarna"
    }

    /// The screens the app shows around a sale; `nil` leaves the app's setting.
    public struct Screens: Hashable, Sendable, Codable {
        /// `show_receipt`.
        public var receipt: Bool?
        /// `show_transaction_result`.
        public var transactionResult: Bool?
        /// `show_rating`.
        public var rating: Bool?

        /// Makes the settings.
        public init(receipt: Bool? = nil, transactionResult: Bool? = nil, rating: Bool? = nil) {
            self.receipt = receipt
            self.transactionResult = transactionResult
            self.rating = rating
        }
    }

    /// Which payment a cancel undoes: any of Viva's references of it.
    public struct Original: Hashable, Sendable, Codable {
        /// `referenceNumber`, as the sale's answer gave it.
        public var referenceNumber: String?
        /// `orderCode`.
        public var orderCode: String?
        /// `shortOrderCode`.
        public var shortOrderCode: String?

        /// Makes the references.
        public init(referenceNumber: String? = nil, orderCode: String? = nil, shortOrderCode: String? = nil) {
            self.referenceNumber = referenceNumber
            self.orderCode = orderCode
            self.shortOrderCode = shortOrderCode
        }
    }

    /// A request to Viva.com Terminal, valid when created.
    public struct PaymentRequest: Hashable, Sendable, Codable {
        /// What is asked (`action`).
        public let action: Action
        /// Your app's id, such as its bundle id (`appId`).
        public let appID: String
        /// Where the answer goes (`callback`): a URL with a scheme and no query.
        public let callbackURL: String
        /// The amount: required for a sale, optional for a cancel (a partial refund), none for an abort.
        public let amount: Money?
        /// A tip within the amount (`tipAmount`), sales only.
        public let tipAmount: Money?
        /// Your reference, sent after the nonce in `clientTransactionId` and echoed.
        public let reference: String?
        /// The payment method to use (`paymentMethod`), sales only.
        public let paymentMethod: PaymentMethod?
        /// The receipt, result and rating screens.
        public let screens: Screens
        /// The payment a cancel undoes.
        public let original: Original

        /// Makes a request, checking every field.
        /// - Throws: ``ChargeKitError`` naming the field: `appId`, `callback`, `amount`,
        ///   `tipAmount`, `clientTransactionId` (the reference), `referenceNumber`…
        public init(
            action: Action, appID: String, callbackURL: String, amount: Money? = nil, tipAmount: Money? = nil,
            reference: String? = nil, paymentMethod: PaymentMethod? = nil, screens: Screens = .init(), original: Original = .init()
        ) throws(ChargeKitError) {
            guard !appID.isEmpty else { throw .missingField("appId") }
            try FieldRules.printableASCII(appID, field: "appId", limit: 255)
            try FieldRules.callbackURL(callbackURL, field: "callback")
            guard callbackURL.contains(":") else { throw .invalidURL("callback", rule: "must be a URL such as my-app://result") }
            guard !callbackURL.contains("?") else {
                throw .invalidURL("callback", rule: "must not carry a query: Viva does not document keeping one")
            }
            switch action {
            case .sale:
                guard let amount else { throw .missingField("amount") }
                try Self.check(amount, field: "amount")
            case .cancel:
                if let amount { try Self.check(amount, field: "amount") }
            case .abort:
                guard amount == nil else { throw .unexpectedField("amount", rule: "an abort names no amount") }
            }
            if let tipAmount {
                guard action == .sale, let amount else { throw .unexpectedField("tipAmount", rule: "only a sale takes a tip") }
                guard tipAmount.currency == amount.currency else { throw .invalidField("tipAmount", rule: "must be in the amount's currency") }
                guard tipAmount.minorUnits >= 0, tipAmount.minorUnits <= amount.minorUnits else {
                    throw .invalidField("tipAmount", rule: "must be between zero and the amount")
                }
            }
            if let reference {
                guard !reference.isEmpty else { throw .invalidField("clientTransactionId", rule: "the reference must not be empty") }
                try FieldRules.printableASCII(reference, field: "clientTransactionId",
                                              limit: Viva.maximumClientTransactionIDLength - Nonce.length - 1)
                // Viva echoes clientTransactionId unencoded: these bytes would come back
                // as another field, a fragment or a decoded escape, and the answer (its
                // approval too) could no longer be matched.
                if let byte = reference.first(where: { Viva.unechoableReferenceCharacters.contains($0) }) {
                    throw .invalidField("clientTransactionId", rule: "the reference may not hold '\(byte)': Viva.com Terminal echoes it "
                                        + "unencoded, so any of \(Viva.unechoableReferenceCharacters.map(String.init).joined(separator: " ")) would come back changed")
                }
            }
            if paymentMethod != nil, action != .sale { throw .unexpectedField("paymentMethod", rule: "only a sale takes a payment method") }
            for (value, field) in [(original.referenceNumber, "referenceNumber"), (original.orderCode, "orderCode"),
                                   (original.shortOrderCode, "shortOrderCode")] {
                guard let value else { continue }
                guard action == .cancel else { throw .unexpectedField(field, rule: "only a cancel names the payment it undoes") }
                try FieldRules.identifier(value, field: field, limit: 64)
            }
            self.action = action
            self.appID = appID
            self.callbackURL = callbackURL
            self.amount = amount
            self.tipAmount = tipAmount
            self.reference = reference
            self.paymentMethod = paymentMethod
            self.screens = screens
            self.original = original
        }

        /// A sale of `amount`.
        public static func sale(
            _ amount: Money, appID: String, callbackURL: String, tipAmount: Money? = nil, reference: String? = nil,
            paymentMethod: PaymentMethod? = nil, screens: Screens = .init()
        ) throws(ChargeKitError) -> PaymentRequest {
            try PaymentRequest(action: .sale, appID: appID, callbackURL: callbackURL, amount: amount, tipAmount: tipAmount,
                               reference: reference, paymentMethod: paymentMethod, screens: screens)
        }

        private static func check(_ amount: Money, field: String) throws(ChargeKitError) {
            guard amount.minorUnits > 0 else { throw .invalidField(field, rule: "must be greater than zero") }
            guard String(amount.minorUnits).count <= Viva.maximumAmountDigits else {
                throw .invalidField(field, rule: "must have at most \(Viva.maximumAmountDigits) digits in minor units")
            }
        }

        /// `clientTransactionId`: the nonce, then `.` and the reference when there is one.
        func clientTransactionID(nonce: Nonce?) -> String? {
            guard let nonce else { return reference }
            return nonce.value + (reference.map { "." + $0 } ?? "")
        }

        /// The request URL, carrying `nonce` (when given) in `clientTransactionId`.
        public func requestURL(nonce: Nonce? = nil) -> String {
            func flag(_ value: Bool?) -> String? { value.map { $0 ? "true" : "false" } }
            let fields: [(String, String?)] = [
                ("action", action.rawValue),
                ("appId", appID),
                ("callback", callbackURL),
                ("amount", amount.map { String($0.minorUnits) }),
                ("tipAmount", tipAmount.map { String($0.minorUnits) }),
                ("clientTransactionId", clientTransactionID(nonce: nonce)),
                ("paymentMethod", paymentMethod?.rawValue),
                ("show_receipt", flag(screens.receipt)),
                ("show_transaction_result", flag(screens.transactionResult)),
                ("show_rating", flag(screens.rating)),
                ("referenceNumber", original.referenceNumber),
                ("orderCode", original.orderCode),
                ("shortOrderCode", original.shortOrderCode),
            ]
            return Viva.baseURL + "?" + QueryURL.encode(fields.compactMap { name, value in value.map { QueryItem(name, $0) } })
        }
    }
}
