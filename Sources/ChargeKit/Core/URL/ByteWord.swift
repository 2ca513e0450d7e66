/// Tests of eight ASCII bytes at once, packed in a word (the first byte lowest): each
/// gives the high bit of every byte that passes it. Exact for bytes below 0x80 (no
/// byte carries into the next); ``FieldRules/all(_:_:)`` refuses the others first.
enum ByteWord {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The bytes that are ASCII digits: 0x30 or more, and not 0x3A or more.
    @inline(__always)
    static func digits(_ word: UInt64) -> UInt64 {
        (word &+ ones &* (0x80 - 0x30)) & ~(word &+ ones &* (0x80 - 0x3A)) & highs
    }

    /// The bytes equal to `byte`.
    @inline(__always)
    static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let difference = word ^ (ones &* UInt64(byte))
        return ~(((difference & ~highs) &+ ~highs) | difference) & highs
    }
}
