/// Square Point of Sale's app-to-app API: `square-commerce-v1://payment/create` with
/// one `data` parameter holding JSON, answered on the app's callback URL with a `data`
/// JSON of its own.
///
/// - ``PaymentRequest`` builds and validates the request (`SCCAPIRequest`).
/// - ``Callback`` parses the answer (`SCCAPIResponse`).
/// - ``ErrorCode`` names every documented error (`SCCAPIErrorCode`).
public enum Square {
    /// The scheme to list under `LSApplicationQueriesSchemes`.
    public static let scheme = "square-commerce-v1"
    /// The base URL of a payment request.
    public static let baseURL = "square-commerce-v1://payment/create"
    /// The API version every request sends (`version`); Point of Sale 4.59 or later reads it.
    public static let apiVersion = "1.3"
    /// The Point of Sale SDK version whose wire this is (`sdk_version`).
    public static let sdkVersion = "3.5.4"
    /// The API versions Point of Sale knows: 1.0 (4.34+), 1.1 (4.50+), 1.2 (4.53+), 1.3 (4.59+).
    public static let knownAPIVersions = ["1.0", "1.1", "1.2", "1.3"]
    /// The marker Square's SDK adds to the callback URL, by which a response is recognised.
    public static let callbackMarker = "square_request"

    /// The ways of paying Point of Sale may offer (`options.supported_tender_types`).
    public enum TenderType: String, Hashable, Sendable, Codable, CaseIterable {
        /// A card, swiped, dipped, tapped or keyed in.
        case creditCard = "CREDIT_CARD"
        /// Cash.
        case cash = "CASH"
        /// Any other tender the seller records (a cheque, a third-party gift card).
        case other = "OTHER"
        /// A Square gift card.
        case squareGiftCard = "SQUARE_GIFT_CARD"
        /// A card the customer has on file with the seller.
        case cardOnFile = "CARD_ON_FILE"
        /// PayPay (Japan).
        case payPay = "PAYPAY"

        /// What Square's SDK sends for "all": every type but PayPay.
        public static let standard: [TenderType] = [.creditCard, .cash, .other, .squareGiftCard, .cardOnFile]
    }

    /// The error codes Point of Sale answers with (`error_code`). Any other code is kept
    /// as sent (``other(_:)``) and reported as a failure.
    public enum ErrorCode: OpenWireValue {
        /// The seller or customer cancelled the payment.
        case paymentCanceled
        /// The request's data could not be read.
        case dataInvalid
        /// No seller is logged in to Point of Sale.
        case notLoggedIn
        /// The request's `location_id` is not the logged-in seller's location.
        case locationIDMismatch
        /// The older name of ``locationIDMismatch``.
        case userIDMismatch
        /// The seller has not authorised this application (`client_id`).
        case clientNotAuthorizedForUser
        /// The seller's account is not active.
        case userNotActive
        /// `amount_money.currency_code` is missing.
        case currencyCodeMissing
        /// The currency is not one Point of Sale supports.
        case unsupportedCurrencyCode
        /// The currency is not the seller's.
        case currencyCodeMismatch
        /// The amount is not an integer of minor units.
        case amountInvalidFormat
        /// The amount is below the card minimum.
        case amountTooSmall
        /// The amount is above the maximum.
        case amountTooLarge
        /// A tender type is not one of the documented names.
        case invalidTenderType
        /// A tender type is not available to this seller.
        case unsupportedTenderType
        /// An earlier API transaction was started and not finished.
        case couldNotPerform
        /// Point of Sale has no network connection.
        case noNetworkConnection
        /// The request's API version is not one this Point of Sale knows.
        case unsupportedAPIVersion
        /// The request's version is not a version number.
        case invalidVersionNumber
        /// Customer management is not available to this seller.
        case customerManagementNotSupported
        /// The `customer_id` does not name a customer of this seller.
        case invalidCustomerID
        /// A code not documented; kept as sent.
        case other(String)

        /// The documented codes, each with a message for people.
        static let table: [(code: ErrorCode, message: String)] = [
            (.paymentCanceled, "The payment was cancelled in Point of Sale."),
            (.dataInvalid, "Point of Sale could not read the request."),
            (.notLoggedIn, "No seller is logged in to Point of Sale."),
            (.locationIDMismatch, "The location does not match the logged-in seller's."),
            (.userIDMismatch, "The seller logged in is not the one the request names (the older code of location_id_mismatch, sent by earlier Point of Sale versions)."),
            (.clientNotAuthorizedForUser, "The seller has not authorised this application."),
            (.userNotActive, "The seller's Square account is not active."),
            (.currencyCodeMissing, "The request names no currency."),
            (.unsupportedCurrencyCode, "Point of Sale does not support this currency."),
            (.currencyCodeMismatch, "The currency is not the seller's currency."),
            (.amountInvalidFormat, "The amount is not a whole number of minor units."),
            (.amountTooSmall, "The amount is below the minimum Point of Sale accepts."),
            (.amountTooLarge, "The amount is above the maximum Point of Sale accepts."),
            (.invalidTenderType, "A tender type is not one Point of Sale knows."),
            (.unsupportedTenderType, "A tender type is not available to this seller."),
            (.couldNotPerform,
             "An earlier transaction was started and not finished: open Point of Sale and finish it first."),
            (.noNetworkConnection, "Point of Sale has no network connection."),
            (.unsupportedAPIVersion, "This Point of Sale does not know the request's API version; update it."),
            (.invalidVersionNumber, "The request's version is not a version number."),
            (.customerManagementNotSupported, "Customer management is not available to this seller."),
            (.invalidCustomerID, "The customer ID does not name a customer of this seller."),
        ]

        /// Every documented code.
        public static let documented: [ErrorCode] = table.map(\.code)

        /// The wire value, such as `payment_canceled`.
        public var rawValue: String {
            switch self {
            case .paymentCanceled: "payment_canceled"
            case .dataInvalid: "data_invalid"
            case .notLoggedIn: "not_logged_in"
            case .locationIDMismatch: "location_id_mismatch"
            case .userIDMismatch: "user_id_mismatch"
            case .clientNotAuthorizedForUser: "client_not_authorized_for_user"
            case .userNotActive: "user_not_active"
            case .currencyCodeMissing: "currency_code_missing"
            case .unsupportedCurrencyCode: "unsupported_currency_code"
            case .currencyCodeMismatch: "currency_code_mismatch"
            case .amountInvalidFormat: "amount_invalid_format"
            case .amountTooSmall: "amount_too_small"
            case .amountTooLarge: "amount_too_large"
            case .invalidTenderType: "invalid_tender_type"
            case .unsupportedTenderType: "unsupported_tender_type"
            case .couldNotPerform: "could_not_perform"
            case .noNetworkConnection: "no_network_connection"
            case .unsupportedAPIVersion: "unsupported_api_version"
            case .invalidVersionNumber: "invalid_version_number"
            case .customerManagementNotSupported: "customer_management_not_supported"
            case .invalidCustomerID: "invalid_customer_id"
            case .other(let value): value
            }
        }

        /// What the code means, for people; a code not documented says so.
        public var message: String {
            if case .other(let value) = self { return "Point of Sale answered with an error ChargeKit does not know: \(value)." }
            return Self.table.first { $0.code == self }?.message ?? ""
        }
    }
}
