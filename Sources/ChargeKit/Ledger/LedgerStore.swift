import Foundation

/// Where a ``ChargeLedger`` keeps its pending charges.
///
/// A store loads and saves the whole set; the ledger calls ``save(_:)`` after every
/// change, before it answers. Implement it to keep the ledger in a database or the
/// keychain.
public protocol LedgerStore: Sendable {
    /// Every charge stored, outstanding or consumed.
    func load() async throws(ChargeKitError) -> [PendingCharge]
    /// Replaces the stored set.
    func save(_ charges: [PendingCharge]) async throws(ChargeKitError)
}

/// A store in memory: for tests, and for apps that accept losing pending charges on restart.
public actor InMemoryLedgerStore: LedgerStore {
    private var charges: [PendingCharge]

    /// Makes a store holding `charges`.
    public init(_ charges: [PendingCharge] = []) { self.charges = charges }

    public func load() -> [PendingCharge] { charges }
    public func save(_ charges: [PendingCharge]) { self.charges = charges }
}

/// A store in one JSON file, replaced atomically on every save (write to a temporary
/// file, then rename), so a crash leaves either the old or the new ledger, never half.
/// It survives a process restart.
public struct FileLedgerStore: LedgerStore {
    /// The file's location.
    public let fileURL: URL
    /// The largest file it will read (8 MiB by default); a larger one is refused.
    public let maximumFileSize: Int

    /// Makes a store at `fileURL`; the file is created on the first save.
    public init(fileURL: URL, maximumFileSize: Int = 8 * 1024 * 1024) {
        self.fileURL = fileURL
        self.maximumFileSize = maximumFileSize
    }

    /// Makes a store at a file path.
    public init(path: String) { self.init(fileURL: URL(fileURLWithPath: path)) }

    private struct File: Codable {
        var version: Int
        var charges: [PendingCharge]
    }

    public func load() throws(ChargeKitError) -> [PendingCharge] {
        guard FileManager.default.fileExists(atPath: fileURL.path) else { return [] }
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
            let file = try JSONDecoder.ledger.decode(File.self, from: data)
            guard file.version == 1 else { throw ChargeKitError.storage("\(fileURL.path): unsupported version \(file.version)") }
            return file.charges
        } catch let error as ChargeKitError {
            throw error
        } catch {
            throw .storage("\(fileURL.path) is not a ChargeKit ledger: \(error)")
        }
    }

    public func save(_ charges: [PendingCharge]) throws(ChargeKitError) {
        do {
            let data = try JSONEncoder.ledger.encode(File(version: 1, charges: charges))
            try data.write(to: fileURL, options: .atomic)
        } catch {
            throw .storage("cannot write \(fileURL.path): \(error.localizedDescription)")
        }
    }
}

extension JSONEncoder {
    static var ledger: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }
}

extension JSONDecoder {
    static var ledger: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
