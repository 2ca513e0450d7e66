/// A text value of a parsed callback, kept where it is in the callback URL's own
/// string and decoded when it is read: the storage behind the text properties of the
/// apps' callbacks (``CreditCardTerminal/ChargeResponse``, for example).
///
/// Parsing a callback validates each value on the URL's bytes and makes no string for
/// it; the result holds the URL's string once per value (a reference, not a copy) and
/// where the value is (a group of values may hold it once for them all, as places: see
/// `TextPlace`). Reading the property decodes the value (its `%XX` escapes,
/// already checked); setting it keeps the new string as it is. Two values are equal,
/// hash and code as their text, wherever it is kept. The public properties it stands
/// behind are plain `String?`.
struct CallbackText: Hashable, Sendable, Codable {
    /// The string the value is in: the callback URL, or the value itself once set.
    private var source: String
    /// Where the value is in `source`, or one of the two markers.
    private var place: TextPlace

    /// An absent value, or a value set in code.
    init(wrappedValue: String?) {
        source = wrappedValue ?? ""
        place = wrappedValue == nil ? .absent : .whole
    }

    /// A value at `place` of the callback URL `source` (absent when the place is).
    init(source: String, place: TextPlace) {
        self.source = source
        self.place = place
    }

    /// A value at `range` of the callback URL `source` (at most
    /// `TextPlace.maximumSourceLength` bytes long), checked when it was read.
    init(source: String, range: Range<Int>, escaped: Bool) {
        self.init(source: source, place: TextPlace(range, escaped: escaped))
    }

    /// Whether the callback carried the value (without decoding it).
    var isPresent: Bool { place.isPresent }

    /// The value, decoded; `nil` when the callback did not carry it.
    var wrappedValue: String? {
        get { place.value(in: source) }
        set { self = CallbackText(wrappedValue: newValue) }
    }

    static func == (lhs: CallbackText, rhs: CallbackText) -> Bool { lhs.wrappedValue == rhs.wrappedValue }

    func hash(into hasher: inout Hasher) { hasher.combine(wrappedValue) }

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        self.init(wrappedValue: container.decodeNil() ? nil : try container.decode(String.self))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

/// Where a text value of a parsed callback is in the callback URL's string: 8 bytes
/// and no reference, so that a group of values (an app's payment details) keeps the
/// string once for them all. The owner keeps the string and reads the value with
/// ``value(in:)``.
struct TextPlace: Hashable, Sendable {
    /// Where the value starts (UTF-8 offset), or one of the two markers.
    private var start: UInt32
    /// Where it ends, with ``escapedFlag`` set when the bytes hold `%XX` escapes.
    private var end: UInt32

    private static let escapedFlag: UInt32 = 1 << 31
    /// The `start` of ``absent`` and of ``whole``: no offset reaches them.
    private static let absentStart = UInt32.max, wholeStart = UInt32.max - 1
    /// The longest string a value can be found in: offsets fit in 31 bits.
    static let maximumSourceLength = Int(Int32.max)

    private init(start: UInt32, end: UInt32) {
        self.start = start
        self.end = end
    }

    /// No value.
    static var absent: TextPlace { TextPlace(start: absentStart, end: 0) }
    /// The value is the whole string, as it is (a value set in code).
    static var whole: TextPlace { TextPlace(start: wholeStart, end: 0) }

    /// The bytes at `range` of a string of at most ``maximumSourceLength`` bytes;
    /// `escaped` when they hold `%XX` escapes (already checked).
    init(_ range: Range<Int>, escaped: Bool) {
        start = UInt32(truncatingIfNeeded: range.lowerBound)
        end = UInt32(truncatingIfNeeded: range.upperBound) | (escaped ? Self.escapedFlag : 0)
    }

    /// Whether there is a value.
    var isPresent: Bool { start != Self.absentStart }

    /// The value in `source`, decoded; `nil` when absent.
    func value(in source: String) -> String? {
        if start >= Self.wholeStart { return start == Self.wholeStart ? source : nil }
        let range = Int(start)..<Int(end & ~Self.escapedFlag), escaped = end & Self.escapedFlag != 0
        return source.withUTF8Span { PercentEncoding.decodeChecked($0.extracting(range), escaped: escaped) }
    }
}

/// The parameters of a parsed callback that no field took (the app's extras, a
/// wrapper's own), kept as places in the callback URL's string and made into
/// ``QueryItem``s when read: parsing makes no string for them. Equal, hashed and coded
/// as the items they stand for.
struct CallbackItems: Hashable, Sendable, Codable {
    /// One parameter's name and value, as places in the URL's string.
    struct Place: Sendable {
        var name: TextPlace
        var value: TextPlace
    }

    private enum Form: Sendable {
        /// None (the commonest: a form with nothing to release).
        case none
        case places(source: String, [Place])
        case items([QueryItem])
    }

    private var form: Form

    /// No parameters, or those set in code.
    init(_ items: [QueryItem] = []) { form = items.isEmpty ? .none : .items(items) }

    /// Parameters at `places` of the callback URL `source`.
    init(source: String, places: [Place]) {
        form = places.isEmpty ? .none : .places(source: source, places)
    }

    /// The parameters, in order, decoded.
    var items: [QueryItem] {
        get {
            switch form {
            case .none: return []
            case .items(let items): return items
            case .places(let source, let places):
                return places.map { QueryItem($0.name.value(in: source) ?? "", $0.value.value(in: source) ?? "") }
            }
        }
        set { self = CallbackItems(newValue) }
    }

    static func == (lhs: CallbackItems, rhs: CallbackItems) -> Bool { lhs.items == rhs.items }

    func hash(into hasher: inout Hasher) { hasher.combine(items) }

    init(from decoder: any Decoder) throws {
        self.init(try decoder.singleValueContainer().decode([QueryItem].self))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(items)
    }
}

/// A text value every callback carries (the URL it was opened on): a ``CallbackText``
/// that is never absent.
struct RequiredCallbackText: Hashable, Sendable, Codable {
    private var text: CallbackText

    /// A value set in code.
    init(wrappedValue: String) { text = CallbackText(wrappedValue: wrappedValue) }

    init(_ text: CallbackText) { self.text = text }

    /// The value, decoded.
    var wrappedValue: String {
        get { text.wrappedValue ?? "" }
        set { text = CallbackText(wrappedValue: newValue) }
    }

    init(from decoder: any Decoder) throws {
        self.init(wrappedValue: try decoder.singleValueContainer().decode(String.self))
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

// Coded as the `String?` properties they stand for were: an absent value leaves its
// key out, and a missing key reads as absent.
extension KeyedEncodingContainer {
    mutating func encode(_ value: CallbackText, forKey key: Key) throws {
        try encodeIfPresent(value.wrappedValue, forKey: key)
    }
}

extension KeyedDecodingContainer {
    func decode(_ type: CallbackText.Type, forKey key: Key) throws -> CallbackText {
        CallbackText(wrappedValue: try decodeIfPresent(String.self, forKey: key))
    }
}
