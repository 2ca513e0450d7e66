@_spi(Tools) import CitconUPI
import Foundation

/// A JSON value written straight into bytes exactly as the wire's encoder
/// (`UPIWire.encoder()`: keys sorted, `/` not escaped) writes the same value, for the
/// sandbox's hottest answer, the created charge. Foundation's `JSONEncoder` spent about
/// 20 µs of CPU on that answer (a tenth of a create); this writes it in about one.
/// `WireJSONTests` holds both to the same bytes, for every value a create can answer.
enum WireJSON {
    case string(String)
    case integer(Int64)
    /// A number written as its exact decimal text (a `Decimal`'s, as `JSONEncoder` writes it).
    case decimal(Decimal)
    case bool(Bool)
    case null
    case array([WireJSON])
    /// Members in any order: they are written sorted by their names' UTF-8 bytes.
    case object([(String, WireJSON)])

    /// `value`, or `null`.
    static func optional<T>(_ value: T?, _ wrap: (T) -> WireJSON) -> WireJSON { value.map(wrap) ?? .null }

    /// The JSON text.
    var data: Data { Data(bytes) }

    /// The JSON text's bytes (an answer goes from here into a `ByteBuffer` with one copy).
    var bytes: [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1024)
        write(to: &bytes)
        return bytes
    }

    func write(to bytes: inout [UInt8]) {
        switch self {
        case .string(let text): Self.write(text, to: &bytes)
        case .integer(let number): Self.write(number, to: &bytes)
        case .decimal(let number): bytes.append(contentsOf: number.description.utf8)
        case .bool(let value): bytes.append(contentsOf: value ? "true".utf8 : "false".utf8)
        case .null: bytes.append(contentsOf: "null".utf8)
        case .array(let elements):
            bytes.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                element.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let members):
            bytes.append(UInt8(ascii: "{"))
            // The builders list their members in order already; anything else is sorted here.
            let ordered = Self.isSorted(members) ? members : members.sorted { Self.precedes($0.0, $1.0) }
            for (index, member) in ordered.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.write(member.0, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                member.1.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Whether `members` are in the order `JSONEncoder` writes them (by their names'
    /// UTF-8 bytes), so that they need no sorting.
    static func isSorted(_ members: [(String, WireJSON)]) -> Bool {
        var index = members.startIndex + 1
        while index < members.endIndex {
            guard precedes(members[index - 1].0, members[index].0) else { return false }
            index += 1
        }
        return true
    }

    /// Whether `first` comes before `second` by their UTF-8 bytes (`JSONEncoder`'s order
    /// of keys); equal names do not.
    static func precedes(_ first: String, _ second: String) -> Bool {
        var first = first, second = second
        return first.withUTF8 { a in
            second.withUTF8 { b in
                for offset in 0..<min(a.count, b.count) where a[offset] != b[offset] { return a[offset] < b[offset] }
                return a.count < b.count
            }
        }
    }

    /// An integer's decimal digits, as `String(number)` spells them.
    private static func write(_ number: Int64, to bytes: inout [UInt8]) {
        if number < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = number.magnitude
        var digits: (UInt64, UInt64, UInt64) = (0, 0, 0)  // room for 24 digits; Int64 has at most 19
        withUnsafeMutableBytes(of: &digits) { buffer in
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: buffer[start...])
        }
    }

    /// A string as `JSONEncoder` writes it: `"` and `\` escaped, control characters as
    /// their short escapes or `\u00XX`, everything else (`/`, DEL, non-ASCII) as it is.
    /// The bytes between two escapes go in with one copy, not a byte at a time (most
    /// strings have no escape at all: one copy).
    private static func write(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { utf8 in
            var start = 0
            for index in utf8.indices {
                let byte = utf8[index]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start..<index]))
                escape(byte, to: &bytes)
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[start...]))
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// The escape of `byte`: `"`, `\` or a control character.
    private static func escape(_ byte: UInt8, to bytes: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
        case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
        case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
        case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
        case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
        case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
        case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
        default:
            bytes.append(contentsOf: #"\u00"#.utf8)
            bytes.append(hexDigits[Int(byte >> 4)])
            bytes.append(hexDigits[Int(byte & 0xF)])
        }
    }
}

/// A payload the sandbox writes with ``WireJSON`` only: its one writer in the sandbox.
protocol WireJSONWritable {
    /// The payload as `UPIWire.encoder()` would write it.
    var wireJSON: WireJSON { get }
}

extension WireJSON {
    /// `envelope` with its payload's ``WireJSON``, or `nil` when the payload is
    /// written by its `Codable` conformance.
    init?<Payload>(envelope: UPIWire.Envelope<Payload>) {
        guard let payload = (envelope.data as? any WireJSONWritable)?.wireJSON else { return nil }
        self = .object([("app", .string(envelope.app)), ("data", payload), ("status", .string(envelope.status)),
                         ("version", .string(envelope.version))])
    }
}

extension UPIWire.ChargeCreated: WireJSONWritable {
    /// Member for member what `encode(to:)` writes.
    var wireJSON: WireJSON {
        // In the order JSONEncoder writes them (sorted by name), so that no sort is needed.
        var members: [(String, WireJSON)] = []
        members.reserveCapacity(14)
        members.append(("amount", .integer(Int64(amount))))
        members.append(("auto_capture", .optional(autoCapture, WireJSON.bool)))
        members.append(("charge_token", .string(chargeToken)))
        members.append(("country", .optional(country, WireJSON.string)))
        members.append(("currency", .string(currency)))
        if let exchange {
            members.append(("exchange", .object([("amount", .optional(exchange.amount) { .integer(Int64($0)) }),
                                                 ("currency", .optional(exchange.currency, WireJSON.string)),
                                                 ("rate", .optional(exchange.rate, WireJSON.decimal))])))
        }
        if let expiry { members.append(("expiry", .integer(UPIWire.wireTime(expiry)))) }
        members.append(("id", .string(id)))
        members.append(("object", .string(object)))
        members.append(("payment", .optional(payment) { payment in
            var fields: [(String, WireJSON)] = [("client", .array(payment.client.map { client in
                .object([("client", .string(client.client)), ("content", .string(client.content)),
                         ("format", .string(client.format)), ("method", .string(client.method))])
            }))]
            if let method = payment.method { fields.append(("method", .string(method))) }
            return .object(fields)
        }))
        members.append(("reference", .string(reference)))
        members.append(("status", .string(status.rawValue)))
        members.append(("time_captured", .optional(timeCaptured) { .integer(UPIWire.wireTime($0)) }))
        members.append(("time_created", .optional(timeCreated) { .integer(UPIWire.wireTime($0)) }))
        return .object(members)
    }
}
