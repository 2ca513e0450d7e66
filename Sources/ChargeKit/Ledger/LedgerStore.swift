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
    public var fileURL: URL { file.fileURL }
    /// The largest file it will read (8 MiB by default); a larger one is refused.
    public var maximumFileSize: Int { file.maximumFileSize }
    private let file: AtomicJSONFile<[PendingCharge]>

    /// Makes a store at `fileURL`; the file is created on the first save.
    public init(fileURL: URL, maximumFileSize: Int = 8 * 1024 * 1024) {
        file = AtomicJSONFile(fileURL: fileURL, kind: "ledger", maximumFileSize: maximumFileSize)
    }

    /// Makes a store at a file path.
    public init(path: String) { self.init(fileURL: URL(fileURLWithPath: path)) }

    public func load() throws(ChargeKitError) -> [PendingCharge] { try file.load() ?? [] }

    public func save(_ charges: [PendingCharge]) throws(ChargeKitError) { try file.save(charges) }
}
