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

extension [QueryItem] {
    /// The items by name, the first of a name kept.
    @_spi(Tools) public var firstValues: [String: String] {
        Dictionary(map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// The value of the first item named `name`.
    func first(named name: String) -> String? { first { $0.name == name }?.value }
}
