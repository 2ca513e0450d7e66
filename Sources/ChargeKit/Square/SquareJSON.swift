/// Reads the `data` JSON of a Point of Sale answer: one JSON object (RFC 8259,
/// strictly: valid UTF-8, every escape checked, at most 32 levels), on the text's
/// bytes, without Foundation's `JSONSerialization` (which made the answer ten times as
/// costly to read). Every value is checked; strings are decoded in place and read
/// as places in the bytes, so that the caller makes a `String` only of those it keeps.
/// The bytes are an array: every index is checked.
enum SquareJSON {
    /// A member's value as read.
    enum Value: Equatable {
        /// A string: where its text (UTF-8, its escapes decoded) now lies in the bytes
        /// read, which are decoded in place (a string's text is never longer than what
        /// it was read from).
        case string(Range<Int>)
        /// Any value that is not a string.
        case other
    }

    /// Gives `keep` the value of each of the object's members named one of `names`
    /// (with the name's position in `names`), in order; whether the UTF-8 `bytes` are
    /// exactly one JSON object. The strings read are decoded in place in `bytes`.
    /// (The caller keeps what it is given where it likes: an array made here would
    /// cost as much as reading the object.)
    static func values(of bytes: inout [UInt8], named names: [StaticString], _ keep: (Int, Value) -> Void) -> Bool {
        read(&bytes, names: names) { name, reader in
            guard let slot = name.slot else { return reader.value(depth: 1) != nil }
            guard let value = reader.value(depth: 1) else { return false }
            keep(slot, value)
            return true
        }
    }

    /// The members in order, each with its text when it is a string, or `nil` when
    /// `text` is not exactly one JSON object.
    static func members(of text: String) -> [(name: String, string: String?)]? {
        var bytes = Array(text.utf8)
        var members: [(name: String, string: String?)] = []
        let read = read(&bytes, names: []) { name, reader in
            guard let value = reader.value(depth: 1) else { return false }
            let string: String? = if case .string(let place) = value { reader.text(place) } else { nil }
            members.append((reader.text(name.place), string))
            return true
        }
        return read ? members : nil
    }

    /// Reads `bytes` as one object, handing each member's name (its place, and its
    /// position in `names` if it is one of them) to `member`, which reads the value;
    /// whether the whole text is one object.
    private static func read(
        _ bytes: inout [UInt8], names: [StaticString], member: (Reader.Name, inout Reader) -> Bool
    ) -> Bool {
        // The reader holds the only reference while it decodes in place (no copy), then gives the bytes back.
        var reader = Reader(bytes: bytes)
        bytes = []
        defer { bytes = reader.bytes }
        reader.skipSpace()
        guard reader.object(depth: 0, names: names, member: member) else { return false }
        reader.skipSpace()
        return reader.index == reader.count
    }

    private struct Reader {
        var bytes: [UInt8]
        var count: Int { bytes.count }
        var index = 0
        static let maximumDepth = 32

        var next: UInt8? { index < count ? bytes[index] : nil }

        mutating func skipSpace() {
            while index < count {
                let byte = bytes[index]
                guard byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D else { return }
                index += 1
            }
        }

