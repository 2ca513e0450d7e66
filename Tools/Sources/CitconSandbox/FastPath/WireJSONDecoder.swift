@_spi(Tools) import CitconUPI
import Foundation

/// Reads request bodies without Foundation's `JSONDecoder` when it is certain to give
/// exactly what `JSONDecoder` gives, and otherwise says nothing (`nil`), so that the
/// caller decodes the general way, which also words every refusal.
///
/// The body is parsed into a tree (RFC 8259, strictly: no BOM, no duplicate names, valid
/// UTF-8, at most 32 levels and 256 members or elements per level; anything else is
/// left to `JSONDecoder`), and the type decodes itself from the tree through the
/// `Decoder` protocol, with its own `init(from:)`. What this reader refuses splits in
/// two. A *certain* refusal (a string asked for where the body has a number, a missing
/// name) is one `JSONDecoder` makes too, so a type that catches it (`try?`) goes on the
/// same way under both. Anything this reader does not decode itself (numbers with a
/// fraction or an exponent, `-0`, an integer out of its type's range, `Double`,
/// `Decimal`, `Date`, `Data`, `URL`, super decoders) marks the whole decode *unsure*,
/// and an unsure decode gives `nil` even if the type caught the refusal. So a value
/// comes back only when every step was one `JSONDecoder` takes the same way.
/// `WireJSONDecoderTests` compares the two on the seeds' bodies and on random ones. The
/// sandbox reads every
/// request body with it. It is one of the sandbox's two fast paths (with
/// ``WireJSON``), both in this folder: `scripts/loadtest.sh` shows what it pays (a
/// create with `JSONDecoder` alone is about 30 % slower), and `scripts/instructions.sh`
/// counts it beside `JSONDecoder`.
enum WireJSONDecoder {
    /// `type` decoded from `data`, or `nil` when `JSONDecoder` must decide.
    static func decode<T: Decodable>(_ type: T.Type, from data: Data) -> T? {
        if let keyed = T.self as? any KeyedWireDecodable.Type {
            return keyed.wireDecoded(from: data) as? T
        }
        return decodeTree(type, from: data)
    }

    /// ``decode(_:from:)`` through the tree: specialised for each ``KeyedWireDecodable``
    /// type (by ``KeyedWireDecodable/wireDecoded(from:)``), generic for the others.
    static func decodeTree<T: Decodable>(_ type: T.Type, from data: Data) -> T? {
        let parsed: Node? = data.withUnsafeBytes { raw in
            var parser = Parser(bytes: raw.bindMemory(to: UInt8.self))
            return parser.document()
        }
        guard let parsed else { return nil }
        let state = DecodeState()
        // `as T`: left to inference, `try?` would decode an Optional<T> (see decodeIfPresent).
        guard let value = try? decode(parsed, state, []) as T, !state.unsure else {
            return nil
        }
        return value
    }

    /// A parsed JSON value.
    enum Node {
        case null
        case bool(Bool)
        /// An integer written plainly (`-?(0|[1-9][0-9]*)`, not `-0`) that fits 64 bits.
        case integer(Int64)
        /// Any other number: left to `JSONDecoder` when it is asked for.
        case otherNumber
        case string(String)
        case array([Node])
        case object([(name: String, value: Node)])
    }

    /// Whether some step was left to `JSONDecoder` (shared by every container of one decode).
    final class DecodeState {
        var unsure = false
    }

    /// Why this reader refused a step (its content does not matter: the caller then
    /// decodes with `JSONDecoder`, which words the refusal).
    struct Refusal: Error {}

    // MARK: Parsing

    struct Parser {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        static let maximumDepth = 32, maximumCount = 256

        init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

        /// The whole body as one value, or `nil`.
        mutating func document() -> Node? {
            guard let node = value(depth: 0) else { return nil }
            skipSpace()
            return index == bytes.count ? node : nil
        }

        mutating func skipSpace() {
            while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D || bytes[index] == 0x09 {
                index += 1
            }
        }

        mutating func literal(_ text: StaticString) -> Bool {
            let count = text.utf8CodeUnitCount
            guard bytes.count - index >= count else { return false }
            for offset in 0..<count where bytes[index + offset] != text.utf8Start[offset] { return false }
            index += count
            return true
        }

