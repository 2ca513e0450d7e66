import Foundation
import ChargeKitPlatform

/// A versioned JSON document in one file, shared safely between threads, ledger
/// instances and processes.
///
/// Every change goes through ``update(_:)``: it takes an exclusive `flock` on a
/// lock file beside the document (`<file>.lock`, which is never replaced, so every
/// process locks the same inode), reads the current contents, lets the caller change
/// them, and writes them durably: a temporary file in the same folder is written and
/// `fsync`ed, renamed over the document, and the folder is `fsync`ed, before the lock
/// is released. A process killed at any point leaves either the old or the new
/// document, never half of one (the next writer removes a killed writer's temporary
/// file); a change that fails (the caller throws, the disk is full, the result is too
/// large) leaves the document as it was.
///
/// Files and the folder are created readable by their owner only (0600 and 0700). A
/// document, lock or folder that another user could have planted or could change is
/// refused with ``ChargeKitError/storage(_:)`` naming the path and why: one owned by
/// another user, one writable by its group or others (`/tmp` itself included), a
/// symbolic link at the document's or the lock's path. Waiting for another process's
/// lock ends after ``lockTimeout``.
/// On Apple platforms the document gets `completeUntilFirstUserAuthentication` file
/// protection. Reads and writes are size-bounded: a write that would produce a file
/// larger than ``maximumFileSize`` is refused, so the file can always be read back.
@_spi(Tools) public struct AtomicJSONFile<Contents: Codable & Sendable>: Sendable {
    /// The file's location.
    @_spi(Tools) public let fileURL: URL
    /// The largest file it will read or write.
    @_spi(Tools) public let maximumFileSize: Int
    /// The format version written and the only one read.
    @_spi(Tools) public let version: Int
    /// What the file holds, for error messages (`ledger`, `pending orders`).
    @_spi(Tools) public let kind: String

    /// Describes a file; nothing is read or created until it is used.
    @_spi(Tools) public init(fileURL: URL, kind: String, version: Int = 1, maximumFileSize: Int = 8 * 1024 * 1024) {
        self.fileURL = fileURL
        self.kind = kind
        self.version = version
        self.maximumFileSize = maximumFileSize
    }

    private struct Envelope: Codable {
        var version: Int
        var contents: Contents
    }

    /// Reads the contents under a shared lock, or `nil` when the file does not exist.
    /// - Throws: ``ChargeKitError/corruptStorage(_:)`` when the file is too large, not
    ///   this kind of file or of another version; ``ChargeKitError/storage(_:)`` when it
    ///   cannot be read.
    @_spi(Tools) public func load() throws(ChargeKitError) -> Contents? {
        try withLock(exclusive: false) { () throws(ChargeKitError) in try read() }
    }

    /// Replaces the contents, under the lock.
    @_spi(Tools) public func save(_ contents: Contents) throws(ChargeKitError) {
        try update { (current: inout Contents?) throws(ChargeKitError) in current = contents }
    }

    /// Reads, changes and durably writes the contents as one step that no other thread
    /// or process can interleave with. `body` sees `nil` when the file does not exist;
    /// leaving it `nil` writes nothing. When `body` throws, nothing is written.
    @_spi(Tools) public func update<T>(_ body: (inout Contents?) throws(ChargeKitError) -> T) throws(ChargeKitError) -> T {
        try updateEncoded { (current: Contents?) throws(ChargeKitError) -> (T, Encoded?) in
            var contents = current
            let result = try body(&contents)
            return (result, try contents.map { contents throws(ChargeKitError) in try encoded(contents) })
        }
    }

    /// Contents encoded as the file stores them, ready to write: a caller that must
    /// know the size (to keep under a bound) encodes once and writes what it measured.
    @_spi(Tools) public struct Encoded {
        fileprivate let data: Data
        /// The size in bytes on disk.
        @_spi(Tools) public var size: Int { data.count }
    }

    /// `contents` encoded as the file stores them.
    @_spi(Tools) public func encoded(_ contents: Contents) throws(ChargeKitError) -> Encoded { Encoded(data: try encode(contents)) }

    /// Like ``update(_:)``, for a caller that encodes the new contents itself (see
    /// ``Encoded``): `body` returns its result and what to write, or `nil` to write nothing.
    package func updateEncoded<T>(_ body: (Contents?) throws(ChargeKitError) -> (T, Encoded?)) throws(ChargeKitError) -> T {
        try withLock(exclusive: true) { () throws(ChargeKitError) -> T in
            let (result, encoded) = try body(try read())
            if let encoded { try write(encoded.data) }
            return result
        }
    }

    // MARK: - Reading and writing

    private func read() throws(ChargeKitError) -> Contents? {
        let path = fileURL.path
        guard let descriptor = try StorageFiles.openTrusted(path, flags: O_RDONLY) else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .storage("cannot read \(path): \(String(cString: strerror(errno)))") }
        guard Int64(status.st_size) <= Int64(maximumFileSize) else {
            throw .corruptStorage("\(path) is larger than \(maximumFileSize) bytes")
        }
        let data = try StorageFiles.read(descriptor, at: 0, count: Int(status.st_size), path: path)
        let envelope: Envelope
        do {
            envelope = try JSONDecoder.storage.decode(Envelope.self, from: data)
        } catch {
            throw .corruptStorage("\(path) is not a ChargeKit \(kind) file: \(error)")
        }
        guard envelope.version == version else { throw .corruptStorage("\(path): unsupported version \(envelope.version)") }
        return envelope.contents
    }

    private func encode(_ contents: Contents) throws(ChargeKitError) -> Data {
        do {
            return try JSONEncoder.storage.encode(Envelope(version: version, contents: contents))
        } catch {
            throw .storage("cannot encode the \(kind): \(error)")
        }
    }

    private func write(_ data: Data) throws(ChargeKitError) {
        guard data.count <= maximumFileSize else {
            throw .storageFull("the \(kind) would be \(data.count) bytes, more than its bound of \(maximumFileSize)")
        }
        try StorageFiles.replace(fileURL, with: data)
    }

    // MARK: - Locking

    /// How long a caller waits for another process's lock before giving up (a
    /// `chargekit` stopped with ^Z holds it for as long as it stays stopped).
    package static var lockTimeout: Duration { StorageFiles.lockTimeout }

    private func withLock<T>(exclusive: Bool, _ body: () throws(ChargeKitError) -> T) throws(ChargeKitError) -> T {
        try StorageFiles.withLock(for: fileURL, exclusive: exclusive, body)
    }
}

extension JSONEncoder {
    static var storage: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}

extension JSONDecoder {
    static var storage: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
