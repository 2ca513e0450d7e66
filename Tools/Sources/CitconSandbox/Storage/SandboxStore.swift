import Foundation

/// The sandbox's storage, each part a protocol of its own so that a caller (and a test
/// double) needs only the part it uses: ``CredentialStore``, ``ChargeStore``,
/// ``OutboxStore`` and ``ListenerStore``. SQLite (``SQLiteSandboxStore``) is the
/// default; another engine implements this protocol, and `SandboxStoreConformance`
/// checks it.
public protocol SandboxStore: CredentialStore, ChargeStore, OutboxStore, ListenerStore {
    /// Creates or migrates the schema; returns the schema version.
    @discardableResult
    func migrate() async throws -> Int
    /// Finishes the queued work and closes the storage.
    func close()
}
