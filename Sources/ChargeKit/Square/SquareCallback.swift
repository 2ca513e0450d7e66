import Foundation

extension Square {
    /// Point of Sale's answer: the callback URL with one `data` parameter holding JSON
    /// (`status`, `transaction_id`, `client_transaction_id`, `state`, `error_code`).
    /// The Swift counterpart of `SCCAPIResponse`.
    ///
    /// Refused as invalid, as Square's SDK refuses them: no `data`, `data` that is not
    /// a JSON object, a missing or unknown `status`, and `error` without `error_code`.
    /// A callback is read with or without the `square_request` marker on its URL.
    public struct Callback: Hashable, Sendable, Codable {
        /// The `status` values.
        public enum Status: String, Hashable, Sendable, Codable, CaseIterable {
            /// The payment went through.
            case ok
            /// Point of Sale answered with an ``ErrorCode``.
            case error
        }

        /// The URL opened, without its query, with the `square_request` marker (added
        /// when the URL came without it): the `callback_url` the request sent.
        public var callbackURL: String
        /// Whether the URL opened carried the marker.
        public var hadMarker: Bool
        /// `status`.
        public var status: Status
        /// The Square transaction (`transaction_id`): what Square's server APIs take
        /// for refunds and look-ups.
        public var transactionID: String?
        /// The transaction on this device (`client_transaction_id`).
        public var clientTransactionID: String?
        /// `error_code`, on an error.
        public var errorCode: ErrorCode?
        /// `state` exactly as returned.
        public var rawState: String?
        /// ChargeKit's nonce at the start of `state`, if it is there.
        public var nonce: Nonce?
        /// Your own state: `state` without ChargeKit's nonce.
        public var state: String?
        /// Parameters beside `data` (Point of Sale sends none).
        public var extraItems: [QueryItem]

        /// The JSON members read; others are ignored, as Square's SDK ignores them.
        static let members = ["status", "transaction_id", "client_transaction_id", "state", "error_code"]

        /// Parses and validates a callback URL.
        public init(url: String, maximumLength: Int = QueryURL.defaultMaximumLength) throws(ChargeKitError) {
            try self.init(QueryURL(parsing: url, maximumLength: maximumLength))
        }

        /// Validates an already split URL.
        public init(_ url: QueryURL) throws(ChargeKitError) {
            let data = try Square.dataObject(in: url)
            func text(_ name: String) throws(ChargeKitError) -> String? {
                guard let value = data[name], !(value is NSNull) else { return nil }
                guard let text = value as? String else { throw .invalidField("data." + name, rule: "must be a string") }
                return text
            }
            guard let statusText = try text("status") else { throw .missingField("data.status") }
            guard let status = Status(rawValue: statusText) else { throw .invalidField("data.status", rule: "must be ok or error") }
            self.status = status
            if status == .error {
                guard let code = try text("error_code"), !code.isEmpty else { throw .missingField("data.error_code") }
                errorCode = ErrorCode(wireValue: code)
            }
            transactionID = try text("transaction_id")
            clientTransactionID = try text("client_transaction_id")
            rawState = try text("state")
            (nonce, state) = Square.splitState(rawState)
            hadMarker = Square.hasMarker(url.base)
            callbackURL = Square.addingMarker(to: url.base)
            extraItems = url.items.filter { $0.name != "data" }
        }
    }

    /// The JSON object in a URL's one `data` parameter.
    static func dataObject(in url: QueryURL) throws(ChargeKitError) -> [String: Any] {
        let values = url.items.filter { $0.name == "data" }
        guard values.count < 2 else { throw .duplicateField("data") }
        guard let text = values.first?.value, !text.isEmpty else { throw .missingField("data") }
        guard let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)), let data = object as? [String: Any] else {
            throw .invalidField("data", rule: "must be a JSON object")
        }
        return data
    }

    /// ChargeKit's nonce and the app's own state in a returned `state`: the nonce is
    /// its first 27 characters when they are followed by nothing or `.`.
    static func splitState(_ state: String?) -> (nonce: Nonce?, state: String?) {
        guard let state, state.utf8.count >= Nonce.length else { return (nil, state) }
        let head = String(state.utf8.prefix(Nonce.length)) ?? ""
        guard let nonce = try? Nonce(head, field: "state") else { return (nil, state) }
        let tail = state.utf8.dropFirst(Nonce.length)
        if tail.isEmpty { return (nonce, nil) }
        guard tail.first == UInt8(ascii: ".") else { return (nil, state) }
        return (nonce, String(tail.dropFirst()))
    }
}
