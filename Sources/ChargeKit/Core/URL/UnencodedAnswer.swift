/// The answer of an app that writes values unencoded (Viva.com Terminal): a raw space
/// becomes `%20` and a `%` that starts no escape `%25`, so that the one URL reader
/// reads it; everything else (`*`, `+`, non-ASCII) is kept as sent.
enum UnencodedAnswer {
    /// The escaped text, or `nil` when there is nothing to escape.
    static func escaped(_ url: String) -> String? {
        let bytes = Array(url.utf8)
        guard bytes.contains(0x20) || bytes.contains(0x25) else { return nil }
        func isHex(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) || (0x41...0x46).contains(byte) || (0x61...0x66).contains(byte) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var changed = false
        for index in bytes.indices {
            let byte = bytes[index]
            if byte == 0x20 {
                out += [0x25, 0x32, 0x30]
                changed = true
            } else if byte == 0x25, !(index + 2 < bytes.count && isHex(bytes[index + 1]) && isHex(bytes[index + 2])) {
                out += [0x25, 0x32, 0x35]
                changed = true
            } else {
                out.append(byte)
            }
        }
        return changed ? String(decoding: out, as: UTF8.self) : nil
    }
}
