/// One `name=value` pair of a URL query, both percent-decoded.
public struct QueryItem: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The decoded name.
    public var name: String
    /// The decoded value (empty for a bare `name` or `name=`).
    public var value: String

    /// Makes a query item.
    public init(_ name: String, _ value: String) {
        self.name = name
        self.value = value
    }

    /// `name=value` with both parts percent-encoded.
    public var encoded: String { PercentEncoding.encode(name) + "=" + PercentEncoding.encode(value) }

    public var description: String { "\(name)=\(value)" }

    /// The name without FileMaker's `$` prefix, and whether it had one.
    ///
    /// Credit Card Terminal answers a request made with `fm=1` with every response
    /// name prefixed by `$` (`$ifcc_responseType=approved`) for FileMaker Go scripts.
    public var fileMakerName: (name: String, hadPrefix: Bool) {
        name.utf8.first == UInt8(ascii: "$") ? (String(decoding: name.utf8.dropFirst(), as: UTF8.self), true) : (name, false)
    }
}

/// Percent-encoding as every ChargeKit protocol needs it: UTF-8 first, then every
/// byte outside RFC 3986's unreserved set (`A-Z a-z 0-9 - . _ ~`) becomes `%XX`
/// with upper-case hex. So the whole reserved set `:/?#[]@!$&'()*+,;=` is encoded,
/// and a space is `%20`, never `+`.
package enum PercentEncoding {
    private static let hex = Array("0123456789ABCDEF".utf8)

    /// Encodes `text` for use as a query name or value.
    package static func encode(_ text: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if isUnreserved(byte) {
                out.append(byte)
            } else {
                out.append(0x25)
                out.append(hex[Int(byte >> 4)])
                out.append(hex[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes `%XX` escapes strictly.
    ///
    /// `+` is kept as a literal plus (RFC 3986; ChargeKit encodes a space as `%20`).
    /// - Throws: ``ChargeKitError/malformedPercentEncoding(field:rule:)`` naming `field`
    ///   when an escape is not `%` and two hex digits, or when the bytes are not UTF-8.
    package static func decode<Bytes: Collection<UInt8>>(_ bytes: Bytes, field: String) throws(ChargeKitError) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var iterator = bytes.makeIterator()
        while let byte = iterator.next() {
            guard byte == 0x25 else {
                out.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw .malformedPercentEncoding(field: field, rule: "'%' must be followed by two hex digits")
            }
            out.append(high << 4 | low)
        }
        guard let text = String(validating: out, as: UTF8.self) else {
            throw .malformedPercentEncoding(field: field, rule: "decoded bytes are not valid UTF-8")
        }
        return text
    }

    /// Decodes a string's `%XX` escapes strictly; see ``decode(_:field:)-(Bytes,_)``.
    package static func decode(_ text: String, field: String) throws(ChargeKitError) -> String {
        try decode(text.utf8, field: field)
    }

    @inline(__always)
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2D, 0x2E, 0x5F, 0x7E: return true
        default: return false
        }
    }

    @inline(__always)
    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x41...0x46: return byte - 0x41 + 10
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }
}

/// A URL split into the part before its query, its decoded query items in order,
/// and its fragment. Parsing is strict and bounded; it does not use `URLComponents`.
public struct QueryURL: Hashable, Sendable {
    /// Everything before `?`, such as `com-your-app://action/`.
    public var base: String
    /// The query items in the order they appear.
    public var items: [QueryItem]
    /// The raw fragment after `#`, if any.
    public var fragment: String?

    /// The default bound on a URL's length in bytes (32 KiB).
    public static let defaultMaximumLength = 32 * 1024

    /// Makes a URL from its parts.
    public init(base: String, items: [QueryItem], fragment: String? = nil) {
        self.base = base
        self.items = items
        self.fragment = fragment
    }

    /// Splits and decodes `url`.
    ///
    /// Empty segments (`a=1&&b=2`, a trailing `&`) carry nothing and are skipped; a
    /// segment without `=` is a name with an empty value. Names and values are decoded
    /// with `PercentEncoding.decode(_:field:)`.
    /// - Throws: ``ChargeKitError/urlTooLong(limit:)`` over `maximumLength` bytes,
    ///   ``ChargeKitError/invalidURL(_:rule:)`` without a `scheme:` or with spaces or
    ///   control characters, and decoding errors naming the item.
    public init(parsing url: String, maximumLength: Int = QueryURL.defaultMaximumLength) throws(ChargeKitError) {
        guard url.utf8.count <= maximumLength else { throw .urlTooLong(limit: maximumLength) }
        var url = url
        // One pass over the contiguous UTF-8 bytes; substrings are made only for the
        // parts kept, and a part without `%` is copied without decoding.
        let parsed = url.withUTF8 { bytes in Result { () throws(ChargeKitError) in try QueryURL.split(bytes) } }
        (base, items, fragment) = try parsed.get()
    }

