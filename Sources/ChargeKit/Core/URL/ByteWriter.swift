/// Builds a string's UTF-8 bytes, for a request URL made in one piece.
struct ByteWriter {
    /// The bytes written.
    private(set) var bytes: [UInt8] = []

    /// A writer with room for `capacity` bytes.
    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    /// The number of bytes written.
    var count: Int { bytes.count }

    /// The bytes written, as a string (they are UTF-8: only strings' bytes and ASCII are written).
    var string: String { String(decoding: bytes, as: UTF8.self) }

    mutating func append(_ byte: UInt8) { bytes.append(byte) }

    mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

    mutating func append(_ text: StaticString) { text.withSpan { append($0) } }

    mutating func append(_ span: Span<UInt8>) {
        for index in span.indices { bytes.append(span[index]) }
    }

    /// Appends `text` percent-encoded (see `PercentEncoding`): up to three bytes for each of its bytes.
    mutating func appendPercentEncoded(_ text: String) {
        for byte in text.utf8 {
            if PercentEncoding.isUnreserved(byte) {
                append(byte)
            } else {
                append(0x25)
                append(PercentEncoding.hexDigit(byte >> 4))
                append(PercentEncoding.hexDigit(byte))
            }
        }
    }
}
