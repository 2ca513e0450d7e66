import CitconUPI
import Foundation

/// A JSON value written straight into bytes exactly as the wire's encoder
/// (`UPIWire.encoder()`: keys sorted, `/` not escaped) writes the same value, for the
/// sandbox's hottest answer, the created charge. Foundation's `JSONEncoder` spent about
/// 20 µs of CPU on that answer (a tenth of a create); this writes it in about one.
/// `WireJSONTests` holds both to the same bytes, for every value a create can answer.
enum WireJSON {
    case string(String)
    case integer(Int64)
    case bool(Bool)
    case null
    case array([WireJSON])
    /// Members in any order: they are written sorted by their names' UTF-8 bytes.
    case object([(String, WireJSON)])

    /// `value`, or `null`.
    static func optional<T>(_ value: T?, _ wrap: (T) -> WireJSON) -> WireJSON { value.map(wrap) ?? .null }

    /// The JSON text.
    var data: Data {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1024)
        write(to: &bytes)
        return Data(bytes)
    }

    func write(to bytes: inout [UInt8]) {
        switch self {
        case .string(let text): Self.write(text, to: &bytes)
        case .integer(let number): bytes.append(contentsOf: String(number).utf8)
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
            for (index, member) in members.sorted(by: { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }).enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                Self.write(member.0, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                member.1.write(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// A string as `JSONEncoder` writes it: `"` and `\` escaped, control characters as
    /// their short escapes or `\u00XX`, everything else (`/`, DEL, non-ASCII) as it is.
    private static func write(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): bytes.append(contentsOf: #"\\"#.utf8)
            case 0x08: bytes.append(contentsOf: #"\b"#.utf8)
            case 0x0C: bytes.append(contentsOf: #"\f"#.utf8)
            case 0x0A: bytes.append(contentsOf: #"\n"#.utf8)
            case 0x0D: bytes.append(contentsOf: #"\r"#.utf8)
            case 0x09: bytes.append(contentsOf: #"\t"#.utf8)
            case 0x00..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: #"\u00"#.utf8)
                bytes.append(hex[Int(byte >> 4)])
                bytes.append(hex[Int(byte & 0xF)])
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

/// A payload the sandbox writes with ``WireJSON`` rather than `JSONEncoder`.
protocol WireJSONWritable {
    /// The payload as `UPIWire.encoder()` would write it, or `nil` where it holds
    /// something written only the general way.
    var wireJSON: WireJSON? { get }
}

extension UPIWire.Envelope {
    /// The envelope with its payload's ``WireJSON``, or `nil` when the payload has none.
    var wireJSON: WireJSON? {
        guard let payload = (data as? any WireJSONWritable)?.wireJSON else { return nil }
        return .object([("status", .string(status)), ("app", .string(app)), ("version", .string(version)), ("data", payload)])
    }
}

extension UPIWire.ChargeCreated: WireJSONWritable {
    /// Member for member what `encode(to:)` writes; `nil` with an `exchange` (the
    /// sandbox never sends one), which is then written the general way.
    var wireJSON: WireJSON? {
        guard exchange == nil else { return nil }
        return .object([
            ("object", .string(object)), ("id", .string(id)), ("charge_token", .string(chargeToken)),
            ("status", .string(status.rawValue)), ("reference", .string(reference)), ("amount", .integer(Int64(amount))),
            ("currency", .string(currency)),
        ] + (expiry.map { [("expiry", WireJSON.integer($0))] } ?? []) + [
            ("time_created", .optional(timeCreated) { .integer(UPIWire.wireTime($0)) }),
            ("time_captured", .optional(timeCaptured) { .integer(UPIWire.wireTime($0)) }),
            ("auto_capture", .optional(autoCapture, WireJSON.bool)), ("country", .optional(country, WireJSON.string)),
            ("payment", .optional(payment) { payment in
                .object((payment.method.map { [("method", WireJSON.string($0))] } ?? []) + [
                    ("client", .array(payment.client.map { client in
                        .object([("client", .string(client.client)), ("format", .string(client.format)),
                                 ("method", .string(client.method)), ("content", .string(client.content))])
                    })),
                ])
            }),
        ])
    }
}
