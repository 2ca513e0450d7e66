import Foundation

extension Square {
    /// What Point of Sale may do besides taking the amount (`options`).
    public struct Options: Hashable, Sendable, Codable {
        /// The ways of paying offered (`supported_tender_types`), in this order; every
        /// standard one by default.
        public var supportedTenderTypes = TenderType.standard
        /// Return to your app as soon as the payment is done (`auto_return`).
        public var returnsAutomatically = false
        /// Skip the receipt screen (`skip_receipt`).
        public var skipsReceipt = false
        /// Do not offer a keyed-in card ("card not present", `disable_cnp`).
        public var disablesKeyedInCardEntry = false
        /// Do not apply the seller's default fees and taxes (`clear_default_fees`).
        public var clearsDefaultFees = false

        /// The defaults: every standard tender type and none of the flags; set what you need.
        public init() {}
    }

    /// A Point of Sale payment request: the Swift counterpart of `SCCAPIRequest`.
    ///
    /// Like Square's SDK it is checked when made: a missing client ID, a negative
    /// amount or a callback URL without a scheme are refused by the initializer, so a
    /// value of this type always makes a request URL.
    public struct PaymentRequest: Hashable, Sendable, Codable {
        /// Your Square application ID (`client_id`).
        public let clientID: String
        /// The amount, sent in the currency's minor units (`amount_money`); JPY has none.
        public let amount: Money
        /// Your app's URL that Point of Sale opens with the answer, before Square's
        /// `square_request` marker is added (`callback_url`).
        public let callbackURL: String
        /// An opaque string Point of Sale returns unchanged (`state`, Square's `userInfoString`).
        public let state: String?
        /// The location to take the payment at (`location_id`).
        public let locationID: String?
        /// A note shown with the transaction (`notes`).
        public let notes: String?
        /// The customer to link the payment to (`customer_id`).
        public let customerID: String?
        /// What Point of Sale may do (`options`).
        public let options: Options

        /// The longest `notes` accepted.
        public static let maximumNotesLength = 500
        /// The longest `state` accepted, ChargeKit's nonce included.
        public static let maximumStateLength = 1024
        /// The longest client, location or customer ID accepted.
        public static let maximumIDLength = 192

        /// Makes and checks a request.
        /// - Throws: ``ChargeKitError/missingField(_:)`` (`client_id`) without a client
        ///   ID, ``ChargeKitError/invalidField(_:rule:)`` naming `amount_money.amount`
        ///   for a negative amount, ``ChargeKitError/invalidURL(_:rule:)`` naming
        ///   `callback_url` for a URL without a scheme (or with a query or fragment, which
        ///   Point of Sale's answer would not keep), and length or character errors
        ///   naming the field.
        public init(
            clientID: String, amount: Money, callbackURL: String, state: String? = nil, locationID: String? = nil,
            notes: String? = nil, customerID: String? = nil, options: Options = .init()
        ) throws(ChargeKitError) {
            guard !clientID.isEmpty else { throw .missingField("client_id") }
            try FieldRules.printableASCII(clientID, field: "client_id", limit: Self.maximumIDLength)
            guard amount.minorUnits >= 0 else { throw .invalidField("amount_money.amount", rule: "must not be negative") }
            try Square.validateCallbackURL(callbackURL)
            if let state { try FieldRules.text(state, field: "state", limit: Self.maximumStateLength - Nonce.length - 1) }
            if let locationID { try FieldRules.printableASCII(locationID, field: "location_id", limit: Self.maximumIDLength) }
            if let customerID { try FieldRules.printableASCII(customerID, field: "customer_id", limit: Self.maximumIDLength) }
            if let notes { try FieldRules.text(notes, field: "notes", limit: Self.maximumNotesLength) }
            guard !options.supportedTenderTypes.isEmpty else {
                throw .invalidField("options.supported_tender_types", rule: "must name at least one tender type")
            }
            guard Set(options.supportedTenderTypes).count == options.supportedTenderTypes.count else {
                throw .duplicateField("options.supported_tender_types")
            }
            self.clientID = clientID
            self.amount = amount
            self.callbackURL = callbackURL
            self.state = state
            self.locationID = locationID
            self.notes = notes
            self.customerID = customerID
            self.options = options
        }

