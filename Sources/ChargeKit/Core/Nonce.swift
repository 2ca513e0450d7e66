/// A one-time correlation token: 27 characters over the URL-safe Base64 alphabet
/// (162 random bits), drawn from the system CSPRNG in one call (`arc4random_buf` on
/// Apple platforms, `getrandom` on Linux).
///
/// This is the shape of Credit Card Terminal's `ifcc_request_nonce`; ChargeKit uses
/// it for every provider.
public struct Nonce: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The token text.
    public let value: String

    /// The number of characters in a nonce.
    public static let length = 27
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Draws a fresh nonce from the system's cryptographically secure generator.
    public static func random() -> Nonce {
        // 27 bytes in one call; each byte's low 6 bits pick a character (64 divides 256:
        // no bias).
        var bytes = [UInt8](repeating: 0, count: length)
        SecureRandom.fill(&bytes)
        for index in bytes.indices { bytes[index] = alphabet[Int(bytes[index] & 63)] }
        return Nonce(unchecked: String(decoding: bytes, as: UTF8.self))
    }

    /// Draws a nonce from `generator`; tests may pass a seeded one.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> Nonce {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(length)
        for _ in 0..<length { bytes.append(alphabet[Int(generator.next(upperBound: UInt8(64)))]) }
        return Nonce(unchecked: String(decoding: bytes, as: UTF8.self))
    }

    /// Validates a nonce read from a callback.
    /// - Throws: ``ChargeKitError/invalidField(_:rule:)`` naming `field` unless it is 27
    ///   URL-safe Base64 characters.
    public init(_ value: String, field: String) throws(ChargeKitError) {
        guard value.utf8.count == Nonce.length, value.utf8.allSatisfy(Nonce.isTokenByte) else {
            throw .invalidField(field, rule: "must be \(Nonce.length) URL-safe Base64 characters")
        }
        self.value = value
    }

    private init(unchecked value: String) { self.value = value }

    /// Whether each byte value is one of ``alphabet``'s, for checking without a search.
    private static let tokenBytes: [Bool] = (0...255).map { alphabet.contains(UInt8($0)) }

    /// Whether `byte` is one of the URL-safe Base64 alphabet's.
    static func isTokenByte(_ byte: UInt8) -> Bool { tokenBytes[Int(byte)] }

    /// ChargeKit's nonce and the app's own text in a value that carries both (such as
    /// Square's `state`): the nonce is its first 27 characters when
    /// they are followed by nothing or `.`, the rest what follows the `.` (empty after a
    /// bare `.`); without a nonce, the whole value is the rest.
    static func leading(_ text: String?) -> (nonce: Nonce?, rest: String?) {
        guard let text else { return (nil, nil) }
        return leading(Array(text.utf8)[...])
    }

    /// ``leading(_:)`` of a value's UTF-8 bytes, as a reader holds them.
    static func leading(_ bytes: ArraySlice<UInt8>) -> (nonce: Nonce?, rest: String?) {
        let start = bytes.startIndex
        guard bytes.count >= length, bytes.count == length || bytes[start + length] == UInt8(ascii: "."),
              bytes[start..<start + length].allSatisfy(isTokenByte)
        else { return (nil, String(decoding: bytes, as: UTF8.self)) }
        let nonce = Nonce(unchecked: String(decoding: bytes[start..<start + length], as: UTF8.self))
        guard bytes.count > length else { return (nonce, nil) }
        return (nonce, String(decoding: bytes[(start + length + 1)...], as: UTF8.self))
    }

    public var description: String { value }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do { try self.init(text, field: "nonce") } catch {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: error.description)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }
}
