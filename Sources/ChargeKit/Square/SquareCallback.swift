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
            if let answer = Self.readAnswer(url, maximumLength: maximumLength) {
                try self.init(base: answer.base, found: answer.found, extraItems: [])
            } else {
                try self.init(scanning: url, maximumLength: maximumLength)
            }
        }

        /// Point of Sale's answer as it sends it, `<callback URL>?data=<JSON, escaped>`
        /// and nothing else, read in one pass (``URLBytes/singlePair(_:named:)``), its
        /// JSON decoded once into a buffer on the stack; `nil` for any other URL, or
        /// one with anything to refuse, which ``init(scanning:maximumLength:)`` reads
        /// and names what is wrong in. (The scan's every check, and its cutting of
        /// the query into pairs, cost as much as the JSON; this reading gives the same
        /// callback, which `SquareTests` and `FuzzSquare` hold it to.)
        static func readAnswer(_ url: String, maximumLength: Int) -> (base: String, found: [SquareJSON.Found])? {
            guard url.utf8.count <= Swift.min(maximumLength, TextPlace.maximumSourceLength) else { return nil }
            var url = url
            return url.withUTF8 { bytes in
                guard let parts = URLBytes.singlePair(bytes, named: "data"), !parts.value.isEmpty else { return nil }
                let escaped = UnsafeBufferPointer(rebasing: bytes[parts.value])
                let found = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: escaped.count) { out -> [SquareJSON.Found]? in
                    guard let (count, ascii) = PercentEncoding.unescape(escaped, into: out.baseAddress), ascii else { return nil }
                    return SquareJSON.values(of: UnsafeBufferPointer(rebasing: out[0..<count]), named: Member.texts)
                }
                return found.map { (String(decoding: UnsafeBufferPointer(rebasing: bytes[parts.base]), as: UTF8.self), $0) }
            }
        }

        /// Reads any callback URL with the scanner every callback shares: `data` found
        /// among the query's pairs, read as JSON on its decoded bytes.
        init(scanning url: String, maximumLength: Int) throws(ChargeKitError) {
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
                let found = try fields.withValue(data) { bytes throws(ChargeKitError) in try Square.members(ofData: bytes) }
                return try Callback(base: fields.base, found: found, extraItems: extras)
            }
        }

        /// Validates an already split URL.
        public init(_ url: QueryURL) throws(ChargeKitError) {
            try self.init(url: url.string, maximumLength: .max)
        }

        /// The members of `data` a callback is read from.
        enum Member: Int, FieldName {
            case status, errorCode, transactionID, clientTransactionID, state
            static let texts: [StaticString] = ["status", "error_code", "transaction_id", "client_transaction_id", "state"]
        }

        private init(base: String, found: [SquareJSON.Found], extraItems: [QueryItem]) throws(ChargeKitError) {
            func text(_ member: Member) throws(ChargeKitError) -> String? {
                let found = found[member.slot]
                guard !found.repeated else { throw .duplicateField("data.\(member.text)") }
                switch found.value {
                case nil: return nil
                case .string(let value)?: return value
                case .other?: throw .invalidField("data.\(member.text)", rule: "must be a string")
                }
            }
            guard let statusText = try text(.status) else { throw .missingField("data.status") }
            guard let status = Status(rawValue: statusText) else { throw .invalidField("data.status", rule: "must be ok or error") }
            self.status = status
            if status == .error {
                guard let code = try text(.errorCode), !code.isEmpty else { throw .missingField("data.error_code") }
                errorCode = ErrorCode(rawValue: code)
            }
            transactionID = try text(.transactionID)
            clientTransactionID = try text(.clientTransactionID)
            rawState = try text(.state)
            openedURL = base
            self.extraItems = extraItems
        }
    }

    /// What a callback's `data` JSON object holds under ``Callback/Member``'s names.
    static func members(ofData data: String?) throws(ChargeKitError) -> [SquareJSON.Found] {
        guard var data else { throw .missingField("data") }
        let read = data.withUTF8 { bytes in Result { () throws(ChargeKitError) in try members(ofData: bytes) } }
        return try read.get()
    }

    /// What a callback's `data` JSON object holds under ``Callback/Member``'s names,
    /// from its decoded bytes.
    static func members(ofData bytes: UnsafeBufferPointer<UInt8>) throws(ChargeKitError) -> [SquareJSON.Found] {
        guard !bytes.isEmpty else { throw .missingField("data") }
        guard let found = SquareJSON.values(of: bytes, named: Callback.Member.texts) else {
            throw .invalidField("data", rule: "must be a JSON object")
        }
        return found
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
