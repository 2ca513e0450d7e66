import ChargeKitPlatform

/// The system's cryptographically secure generator, a buffer at a time.
enum SecureRandom {
    /// Fills `bytes` with random bytes: one `arc4random_buf` on Apple platforms, one
    /// `getrandom` on Linux (never cut short below 256 bytes).
    static func fill(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { buffer in
            guard let base = buffer.baseAddress else { return }
            #if canImport(Darwin)
            arc4random_buf(base, buffer.count)
            #else
            var done = 0
            if let getrandom = Self.getrandom {
                while done < buffer.count {
                    let count = getrandom(base + done, buffer.count - done, 0)
                    if count > 0 { done += count } else if count < 0 && errno != EINTR { break }
                }
            }
            // No getrandom (an old C library, a seccomp filter): the standard library's
            // generator, eight bytes a call.
            var generator = SystemRandomNumberGenerator()
            for index in done..<buffer.count { buffer[index] = generator.next() }
            #endif
        }
    }

    #if !canImport(Darwin)
    /// glibc's and musl's `getrandom(2)` wrapper, which the Swift module of the C library
    /// does not import.
    private static let getrandom: (@convention(c) (UnsafeMutableRawPointer?, Int, UInt32) -> Int)? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "getrandom") else { return nil }
        return unsafeBitCast(symbol, to: (@convention(c) (UnsafeMutableRawPointer?, Int, UInt32) -> Int).self)
    }()
    #endif
}
