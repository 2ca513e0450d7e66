// The one file of ChargeKit that reaches memory through a pointer (FuzzCallbacks and
// FuzzQueryURL fuzz every reading path through it). Everything else reads bytes as a
// `Span<UInt8>`, which checks every index and cannot outlive what it reads, or as an
// array. Here are the bridges between strings, arrays and spans, each a line or two
// (the standard library's own, `String.utf8.span` and `Array.span`, need iOS 26 and
// the SDK supports iOS 15), percent-decoding's copy (a callback's busiest loop), and
// the two system calls that read and write a file's bytes.

import ChargeKitPlatform
import Foundation

extension String {
    /// Runs `body` on the string's UTF-8 bytes (made contiguous first when they are
    /// not), passing its typed error through (`withUTF8` only rethrows an untyped one).
    @inline(__always)
    func withUTF8Span<T, E: Error>(_ body: (Span<UInt8>) throws(E) -> T) throws(E) -> T {
        var text = self
        return try text.withUTF8 { buffer in Result { () throws(E) -> T in try body(Span(_unsafeElements: buffer)) } }.get()
    }

    /// The text of UTF-8 bytes (any that are not UTF-8 repaired, as
    /// `String(decoding:as:)` does; the reader's bytes were cut from a Swift string at
    /// ASCII delimiters, so they are UTF-8).
    @inline(__always)
    init(utf8 bytes: Span<UInt8>) {
        self = bytes.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
    }
}

extension Span<UInt8> {
    /// The bytes with each `%XX` escape decoded, and whether every escape gave an ASCII
    /// byte; `nil` at a `%` not followed by two hex digits (``PercentEncoding/unescape(_:)``).
    ///
    /// Plain bytes are copied eight at a time while eight are left, the first `%` of a
    /// word found with one subtraction (the output never gets ahead of the input, so a
    /// whole word always fits, and what it writes past the `%` is overwritten next).
    func percentDecoded() -> (bytes: [UInt8], ascii: Bool)? {
        withUnsafeBufferPointer { input -> (bytes: [UInt8], ascii: Bool)? in
            let count = input.count
            guard let from = input.baseAddress, count > 0 else { return ([], true) }
            var failed = false, decodedBits: UInt8 = 0
            let output = [UInt8](unsafeUninitializedCapacity: count) { buffer, written in
                written = 0
                guard let out = buffer.baseAddress else { return }
                var index = 0
                PercentEncoding.hexValues.withUnsafeBufferPointer { values in
                    while index < count {
                        while index &+ 8 <= count {
                            let word = UnsafeRawPointer(from + index).loadUnaligned(as: UInt64.self)
                            UnsafeMutableRawPointer(out + written).storeBytes(of: word, as: UInt64.self)
                            // A zero byte of `word ^ %%%%%%%%` is a `%`: the lowest high bit marks the first.
                            let percents = UInt64(littleEndian: word) ^ 0x2525_2525_2525_2525
                            let first = (percents &- 0x0101_0101_0101_0101) & ~percents & 0x8080_8080_8080_8080
                            guard first == 0 else {
                                let plain = first.trailingZeroBitCount &>> 3
                                index &+= plain
                                written &+= plain
                                break
                            }
                            index &+= 8
                            written &+= 8
                        }
                        while index < count && from[index] != 0x25 {
                            out[written] = from[index]
                            index &+= 1
                            written &+= 1
                        }
                        // The escapes here, as many as come one after another (`%22%3A%22`).
                        while index < count && from[index] == 0x25 {
                            guard index &+ 2 < count else { failed = true; return }
                            let high = from[index &+ 1], low = from[index &+ 2]
                            // A byte of 0x80 or more keeps its high bit, and so is refused with the rest.
                            let highValue = values[Int(high & 0x7F)] | high & 0x80, lowValue = values[Int(low & 0x7F)] | low & 0x80
                            guard highValue | lowValue < 0x10 else { failed = true; return }
                            let decoded = highValue &<< 4 | lowValue
                            decodedBits |= decoded
                            out[written] = decoded
                            written &+= 1
                            index &+= 3
                        }
                    }
                }
            }
            return failed ? nil : (output, decodedBits < 0x80)
        }
    }
}

extension Array<UInt8> {
    /// Runs `body` on the array's bytes.
    @inline(__always)
    func withSpan<T, E: Error>(_ body: (Span<UInt8>) throws(E) -> T) throws(E) -> T {
        try withUnsafeBufferPointer { buffer in Result { () throws(E) -> T in try body(Span(_unsafeElements: buffer)) } }.get()
    }
}

extension StaticString {
    /// Runs `body` on the literal's UTF-8 bytes.
    @inline(__always)
    func withSpan<T>(_ body: (Span<UInt8>) -> T) -> T {
        withUTF8Buffer { body(Span(_unsafeElements: $0)) }
    }
}

extension StorageFiles {
    /// Reads `count` bytes of `descriptor` from `offset` (fewer when the file ends first).
    static func read(_ descriptor: Int32, at offset: Int, count: Int, path: String) throws(ChargeKitError) -> Data {
        var data = Data(count: count)
        var done = 0
        let failed = data.withUnsafeMutableBytes { (buffer: UnsafeMutableRawBufferPointer) -> Bool in
            while done < count {
                let n = pread(descriptor, buffer.baseAddress.map { $0 + done }, count - done, off_t(offset + done))
                if n < 0 { if errno == EINTR { continue }; return true }
                if n == 0 { break }
                done += n
            }
            return false
        }
        if failed { throw .storage("cannot read \(path): \(String(cString: strerror(errno)))") }
        data.count = done
        return data
    }

    /// Writes all of `data` at `offset` (appending at the end when `nil`).
    static func write(_ data: Data, to descriptor: Int32, at offset: off_t? = nil) -> Bool {
        data.withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Bool in
            var done = 0
            while done < buffer.count {
                let start = buffer.baseAddress.map { $0 + done }
                let n = offset.map { pwrite(descriptor, start, buffer.count - done, $0 + off_t(done)) }
                    ?? Foundation.write(descriptor, start, buffer.count - done)
                if n < 0 { if errno == EINTR { continue }; return false }
                done += n
            }
            return true
        }
    }
}
