@_spi(Tools) @testable import ChargeKit
import ChargeKitTesting
import Foundation
import Testing

/// Every store this repository ships, as a backend of the conformance suite. A new
/// store joins by adding one case.
enum LedgerBackend: String, CaseIterable, CustomStringConvertible, Sendable {
    case inMemory, file

    var description: String { rawValue }

    /// A fresh storage: the closure opens a new handle on it each time it is called.
    func storage() -> @Sendable () async throws -> any LedgerStore {
        switch self {
        case .inMemory:
            let store = InMemoryLedgerStore()
            return { store }
        case .file:
            let url = FileManager.default.temporaryDirectory
                .appendingPathComponent("conformance-\(UUID().uuidString)/ledger.json")
            return { FileLedgerStore(fileURL: url) }
        }
    }
}

@Suite("LedgerStore conformance")
struct LedgerStoreConformanceTests {
    @Test(arguments: LedgerStoreConformance.checks, LedgerBackend.allCases)
    func conforms(check: LedgerStoreConformance.Check, backend: LedgerBackend) async throws {
        try await check.run(backend.storage())
    }
}

/// A store that forgets consumption: the suite must catch it.
struct ForgetfulStore: LedgerStore {
    let inner = InMemoryLedgerStore()
    func insert(_ charge: PendingCharge, now: Date, retention: TimeInterval) async throws(ChargeKitError) {
        try await inner.insert(charge, now: now, retention: retention)
    }
    func charge(for nonce: Nonce) async throws(ChargeKitError) -> PendingCharge? { await inner.charge(for: nonce) }
    func consume(_ nonce: Nonce, at date: Date, accepting accepted: AcceptedCallback?) async throws(ChargeKitError) -> PendingCharge {
        guard let charge = await inner.charge(for: nonce) else { throw .unknownNonce }
        return charge  // never marked consumed: a replay would pass
    }
    func charges() async throws(ChargeKitError) -> [PendingCharge] { await inner.charges() }
}

@Suite("The conformance suite can fail")
struct ConformanceSuiteCanFail {
    @Test func aStoreThatForgetsConsumptionFails() async throws {
        let store = ForgetfulStore()
        let check = try #require(LedgerStoreConformance.checks.first { $0.name.hasPrefix("a callback is accepted once") })
        await #expect(throws: LedgerStoreConformanceFailure.self) { try await check.run { store } }
    }
}
