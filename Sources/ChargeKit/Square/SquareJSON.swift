/// Reads the `data` JSON of a Point of Sale answer: the members of one JSON object
/// (RFC 8259, strictly: valid UTF-8, every escape checked, at most 32 levels), each
/// string value kept and every other value (number, boolean, null, array, object)
/// checked and marked, on the text's bytes, without Foundation's `JSONSerialization`
/// (which made the answer ten times as costly to read).
enum SquareJSON {
    /// A member's value.
    enum Value: Equatable {
        case string(String)
        /// Any value that is not a string.
        case other
    }

    /// The members in order, or `nil` when `text` is not exactly one JSON object.
    static func members(of text: String) -> [(name: String, value: Value)]? {
        var text = text
        return text.withUTF8 { bytes in members(of: bytes) }
    }

    /// The members in order, or `nil` when the UTF-8 `bytes` are not exactly one JSON object.
    static func members(of bytes: UnsafeBufferPointer<UInt8>) -> [(name: String, value: Value)]? {
        var reader = Reader(bytes: bytes)
        reader.skipSpace()
        guard let members = reader.object(depth: 0) else { return nil }
        reader.skipSpace()
        return reader.index == bytes.count ? members : nil
    }

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        var index = 0
        static let maximumDepth = 32

        var next: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let byte = next, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard next == byte else { return false }
            index += 1
            return true
        }

        /// `{ "name": value, … }` (the `{` not yet read).
        mutating func object(depth: Int) -> [(name: String, value: Value)]? {
            guard depth < Self.maximumDepth, take(0x7B) else { return nil }
            var members: [(name: String, value: Value)] = []
            skipSpace()
            if take(0x7D) { return members }
            while true {
                skipSpace()
                guard let name = string() else { return nil }
                skipSpace()
                guard take(0x3A) else { return nil }
                skipSpace()
                guard let value = value(depth: depth + 1) else { return nil }
                members.append((name, value))
                skipSpace()
                if take(0x2C) { continue }
                return take(0x7D) ? members : nil
            }
        }

        mutating func value(depth: Int) -> Value? {
            switch next {
            case 0x22: return string().map(Value.string)
            case 0x7B: return object(depth: depth) == nil ? nil : .other
            case 0x5B: return array(depth: depth) ? .other : nil
            case 0x74: return literal("true") ? .other : nil
            case 0x66: return literal("false") ? .other : nil
            case 0x6E: return literal("null") ? .other : nil
            default: return number() ? .other : nil
            }
        }

        mutating func array(depth: Int) -> Bool {
            guard depth < Self.maximumDepth, take(0x5B) else { return false }
            skipSpace()
            if take(0x5D) { return true }
            while true {
                skipSpace()
                guard value(depth: depth + 1) != nil else { return false }
                skipSpace()
                if take(0x2C) { continue }
                return take(0x5D)
            }
        }

        mutating func literal(_ word: StaticString) -> Bool {
            let count = word.utf8CodeUnitCount
            guard index + count <= bytes.count else { return false }
            for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
            index += count
            return true
        }

        /// `-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?`
        mutating func number() -> Bool {
            _ = take(0x2D)
            guard let first = next, DecimalText.isDigit(first) else { return false }
            index += 1
            if first != 0x30 { while let byte = next, DecimalText.isDigit(byte) { index += 1 } }
            if take(0x2E) {
                guard digits() else { return false }
            }
            if take(0x65) || take(0x45) {
                if !take(0x2B) { _ = take(0x2D) }
                guard digits() else { return false }
            }
            return true
        }

        mutating func digits() -> Bool {
            let start = index
            while let byte = next, DecimalText.isDigit(byte) { index += 1 }
            return index > start
        }

        /// A string (the `"` not yet read), its escapes decoded; `nil` for a control
        /// character, a broken escape or a lone surrogate.
        mutating func string() -> String? {
            guard take(0x22) else { return nil }
            // The common case: one run of plain bytes, then the quote: the run is the string.
            guard let head = run() else { return nil }
            if take(0x22) { return head }
            var scalars = head.unicodeScalars
            while true {
                guard let byte = next, byte >= 0x20 else { return nil }
                if byte == 0x22 {
                    index += 1
                    return String(scalars)
                }
                if byte != 0x5C {
                    guard let text = run() else { return nil }
                    scalars.append(contentsOf: text.unicodeScalars)
                    continue
                }
                index += 1
                guard let escape = next else { return nil }
                index += 1
                switch escape {
                case 0x22: scalars.append("\"")
                case 0x5C: scalars.append("\\")
                case 0x2F: scalars.append("/")
                case 0x62: scalars.append("\u{08}")
                case 0x66: scalars.append("\u{0C}")
                case 0x6E: scalars.append("\n")
                case 0x72: scalars.append("\r")
                case 0x74: scalars.append("\t")
                case 0x75:
                    guard let unit = hex4() else { return nil }
                    if (0xD800...0xDBFF).contains(unit) {
                        guard take(0x5C), take(0x75), let low = hex4(), (0xDC00...0xDFFF).contains(low),
                              let scalar = Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)) else { return nil }
                        scalars.append(scalar)
                    } else {
                        guard let scalar = Unicode.Scalar(unit) else { return nil }
                        scalars.append(scalar)
                    }
                default: return nil
                }
            }
        }

        /// The plain bytes up to the next quote, escape or control character, validated
        /// as UTF-8 (ASCII, the commonest: ids, codes, the nonce, needs no validation).
        mutating func run() -> String? {
            let start = index
            while let byte = next, byte != 0x22, byte != 0x5C, byte >= 0x20 { index += 1 }
            let run = UnsafeBufferPointer(rebasing: bytes[start..<index])
            return run.allSatisfy { $0 < 0x80 } ? String(decoding: run, as: UTF8.self) : String(validating: run, as: UTF8.self)
        }

        mutating func hex4() -> UInt32? {
            guard index + 4 <= bytes.count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                let byte = bytes[index]
                let digit: UInt32
                switch byte {
                case 0x30...0x39: digit = UInt32(byte - 0x30)
                case 0x41...0x46: digit = UInt32(byte - 0x41 + 10)
                case 0x61...0x66: digit = UInt32(byte - 0x61 + 10)
                default: return nil
                }
                value = value << 4 | digit
                index += 1
            }
            return value
        }
    }
}
