import Foundation

/// Finds a JSON object member name that appears twice in one object.
///
/// RFC 8259 leaves such a body's meaning to each parser: Foundation keeps one value,
/// other parsers keep the other. A signed IPN with a second `"status"` appended, or a
/// refund with two `transaction_id`s, would then mean one thing to ChargeKit and another
/// to the merchant's own code, so both the IPN check and the sandbox refuse it.
/// Names are compared after their escapes are read (`"st\u0061tus"` is `"status"`).
@_spi(Tools) public enum RepeatedJSONNames {
    /// The path of the first repeated name (`status`, `transaction.reference`,
    /// `goods.data[1].name`), or `nil` when every object's names are distinct or the
    /// bytes are not JSON the scanner can follow (the parser that runs next refuses those).
    @_spi(Tools) public static func first(in data: Data) -> String? {
        var scanner = Scanner(bytes: Array(data))
        return scanner.scan()
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        /// Bounds the recursion: a deeper body is left to the parser that follows.
        static let maximumDepth = 64

        init(bytes: [UInt8]) { self.bytes = bytes }

        mutating func scan() -> String? {
            var found: String?
            _ = value(path: "", depth: 0, found: &found)
            return found
        }

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        }

        /// Reads one value; `false` when the bytes stop making sense (or a repeat was found).
        mutating func value(path: String, depth: Int, found: inout String?) -> Bool {
            guard depth < Self.maximumDepth else { return false }
            skipSpace()
            guard index < bytes.count else { return false }
            switch bytes[index] {
            case UInt8(ascii: "{"): return object(path: path, depth: depth, found: &found)
            case UInt8(ascii: "["): return array(path: path, depth: depth, found: &found)
            case UInt8(ascii: "\""): return string() != nil
            default:
                // A number, true, false or null: up to the next structural character.
                let start = index
                while index < bytes.count, !",]} \t\r\n".utf8.contains(bytes[index]) { index += 1 }
                return index > start
            }
        }

        mutating func object(path: String, depth: Int, found: inout String?) -> Bool {
            index += 1
            var names = Set<String>()
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return true }
            while true {
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: "\""), let name = string() else { return false }
                let member = path.isEmpty ? name : "\(path).\(name)"
                guard names.insert(name).inserted else {
                    found = member
                    return false
                }
                skipSpace()
                guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { return false }
                index += 1
                guard value(path: member, depth: depth + 1, found: &found) else { return false }
                skipSpace()
                guard index < bytes.count else { return false }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "}") { index += 1; return true }
                return false
            }
        }

        mutating func array(path: String, depth: Int, found: inout String?) -> Bool {
            index += 1
            skipSpace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return true }
            var element = 0
            while true {
                guard value(path: "\(path)[\(element)]", depth: depth + 1, found: &found) else { return false }
                element += 1
                skipSpace()
                guard index < bytes.count else { return false }
                if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                if bytes[index] == UInt8(ascii: "]") { index += 1; return true }
                return false
            }
        }

        /// A string at `index` (its opening quote), with its escapes read; `nil` if it never ends.
        mutating func string() -> String? {
            index += 1
            let start = index
            var escaped = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\\") {
                    escaped = true
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") {
                    let raw = bytes[start..<index]
                    index += 1
                    guard escaped else { return String(decoding: raw, as: UTF8.self) }
                    // Let Foundation read the escapes (including surrogate pairs).
                    let quoted = Data([UInt8(ascii: "\"")] + Array(raw) + [UInt8(ascii: "\"")])
                    return (try? JSONDecoder().decode(String.self, from: quoted)) ?? String(decoding: raw, as: UTF8.self)
                }
                index += 1
            }
            return nil
        }
    }
}