        mutating func take(_ byte: UInt8) -> Bool {
            guard index < count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        /// A member's name as read.
        struct Name {
            /// Where its text lies.
            var place: Range<Int>
            /// Its position among the names looked for, if it is one of them.
            var slot: Int?
        }

        /// A member's name (its `"` read). A name that is one of `names` as it stands,
        /// then a quote, is taken as it is; any other is read as a string (a name
        /// with an escape may still spell one of `names`).
        @inline(__always)
        mutating func name(in names: [StaticString]) -> Name? {
            let start = index
            for slot in names.indices {
                let length = names[slot].utf8CodeUnitCount, end = start + length
                guard end < count, bytes[end] == 0x22, spells(start..<end, names[slot]) else { continue }
                index = end + 1
                return Name(place: start..<end, slot: slot)
            }
            guard let place = string() else { return nil }
            return Name(place: place, slot: names.firstIndex { spells(place, $0) })
        }

        /// The text at `place`.
        func text(_ place: Range<Int>) -> String { String(decoding: bytes[place], as: UTF8.self) }

        /// Whether the bytes at `place` are `word`.
        func spells(_ place: Range<Int>, _ word: StaticString) -> Bool {
            place.count == word.utf8CodeUnitCount && word.withSpan { word in
                place.indices.allSatisfy { bytes[$0] == word[$0 - place.lowerBound] }
            }
        }

        /// `{ "name": value, … }` (the `{` not yet read), each member's value read by
        /// `member`.
        mutating func object(depth: Int, names: [StaticString] = [], member: (Name, inout Reader) -> Bool) -> Bool {
            guard depth < Self.maximumDepth, take(0x7B) else { return false }
            skipSpace()
            if take(0x7D) { return true }
            while true {
                skipSpace()
                guard take(0x22), let name = name(in: names) else { return false }
                skipSpace()
                guard take(0x3A) else { return false }
                skipSpace()
                guard member(name, &self) else { return false }
                skipSpace()
                if take(0x2C) { continue }
                return take(0x7D)
            }
        }

        /// A value.
        mutating func value(depth: Int) -> Value? {
            switch next {
            case 0x22:
                index += 1
                return string().map(Value.string)
            case 0x7B: return object(depth: depth) { _, reader in reader.value(depth: depth + 1) != nil } ? .other : nil
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
            let length = word.utf8CodeUnitCount
            guard index + length <= count, spells(index..<(index + length), word) else { return false }
            index += length
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

        /// A string's rest (its `"` read): the place of its text, its escapes decoded
        /// in place; `nil` for a control character, a broken escape, a lone surrogate
        /// or bytes that are not UTF-8.
        mutating func string() -> Range<Int>? {
            let start = index
            // The common case: one run of plain ASCII, then the quote.
            if run(), take(0x22) { return start..<(index - 1) }
            index = start
            var written = start
            while true {
                let plain = index
                if !run(), !Self.isUTF8(bytes[plain..<index]) { return nil }
                if written < plain {
                    for offset in 0..<(index - plain) { bytes[written + offset] = bytes[plain + offset] }
                }
                written += index - plain
                guard let byte = next, byte >= 0x20 else { return nil }
                index += 1
                if byte == 0x22 { return start..<written }
                // byte is a backslash: `run` stops only at a quote, a backslash or a control character.
                guard let scalar = escape() else { return nil }
                // An escape is longer than its UTF-8 (`\n` gives one byte, `\u00E9` two, two `\u`s four).
                UTF8.encode(scalar) { byte in
                    bytes[written] = byte
                    written += 1
                }
            }
        }

        /// Whether `bytes` are UTF-8.
        static func isUTF8(_ bytes: ArraySlice<UInt8>) -> Bool {
            var parser = Unicode.UTF8.ForwardParser(), bytes = bytes.makeIterator()
            while true {
                switch parser.parseScalar(from: &bytes) {
                case .valid: continue
                case .emptyInput: return true
                case .error: return false
                }
            }
        }

        /// The escape after a backslash.
        mutating func escape() -> Unicode.Scalar? {
            guard let escape = next else { return nil }
            index += 1
            switch escape {
            case 0x22: return "\""
            case 0x5C: return "\\"
            case 0x2F: return "/"
            case 0x62: return "\u{08}"
            case 0x66: return "\u{0C}"
            case 0x6E: return "\n"
            case 0x72: return "\r"
            case 0x74: return "\t"
            case 0x75:
                guard let unit = hex4() else { return nil }
                guard (0xD800...0xDBFF).contains(unit) else { return Unicode.Scalar(unit) }
                guard take(0x5C), take(0x75), let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return nil }
                return Unicode.Scalar(0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00))
            default: return nil
            }
        }

        /// Moves past the plain bytes up to the next quote, backslash or control
        /// character (or the end); whether they were all ASCII.
        mutating func run() -> Bool {
            var ascii = true
            while index < count {
                let byte = bytes[index]
                if byte == 0x22 || byte == 0x5C || byte < 0x20 { break }
                if byte >= 0x80 { ascii = false }
                index += 1
            }
            return ascii
        }

        mutating func hex4() -> UInt32? {
            guard index + 4 <= count else { return nil }
            var value: UInt32 = 0
            for _ in 0..<4 {
                guard let digit = PercentEncoding.hexValue(bytes[index]) else { return nil }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            return value
        }
    }
}