        mutating func value(depth: Int) -> Node? {
            skipSpace()
            guard index < bytes.count, depth < Self.maximumDepth else { return nil }
            switch bytes[index] {
            case UInt8(ascii: "n"): return literal("null") ? .null : nil
            case UInt8(ascii: "t"): return literal("true") ? .bool(true) : nil
            case UInt8(ascii: "f"): return literal("false") ? .bool(false) : nil
            case UInt8(ascii: "\""): return string().map(Node.string)
            case UInt8(ascii: "["): return array(depth: depth)
            case UInt8(ascii: "{"): return object(depth: depth)
            default: return number()
            }
        }

        mutating func array(depth: Int) -> Node? {
            index += 1
            var elements: [Node] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            while true {
                guard elements.count < Self.maximumCount, let element = value(depth: depth + 1) else { return nil }
                elements.append(element)
                guard let closed = next(closing: UInt8(ascii: "]")) else { return nil }
                if closed { return .array(elements) }
            }
        }

        /// After a member or an element: `true` at `closing`, `false` at a comma, `nil` otherwise.
        mutating func next(closing: UInt8) -> Bool? {
            skipSpace()
            guard index < bytes.count else { return nil }
            let byte = bytes[index]
            index += 1
            return byte == closing ? true : byte == UInt8(ascii: ",") ? false : nil
        }

        mutating func object(depth: Int) -> Node? {
            index += 1
            var members: [(name: String, value: Node)] = []
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            while true {
                skipSpace()
                guard members.count < Self.maximumCount, index < bytes.count, bytes[index] == UInt8(ascii: "\""),
                      let name = string(), !members.contains(where: { $0.name == name }) else { return nil }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return nil }
                index += 1
                guard let member = value(depth: depth + 1) else { return nil }
                members.append((name, member))
                guard let closed = next(closing: UInt8(ascii: "}")) else { return nil }
                if closed { return .object(members) }
            }
        }

