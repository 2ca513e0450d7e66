/// Writes bytes into a buffer the caller sized (with room for the worst case), for
/// building a string in one allocation with `String(unsafeUninitializedCapacity:)`.
struct ByteWriter {
    private let buffer: UnsafeMutableBufferPointer<UInt8>
    /// The number of bytes written.
    private(set) var count = 0

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) { self.buffer = buffer }

    mutating func append(_ byte: UInt8) {
        buffer[count] = byte
        count += 1
    }

    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        UnsafeMutableRawPointer(buffer.baseAddress.unsafelyUnwrapped + count).copyMemory(from: source, byteCount: bytes.count)
        count += bytes.count
    }

    mutating func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Appends `text` percent-encoded (see `PercentEncoding`): up to three bytes for each of its bytes.
    mutating func appendPercentEncoded(_ text: String) {
        var text = text
        text.withUTF8 { bytes in
            for byte in bytes {
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
}
