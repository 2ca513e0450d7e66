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
        public var rawState: String? {
            didSet { (nonce, state) = Nonce.leading(rawState) }
        }
        /// ChargeKit's nonce at the start of `state`, if it is there (split from
        /// ``rawState`` once, when it is set).
        public private(set) var nonce: Nonce?
        /// Your own state: `state` without ChargeKit's nonce.
        public private(set) var state: String?
        /// Parameters beside `data` (Point of Sale sends none).
        public var extraItems: [QueryItem]

        /// Parses and validates a callback URL: `data` found among the query's pairs
        /// by the reader every callback shares, then read as JSON.
        public init(url: String, maximumLength: Int = QueryURL.defaultMaximumLength) throws(ChargeKitError) {
            self = try FieldReader.read(url, maximumLength: maximumLength) { fields throws(ChargeKitError) in try Callback(fields: &fields) }
        }

        /// Reads an answer from its scanned fields.
        init(fields: inout FieldReader) throws(ChargeKitError) {
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
            // Its bytes, decoded once: the JSON reader checks that they are UTF-8.
            var bytes = fields.valueBytes(data)
            let checked = try Callback.check(data: &bytes)
            self.init(base: fields.base, data: bytes, checked: checked, extraItems: extras)
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

        /// What one ``Member`` of `data` held.
        struct Found {
            /// The value (the last, when the name came more than once).
            var value: SquareJSON.Value?
            /// Whether the name came more than once.
            var repeated = false
        }

        /// Where the members a callback keeps lie in `data`'s decoded bytes, each
        /// checked (plain values: the callback's strings are made once it is known
        /// to be valid).
        struct Checked {
            var status: Status
            var errorCode: Range<Int>?, transactionID: Range<Int>?, clientTransactionID: Range<Int>?, state: Range<Int>?
        }

        /// Checks `data`'s decoded bytes (its JSON's strings are decoded in place).
        static func check(data: inout [UInt8]) throws(ChargeKitError) -> Checked {
            guard !data.isEmpty else { throw .missingField("data") }
            // What each member held, by its slot.
            var found = [Found](repeating: Found(), count: Member.texts.count)
            let read = SquareJSON.values(of: &data, named: Member.texts) { slot, value in
                found[slot].repeated = found[slot].value != nil
                found[slot].value = value
            }
            guard read else { throw .invalidField("data", rule: "must be a JSON object") }
            return try check(found, in: data)
        }

        /// ``check(data:)`` on what `data`'s members held.
        private static func check(_ found: [Found], in data: [UInt8]) throws(ChargeKitError) -> Checked {
            func place(_ member: Member) throws(ChargeKitError) -> Range<Int>? {
                let found = found[member.slot]
                guard !found.repeated else { throw .duplicateField("data.\(member.text)") }
                switch found.value {
                case nil: return nil
                case .string(let place)?: return place
                case .other?: throw .invalidField("data.\(member.text)", rule: "must be a string")
                }
            }
            guard let statusPlace = try place(.status) else { throw .missingField("data.status") }
            let statusText = data[statusPlace]
            guard let status = statusText.elementsEqual("ok".utf8) ? Status.ok : statusText.elementsEqual("error".utf8) ? .error : nil else {
                throw .invalidField("data.status", rule: "must be ok or error")
            }
            let errorCode = try status == .error ? place(.errorCode) : nil   // (looked at only on an error)
            if status == .error, errorCode?.isEmpty ?? true { throw .missingField("data.error_code") }
            return Checked(status: status, errorCode: errorCode, transactionID: try place(.transactionID),
                           clientTransactionID: try place(.clientTransactionID), state: try place(.state))
        }

        /// The callback `check(data:)` found in `data`.
        init(base: String, data: [UInt8], checked: Checked, extraItems: [QueryItem]) {
            openedURL = base
            status = checked.status
            errorCode = Self.string(at: checked.errorCode, in: data).map(ErrorCode.init(rawValue:))
            transactionID = Self.string(at: checked.transactionID, in: data)
            clientTransactionID = Self.string(at: checked.clientTransactionID, in: data)
            rawState = Self.string(at: checked.state, in: data)
            (nonce, state) = checked.state.map { Nonce.leading(data[$0]) } ?? (nil, nil)
            self.extraItems = extraItems
        }

        /// The members a callback is stored by: `nonce` and `state` are split from
        /// `rawState` when it is read back.
        private enum CodingKeys: String, CodingKey {
            case openedURL, status, transactionID, clientTransactionID, errorCode, rawState, extraItems
        }

        /// Reads a stored callback.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            openedURL = try container.decode(String.self, forKey: .openedURL)
            status = try container.decode(Status.self, forKey: .status)
            transactionID = try container.decodeIfPresent(String.self, forKey: .transactionID)
            clientTransactionID = try container.decodeIfPresent(String.self, forKey: .clientTransactionID)
            errorCode = try container.decodeIfPresent(ErrorCode.self, forKey: .errorCode)
            rawState = try container.decodeIfPresent(String.self, forKey: .rawState)
            (nonce, state) = Nonce.leading(rawState)
            extraItems = try container.decode([QueryItem].self, forKey: .extraItems)
        }

        /// The text at `place` in `data`.
        fileprivate static func string(at place: Range<Int>?, in data: [UInt8]) -> String? {
            place.map { String(decoding: data[$0], as: UTF8.self) }
        }
    }

    /// The text `data`'s JSON object holds under `member`; `nil` when `data` is not a
    /// JSON object or `member` is absent or not a string.
    static func string(_ member: Callback.Member, ofData data: String?) -> String? {
        var bytes = Array((data ?? "").utf8)
        var place: Range<Int>?
        let read = SquareJSON.values(of: &bytes, named: [member.text]) { _, value in
            guard case .string(let found) = value else { return place = nil }
            place = found
        }
        return read ? Callback.string(at: place, in: bytes) : nil
    }
}