        /// A string from its opening quote; `nil` for a control character, a bad
        /// escape, a lone surrogate or bytes that are not UTF-8.
        mutating func string() -> String? {
            index += 1
            let start = index
            var ascii = true
            while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != UInt8(ascii: "\\") {
                guard bytes[index] >= 0x20 else { return nil }
                ascii = ascii && bytes[index] < 0x80
                index += 1
            }
            guard index < bytes.count else { return nil }
            if bytes[index] == UInt8(ascii: "\"") {
                index += 1
                let text = UnsafeBufferPointer(rebasing: bytes[start..<index - 1])
                // ASCII is valid UTF-8 as it is (most strings): String(decoding:) takes it on
                // its quick all-ASCII path, where String(validating:) runs its full check
                // (31 305 against 43 458 instructions per create body, scripts/instructions.sh).
                return ascii ? String(decoding: text, as: UTF8.self) : String(validating: text, as: UTF8.self)
            }
            var decoded = Array(bytes[start..<index])
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""): return String(validating: decoded, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { return nil }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): decoded.append(escape)
                    case UInt8(ascii: "b"): decoded.append(0x08)
                    case UInt8(ascii: "f"): decoded.append(0x0C)
                    case UInt8(ascii: "n"): decoded.append(0x0A)
                    case UInt8(ascii: "r"): decoded.append(0x0D)
                    case UInt8(ascii: "t"): decoded.append(0x09)
                    case UInt8(ascii: "u"):
                        guard var scalar = hex4() else { return nil }
                        if (0xD800..<0xDC00).contains(scalar) {
                            guard literal("\\u"), let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                            scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00)
                        }
                        guard let unicode = Unicode.Scalar(scalar) else { return nil }
                        decoded.append(contentsOf: String(Character(unicode)).utf8)
                    default: return nil
                    }
                default:
                    guard byte >= 0x20 else { return nil }
                    decoded.append(byte)
                }
            }
            return nil
        }

        mutating func hex4() -> UInt32? {
            guard bytes.count - index >= 4 else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index] | 0x20
                let digit: UInt8
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
                case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
                default: return nil
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }

        /// A number by RFC 8259's grammar; `nil` when it breaks it.
        mutating func number() -> Node? {
            let negative = index < bytes.count && bytes[index] == UInt8(ascii: "-")
            if negative { index += 1 }
            let digitsStart = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            let digits = index - digitsStart
            guard digits > 0, digits == 1 || bytes[digitsStart] != UInt8(ascii: "0") else { return nil }
            var plain = true
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                guard skipDigits() else { return nil }
                plain = false
            }
            if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                guard skipDigits() else { return nil }
                plain = false
            }
            guard plain, digits <= 19, !(negative && digits == 1 && bytes[digitsStart] == UInt8(ascii: "0")) else {
                return .otherNumber
            }
            var magnitude: UInt64 = 0
            for offset in digitsStart..<index { magnitude = magnitude * 10 + UInt64(bytes[offset] - UInt8(ascii: "0")) }
            if negative {
                guard magnitude <= UInt64(Int64.max) + 1 else { return .otherNumber }
                return .integer(magnitude == UInt64(Int64.max) + 1 ? Int64.min : -Int64(magnitude))
            }
            guard magnitude <= UInt64(Int64.max) else { return .otherNumber }
            return .integer(Int64(magnitude))
        }

        mutating func skipDigits() -> Bool {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index > start
        }
    }

    // MARK: Decoding

    /// A name for an element of an array, in coding paths.
    struct IndexKey: CodingKey {
        var intValue: Int?
        var stringValue: String { "Index \(intValue ?? 0)" }
        init(intValue: Int) { self.intValue = intValue }
        init?(stringValue: String) { nil }
    }

    struct TreeDecoder: Decoder {
        let node: Node
        let state: DecodeState
        let codingPath: [any CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            guard case .object(let members) = node else { throw Refusal() }
            return KeyedDecodingContainer(Keyed<Key>(members: members, state: state, codingPath: codingPath))
        }

        func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
            guard case .array(let elements) = node else { throw Refusal() }
            return Unkeyed(elements: elements, state: state, codingPath: codingPath)
        }

        func singleValueContainer() throws -> any SingleValueDecodingContainer {
            Single(node: node, state: state, codingPath: codingPath)
        }
    }

    /// Refuses as unsure: `JSONDecoder` must decide.
    static func unsure(_ state: DecodeState) -> Refusal {
        state.unsure = true
        return Refusal()
    }

    static func bool(_ node: Node) throws -> Bool {
        guard case .bool(let value) = node else { throw Refusal() }
        return value
    }

    static func string(_ node: Node) throws -> String {
        guard case .string(let value) = node else { throw Refusal() }
        return value
    }

    static func integer<T: FixedWidthInteger>(_ node: Node, _ state: DecodeState) throws -> T {
        switch node {
        case .integer(let value):
            guard let exact = T(exactly: value) else { throw unsure(state) }
            return exact
        case .otherNumber: throw unsure(state)
        default: throw Refusal()
        }
    }

    static func decode<T: Decodable>(_ node: Node, _ state: DecodeState, _ codingPath: [any CodingKey]) throws -> T {
        // The types JSONDecoder reads its own way.
        if T.self == Decimal.self || T.self == Date.self || T.self == Data.self || T.self == URL.self
            || T.self == Double.self || T.self == Float.self {
            throw unsure(state)
        }
        // The request bodies' own types skip the Decoder protocol (see KeyedWireDecodable).
        if let keyed = T.self as? any KeyedWireDecodable.Type {
            guard let value = try keyed.decodeMembers(of: node, state, codingPath) as? T else { throw unsure(state) }
            return value
        }
        return try T(from: TreeDecoder(node: node, state: state, codingPath: codingPath))
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let members: [(name: String, value: Node)]
        let state: DecodeState
        let codingPath: [any CodingKey]

        var allKeys: [Key] { members.compactMap { Key(stringValue: $0.name) } }

        /// The member's value, or `nil` when the body has no such member.
        func member(_ key: Key) -> Node? { members.first { $0.name == key.stringValue }?.value }

        func contains(_ key: Key) -> Bool { member(key) != nil }

        func node(_ key: Key) throws -> Node {
            guard let value = member(key) else { throw Refusal() }
            return value
        }

        func decodeNil(forKey key: Key) throws -> Bool {
            if case .null = try node(key) { return true }
            return false
        }

        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try WireJSONDecoder.bool(node(key)) }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try WireJSONDecoder.string(node(key)) }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { throw WireJSONDecoder.unsure(state) }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { throw WireJSONDecoder.unsure(state) }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try integer(node(key), state) }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try integer(node(key), state) }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try integer(node(key), state) }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try integer(node(key), state) }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try integer(node(key), state) }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try integer(node(key), state) }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try integer(node(key), state) }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try integer(node(key), state) }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try integer(node(key), state) }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try integer(node(key), state) }

        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            try WireJSONDecoder.decode(node(key), state, codingPath + [key])
        }

        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            try TreeDecoder(node: node(key), state: state, codingPath: codingPath + [key]).container(keyedBy: type)
        }

        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
            try TreeDecoder(node: node(key), state: state, codingPath: codingPath + [key]).unkeyedContainer()
        }

        func superDecoder() throws -> any Decoder { throw WireJSONDecoder.unsure(state) }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw WireJSONDecoder.unsure(state) }

        // `decodeIfPresent` as `JSONDecoder` does it (an absent member or `null` is `nil`,
        // anything else is decoded), in one look-up instead of the protocol's default
        // three (`contains`, `decodeNil`, `decode`): a create body asks some twenty times.

        /// The member's value, or `nil` when it is absent or `null`.
        func present(_ key: Key) -> Node? {
            guard let value = member(key) else { return nil }
            if case .null = value { return nil }
            return value
        }

        func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key).map(WireJSONDecoder.bool) }
        func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(key).map(WireJSONDecoder.string) }
        func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
            guard present(key) != nil else { return nil }
            throw WireJSONDecoder.unsure(state)
        }
        func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
            guard present(key) != nil else { return nil }
            throw WireJSONDecoder.unsure(state)
        }
        func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try presentInteger(key) }
        func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try presentInteger(key) }
        func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try presentInteger(key) }
        func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try presentInteger(key) }
        func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try presentInteger(key) }
        func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try presentInteger(key) }
        func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try presentInteger(key) }
        func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try presentInteger(key) }
        func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try presentInteger(key) }
        func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try presentInteger(key) }

        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            guard let node = present(key) else { return nil }
            // Typed as T: returning it as `T?` straight away would decode an Optional<T>,
            // through Optional's own init(from:) and a single-value container.
            let value: T = try WireJSONDecoder.decode(node, state, codingPath + [key])
            return value
        }

        private func presentInteger<T: FixedWidthInteger>(_ key: Key) throws -> T? {
            guard let node = present(key) else { return nil }
            return try integer(node, state)
        }
    }

    struct Unkeyed: UnkeyedDecodingContainer {
        let elements: [Node]
        let state: DecodeState
        let codingPath: [any CodingKey]
        var currentIndex = 0

        init(elements: [Node], state: DecodeState, codingPath: [any CodingKey]) {
            self.elements = elements
            self.state = state
            self.codingPath = codingPath
        }

        var count: Int? { elements.count }
        var isAtEnd: Bool { currentIndex >= elements.count }

        /// The next element, taken only when `read` succeeds with it.
        mutating func next<T>(_ read: (Node) throws -> T) throws -> T {
            guard !isAtEnd else { throw Refusal() }
            let value = try read(elements[currentIndex])
            currentIndex += 1
            return value
        }

        mutating func decodeNil() throws -> Bool {
            guard !isAtEnd else { throw Refusal() }
            guard case .null = elements[currentIndex] else { return false }
            currentIndex += 1
            return true
        }

        mutating func decode(_ type: Bool.Type) throws -> Bool { try next(WireJSONDecoder.bool) }
        mutating func decode(_ type: String.Type) throws -> String { try next(WireJSONDecoder.string) }
        mutating func decode(_ type: Double.Type) throws -> Double { throw WireJSONDecoder.unsure(state) }
        mutating func decode(_ type: Float.Type) throws -> Float { throw WireJSONDecoder.unsure(state) }
        mutating func decode(_ type: Int.Type) throws -> Int { let state = state; return try next { try integer($0, state) } }
        mutating func decode(_ type: Int8.Type) throws -> Int8 { let state = state; return try next { try integer($0, state) } }
        mutating func decode(_ type: Int16.Type) throws -> Int16 { let state = state; return try next { try integer($0, state) } }
        mutating func decode(_ type: Int32.Type) throws -> Int32 { let state = state; return try next { try integer($0, state) } }
        mutating func decode(_ type: Int64.Type) throws -> Int64 { let state = state; return try next { try integer($0, state) } }
        mutating func decode(_ type: UInt.Type) throws -> UInt { let state = state; return try next { try integer($0, state) } }
        mutating func decode(_ type: UInt8.Type) throws -> UInt8 { let state = state; return try next { try integer($0, state) } }
        mutating func decode(_ type: UInt16.Type) throws -> UInt16 { let state = state; return try next { try integer($0, state) } }
        mutating func decode(_ type: UInt32.Type) throws -> UInt32 { let state = state; return try next { try integer($0, state) } }
        mutating func decode(_ type: UInt64.Type) throws -> UInt64 { let state = state; return try next { try integer($0, state) } }

        mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
            let (state, path) = (state, codingPath + [IndexKey(intValue: currentIndex)])
            return try next { try WireJSONDecoder.decode($0, state, path) }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
            let (state, path) = (state, codingPath + [IndexKey(intValue: currentIndex)])
            return try next { try TreeDecoder(node: $0, state: state, codingPath: path).container(keyedBy: type) }
        }

        mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
            let (state, path) = (state, codingPath + [IndexKey(intValue: currentIndex)])
            return try next { try TreeDecoder(node: $0, state: state, codingPath: path).unkeyedContainer() }
        }

        mutating func superDecoder() throws -> any Decoder { throw WireJSONDecoder.unsure(state) }
    }

    struct Single: SingleValueDecodingContainer {
        let node: Node
        let state: DecodeState
        let codingPath: [any CodingKey]

        func decodeNil() -> Bool {
            if case .null = node { return true }
            return false
        }

        func decode(_ type: Bool.Type) throws -> Bool { try WireJSONDecoder.bool(node) }
        func decode(_ type: String.Type) throws -> String { try WireJSONDecoder.string(node) }
        func decode(_ type: Double.Type) throws -> Double { throw WireJSONDecoder.unsure(state) }
        func decode(_ type: Float.Type) throws -> Float { throw WireJSONDecoder.unsure(state) }
        func decode(_ type: Int.Type) throws -> Int { try integer(node, state) }
        func decode(_ type: Int8.Type) throws -> Int8 { try integer(node, state) }
        func decode(_ type: Int16.Type) throws -> Int16 { try integer(node, state) }
        func decode(_ type: Int32.Type) throws -> Int32 { try integer(node, state) }
        func decode(_ type: Int64.Type) throws -> Int64 { try integer(node, state) }
        func decode(_ type: UInt.Type) throws -> UInt { try integer(node, state) }
        func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(node, state) }
        func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(node, state) }
        func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(node, state) }
        func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(node, state) }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try WireJSONDecoder.decode(node, state, codingPath) }
    }
}