    private static func split(_ bytes: UnsafeBufferPointer<UInt8>) throws(ChargeKitError) -> (String, [QueryItem], String?) {
        var colon = -1, question = -1, hash = -1
        for index in 0..<bytes.count {
            let byte = bytes[index]
            guard byte > 0x20 && byte != 0x7F else { throw .invalidURL("url", rule: "contains a space or control character") }
            if byte == 0x3A && colon < 0 { colon = index }
            if byte == 0x23 && hash < 0 { hash = index }
            if byte == 0x3F && question < 0 && hash < 0 { question = index }
        }
        guard colon > 0, isScheme(UnsafeBufferPointer(rebasing: bytes[0..<colon])) else {
            throw .invalidURL("url", rule: "must start with a scheme such as 'my-app:'")
        }
        let end = hash < 0 ? bytes.count : hash
        let fragment = hash < 0 ? nil : String(decoding: UnsafeBufferPointer(rebasing: bytes[(hash + 1)...]), as: UTF8.self)
        guard question >= 0 else {
            return (String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<end]), as: UTF8.self), [], fragment)
        }
        let base = String(decoding: UnsafeBufferPointer(rebasing: bytes[0..<question]), as: UTF8.self)
        var items: [QueryItem] = []
        items.reserveCapacity(12)
        // One pass: remember where the current segment's `=` is and whether it holds `%`.
        var start = question + 1
        var equals = -1
        var escaped = false
        var index = start
        while index <= end {
            let byte = index < end ? bytes[index] : 0x26
            if byte == 0x26 {
                if index > start {
                    let nameEnd = equals < 0 ? index : equals
                    let name = try component(bytes, start, nameEnd, escaped: escaped, field: "query parameter name")
                    let value = equals < 0 ? "" : try component(bytes, equals + 1, index, escaped: escaped, field: name)
                    items.append(QueryItem(name, value))
                }
                start = index + 1
                equals = -1
                escaped = false
            } else if byte == 0x3D {
                if equals < 0 { equals = index }
            } else if byte == 0x25 {
                escaped = true
            }
            index += 1
        }
        return (base, items, fragment)
    }

    /// Decodes `bytes[start..<end]`. A segment without `%` is already valid UTF-8 (it
    /// was cut from a String at ASCII delimiters) and is copied as is.
    @inline(__always)
    private static func component(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, escaped: Bool,
                                  field: String) throws(ChargeKitError) -> String {
        let part = UnsafeBufferPointer(rebasing: bytes[start..<end])
        guard escaped else { return String(decoding: part, as: UTF8.self) }
        return try PercentEncoding.decode(part, field: field)
    }

    /// RFC 3986: `ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`.
    static func isScheme<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        guard let first = bytes.first, (0x41...0x5A).contains(first) || (0x61...0x7A).contains(first) else {
            return false
        }
        return bytes.allSatisfy { byte in
            switch byte {
            case 0x41...0x5A, 0x61...0x7A, 0x30...0x39, 0x2B, 0x2D, 0x2E: return true
            default: return false
            }
        }
    }

    /// The scheme, lower-cased (`com-your-app` for `com-your-app://action/`).
    public var scheme: String {
        String(base.prefix { $0 != ":" }).lowercased()
    }

    /// The URL text: `base`, then `?` and the encoded items if there are any, then the fragment.
    public var string: String {
        var text = base
        if !items.isEmpty { text += "?" + QueryURL.encode(items) }
        if let fragment { text += "#" + fragment }
        return text
    }

    /// Joins items as `name=value&...`, each part percent-encoded.
    public static func encode(_ items: [QueryItem]) -> String {
        items.map(\.encoded).joined(separator: "&")
    }

    /// `url` with `items` appended to its query (after `?`, or `&` when it has one already),
    /// before any fragment.
    public static func appending(_ items: [QueryItem], to url: String) -> String {
        guard !items.isEmpty else { return url }
        var head = Substring(url)
        var tail = ""
        if let hash = url.firstIndex(of: "#") {
            head = url[..<hash]
            tail = String(url[hash...])
        }
        let separator = head.contains("?") ? (head.hasSuffix("?") || head.hasSuffix("&") ? "" : "&") : "?"
        return head + separator + encode(items) + tail
    }
}
