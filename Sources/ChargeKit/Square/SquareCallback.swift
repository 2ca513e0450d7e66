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

        /// The URL opened, without its query, as it came.
        public var openedURL: String
        /// The URL opened, without its query, with the `square_request` marker (added
        /// when the URL came without it): the `callback_url` the request sent.
        public var callbackURL: String { Square.marked(openedURL).url }
        /// Whether the URL opened carried the marker.
        public var hadMarker: Bool { Square.marked(openedURL).hadMarker }
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
        public var nonce: Nonce? { Square.splitState(rawState).nonce }
        /// Your own state: `state` without ChargeKit's nonce.
        public var state: String? { Square.splitState(rawState).state }
        /// Parameters beside `data` (Point of Sale sends none).
        public var extraItems: [QueryItem]

        /// Parses and validates a callback URL.
        public init(url: String, maximumLength: Int = QueryURL.defaultMaximumLength) throws(ChargeKitError) {
            // The URL's one scan; `data` is read as JSON on its decoded bytes.
            self = try FieldReader.read(url, maximumLength: maximumLength) { fields throws(ChargeKitError) -> Callback in
                var data: Int?
                var extras: [QueryItem] = []
                for index in fields.indices {
                    guard fields.name(index, is: "data") else {
                        extras.append(fields.item(index))
                        continue
                    }
                    guard data == nil else { throw .duplicateField("data") }
                    data = index
                }
                guard let data else { throw .missingField("data") }
                let members = try fields.withValue(data) { bytes throws(ChargeKitError) in try Square.members(ofData: bytes) }
                return try Callback(base: fields.base, members: members, extraItems: extras)
            }
        }

        /// Validates an already split URL.
        public init(_ url: QueryURL) throws(ChargeKitError) {
            try self.init(url: url.string, maximumLength: .max)
        }

        private init(base: String, members: [(name: String, value: SquareJSON.Value)], extraItems: [QueryItem]) throws(ChargeKitError) {
            func text(_ name: String) throws(ChargeKitError) -> String? {
                var found: String?
                var seen = false
                for member in members where member.name == name {
                    guard !seen else { throw .duplicateField("data." + name) }
                    seen = true
                    if case .string(let value) = member.value { found = value } else { throw .invalidField("data." + name, rule: "must be a string") }
                }
                return found
            }
            guard let statusText = try text("status") else { throw .missingField("data.status") }
            guard let status = Status(rawValue: statusText) else { throw .invalidField("data.status", rule: "must be ok or error") }
            self.status = status
            if status == .error {
                guard let code = try text("error_code"), !code.isEmpty else { throw .missingField("data.error_code") }
                errorCode = ErrorCode(rawValue: code)
            }
            transactionID = try text("transaction_id")
            clientTransactionID = try text("client_transaction_id")
            rawState = try text("state")
            openedURL = base
            self.extraItems = extraItems
        }
    }

    /// The members of a callback's `data` JSON object.
    static func members(ofData data: String?) throws(ChargeKitError) -> [(name: String, value: SquareJSON.Value)] {
        guard var data else { throw .missingField("data") }
        let read = data.withUTF8 { bytes in Result { () throws(ChargeKitError) in try members(ofData: bytes) } }
        return try read.get()
    }

    /// The members of a callback's `data` JSON object, from its decoded bytes.
    static func members(ofData bytes: UnsafeBufferPointer<UInt8>) throws(ChargeKitError) -> [(name: String, value: SquareJSON.Value)] {
        guard !bytes.isEmpty else { throw .missingField("data") }
        guard let members = SquareJSON.members(of: bytes) else { throw .invalidField("data", rule: "must be a JSON object") }
        return members
    }

    /// ChargeKit's nonce and the app's own state in a returned `state`: the nonce is
    /// its first 27 characters when they are followed by nothing or `.`.
    static func splitState(_ state: String?) -> (nonce: Nonce?, state: String?) {
        guard let state else { return (nil, nil) }
        let bytes = Array(state.utf8)
        guard bytes.count >= Nonce.length, bytes.count == Nonce.length || bytes[Nonce.length] == UInt8(ascii: "."),
              bytes[..<Nonce.length].allSatisfy(Nonce.isTokenByte),
              let nonce = try? Nonce(String(decoding: bytes[..<Nonce.length], as: UTF8.self), field: "state")
        else { return (nil, state) }
        guard bytes.count > Nonce.length else { return (nonce, nil) }
        return (nonce, String(decoding: bytes[(Nonce.length + 1)...], as: UTF8.self))
    }
}
