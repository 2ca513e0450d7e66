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
        // The callback parsers' reader, every item taken as a string.
        (base, items, fragment) = try FieldReader.read(url, maximumLength: maximumLength) { reader in
            (reader.base, reader.indices.map { reader.item($0) }, reader.fragment)
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
