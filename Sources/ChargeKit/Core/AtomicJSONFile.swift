import Foundation

/// A versioned JSON document in one file, replaced atomically on every save (written to
/// a temporary file, then renamed), so a crash leaves either the old or the new
/// contents, never half. Reads are size-bounded. Used by ``FileLedgerStore`` and by the
/// Citcon SDK's pending-order store.
public struct AtomicJSONFile<Contents: Codable & Sendable>: Sendable {
    /// The file's location.
    public let fileURL: URL
    /// The largest file it will read; a larger one is refused.
    public let maximumFileSize: Int
    /// The format version written and the only one read.
    public let version: Int
    /// What the file holds, for error messages (`ledger`, `pending orders`).
    public let kind: String

    /// Describes a file; nothing is read or created until ``load()`` or ``save(_:)``.
    public init(fileURL: URL, kind: String, version: Int = 1, maximumFileSize: Int = 8 * 1024 * 1024) {
        self.fileURL = fileURL
        self.kind = kind
        self.version = version
        self.maximumFileSize = maximumFileSize
    }

    private struct Envelope: Codable {
        var version: Int
        var contents: Contents
    }

    /// Reads the contents, or `nil` when the file does not exist yet.
    /// - Throws: ``ChargeKitError/storage(_:)`` when the file is too large, unreadable,
    ///   not this kind of file or of another version.
    public func load() throws(ChargeKitError) -> Contents? {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return nil }
        let data: Data
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: fileURL.path)
            if let size = attributes[.size] as? NSNumber, size.intValue > maximumFileSize {
                throw ChargeKitError.storage("\(fileURL.path) is larger than \(maximumFileSize) bytes")
            }
            data = try Data(contentsOf: fileURL)
        } catch let error as ChargeKitError {
            throw error
        } catch {
            throw .storage("cannot read \(fileURL.path): \(error.localizedDescription)")
        }
        do {
            let file = try JSONDecoder.storage.decode(Envelope.self, from: data)
            guard file.version == version else {
                throw ChargeKitError.storage("\(fileURL.path): unsupported version \(file.version)")
            }
            return file.contents
        } catch let error as ChargeKitError {
            throw error
        } catch {
            throw .storage("\(fileURL.path) is not a ChargeKit \(kind) file: \(error)")
        }
    }

    /// Replaces the contents atomically.
    public func save(_ contents: Contents) throws(ChargeKitError) {
        do {
            let data = try JSONEncoder.storage.encode(Envelope(version: version, contents: contents))
            try data.write(to: fileURL, options: .atomic)
        } catch {
            throw .storage("cannot write \(fileURL.path): \(error.localizedDescription)")
        }
    }
}

extension JSONEncoder {
    static var storage: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
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