        /// The `state` sent: ChargeKit's nonce, then `.` and your own state when there is one.
        func wireState(nonce: Nonce?) -> String? {
            guard let nonce else { return state }
            return nonce.value + (state.map { "." + $0 } ?? "")
        }

        /// The request URL, carrying `nonce` (when given) at the start of `state`.
        public func requestURL(nonce: Nonce? = nil) -> String {
            var data: [String: Any] = [
                "sdk_version": Square.sdkVersion, "version": Square.apiVersion, "client_id": clientID,
                "amount_money": ["amount": NSNumber(value: amount.minorUnits), "currency_code": amount.currency.code],
                "callback_url": Square.addingMarker(to: callbackURL),
                "options": [
                    "supported_tender_types": options.supportedTenderTypes.map(\.rawValue),
                    "clear_default_fees": options.clearsDefaultFees, "auto_return": options.returnsAutomatically,
                    "disable_cnp": options.disablesKeyedInCardEntry, "skip_receipt": options.skipsReceipt,
                ] as [String: Any],
            ]
            data["state"] = wireState(nonce: nonce)
            data["location_id"] = locationID
            data["notes"] = notes
            data["customer_id"] = customerID
            return Square.baseURL + "?data=" + PercentEncoding.encode(Square.json(data))
        }
    }

    /// JSON text of a dictionary of JSON values, keys sorted.
    static func json(_ object: [String: Any]) -> String {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) else { return "{}" }
        return String(decoding: data, as: UTF8.self)
    }

    /// A callback URL Square can mark: a scheme, then nothing (`my-app:`) or an authority
    /// (`my-app://callback`, `my-app://callback/done`); no query or fragment.
    static func validateCallbackURL(_ url: String) throws(ChargeKitError) {
        try FieldRules.callbackURL(url, field: "callback_url")
        guard !url.contains("?") else {
            throw .invalidURL("callback_url", rule: "must not have a query: Point of Sale answers with data alone")
        }
        let rest = url.drop { $0 != ":" }.dropFirst()
        guard rest.isEmpty || (rest.hasPrefix("//") && !rest.dropFirst(2).hasPrefix("/") && rest.count > 2) else {
            throw .invalidURL("callback_url", rule: "must be scheme: or scheme://host[/path]")
        }
    }

    /// `url` with the `square_request` marker Square's SDK adds: as the last path
    /// component when the URL has a host (`my-app://callback/square_request`),
    /// otherwise as the host (`my-app://square_request`). A URL that has it already is
    /// returned as it is.
    static func addingMarker(to url: String) -> String { marked(url).url }

    /// Whether a URL (without its query) carries the marker, as its host or a path component.
    static func hasMarker(_ url: String) -> Bool { marked(url).hadMarker }

    /// `url` with the marker, and whether it had it already: read on the URL's bytes
    /// (a callback is read with it on every verification).
    static func marked(_ url: String) -> (url: String, hadMarker: Bool) {
        let bytes = Array(url.utf8)
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return (url, false) }
        let scheme = String(decoding: bytes[..<colon], as: UTF8.self)
        let hasAuthority = bytes.count >= colon + 3 && bytes[colon + 1] == UInt8(ascii: "/") && bytes[colon + 2] == UInt8(ascii: "/")
        guard hasAuthority else { return (scheme + "://" + callbackMarker, false) }
        let marker = Array(callbackMarker.utf8)
        // The authority and each path component, between slashes.
        var start = colon + 3
        while start <= bytes.count {
            let end = bytes[start...].firstIndex(of: UInt8(ascii: "/")) ?? bytes.count
            if bytes[start..<end].elementsEqual(marker) { return (url, true) }
            start = end + 1
        }
        guard bytes.count > colon + 3 else { return (scheme + "://" + callbackMarker, false) }
        return (url + (bytes.last == UInt8(ascii: "/") ? "" : "/") + callbackMarker, false)
    }
}