/// A wire type whose decoding is written once, over any keyed container of its members:
/// `init(from:)` hands it `JSONDecoder`'s container (or any decoder's), and
/// ``WireJSONDecoder`` hands it its own container directly, without the `Decoder`
/// protocol's type-erasing boxes, which cost the sandbox most of a create body's
/// decoding time. The two read the same members with the same calls, so they decode
/// alike by construction; `WireJSONDecoderTests` compares them.
protocol KeyedWireDecodable: Decodable {
    associatedtype CodingKeys: CodingKey
    /// Decodes the value from the container of its members (what `init(from:)` does).
    init<Container: KeyedDecodingContainerProtocol>(keyed container: Container) throws where Container.Key == CodingKeys
    /// The value from a body, or `nil` (the default implementation below).
    static func wireDecoded(from data: Data) -> Self?
}

extension KeyedWireDecodable {
    /// ``WireJSONDecoder/decode(_:from:)`` for this type: a witness of its own for each
    /// conforming type, so that the compiler specialises the whole decode for it (its
    /// container, its members' types) instead of running generic code.
    static func wireDecoded(from data: Data) -> Self? {
        WireJSONDecoder.decodeTree(Self.self, from: data)
    }

    /// The value from `node`, which must be an object, through ``WireJSONDecoder``'s container.
    static func decodeMembers(of node: WireJSONDecoder.Node, _ state: WireJSONDecoder.DecodeState,
                              _ codingPath: [any CodingKey]) throws -> Self {
        guard case .object(let members) = node else { throw WireJSONDecoder.Refusal() }
        return try Self(keyed: WireJSONDecoder.Keyed<CodingKeys>(members: members, state: state, codingPath: codingPath))
    }
}

// The request bodies the sandbox reads, each decoded by its own `init(keyed:)` (the
// one its `init(from:)` runs: in CitconUPI for the shared models, in RequestBodies.swift for the body).
extension CPayTransaction: KeyedWireDecodable {}
extension CPayUrls: KeyedWireDecodable {}
extension CPayPayment: KeyedWireDecodable {}
extension ChargeBody: KeyedWireDecodable {}
