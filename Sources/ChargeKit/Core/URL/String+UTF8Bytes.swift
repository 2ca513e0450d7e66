extension String {
    /// Runs `body` on the string's UTF-8 bytes (made contiguous first, when they are
    /// not), passing its ``ChargeKitError`` through: `withUTF8` itself only rethrows an
    /// untyped error.
    func withUTF8Bytes<T>(_ body: (UnsafeBufferPointer<UInt8>) throws(ChargeKitError) -> T) throws(ChargeKitError) -> T {
        var text = self
        return try text.withUTF8 { bytes in Result { () throws(ChargeKitError) in try body(bytes) } }.get()
    }
}
