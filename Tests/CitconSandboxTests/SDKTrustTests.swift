import ChargeKit
import CitconSandbox
import CitconUPI
import Foundation
import Testing

/// A pending-order store that fails or blocks on demand.
final class FaultyStore: CPayPendingOrderStore, @unchecked Sendable {
    private let lock = NSLock()
    private let inner = CPayMemoryPendingOrderStore()
    var failRemove = false
    let insertEntered = DispatchSemaphore(value: 0)
    let releaseInsert = DispatchSemaphore(value: 0)
    var blockInsert = false

    func load() throws(ChargeKitError) -> [CPayPendingOrder] { inner.load() }
    func insert(_ order: CPayPendingOrder) throws(ChargeKitError) {
        if lock.withLock({ blockInsert }) {
            insertEntered.signal()
            releaseInsert.wait()
        }
        inner.insert(order)
    }
    func remove(id: String) throws(ChargeKitError) -> Bool {
        if lock.withLock({ failRemove }) { throw .storage("disk full (test)") }
        return inner.remove(id: id)
    }
}

@Suite("Citcon SDK: what a result can be trusted for")
struct SDKTrustTests {
    @Test("No wallet opener: the charge is not confirmed, so a retry with an opener still pays")
    func missingOpenerDoesNotUseTheCharge() async throws {
        let setup = try await SDKSetup.start()
        defer { Task { await setup.stop() } }
        let manager = CPayManager(notificationCenter: NotificationCenter())
        manager.callbackQueue = SDKSetup.queue
        manager.setBaseURL(setup.harness.sandbox.baseURL)
        manager.setAccessToken(setup.clientToken)
        let order = try await setup.order()
        await #expect(throws: CPayError.walletUnavailable(.openFailed("no URLOpener set on CPayManager"))) {
            try await manager.requestOrder(order)
        }
        manager.opener = HeadlessWallet(always: .pay) { url in manager.handle(url: url) }
        let result = try await manager.requestOrder(order)
        #expect(result.isPaid, "the retry was refused: \(String(describing: result.data?.message))")
    }

    @Test("NTFY_ASYNC is posted once per order, however many managers resume it at once")
    func notifiedOnceAcrossManagers() async throws {
        let setup = try await SDKSetup.start()
        defer { Task { await setup.stop() } }
        let file = setup.harness.directory.appendingPathComponent("orders/pending.json")
        let opened = Events()
        let first = setup.manager(store: CPayFilePendingOrderStore(fileURL: file), events: Events()) { url in
            opened.add(url)
            return nil
        }
        let waiting = Task { try await first.requestOrder(try await setup.order()) }
        #expect(await eventually { first.pendingOrders().count == 1 })
        let id = try #require(first.pendingOrders().first?.id)
        #expect(try await setup.harness.wallet(id, "pay").status == 303)
        // Three "processes" resume at the same moment.
        let events = Events()
        let managers = (0..<3).map { _ in setup.manager(store: CPayFilePendingOrderStore(fileURL: file), events: events) { _ in nil } }
        await withTaskGroup(of: Void.self) { group in
            for manager in managers { group.addTask { _ = await manager.resumePendingOrders() } }
        }
        #expect(await eventually { events.all.count >= 1 })
        try await Task.sleep(for: .milliseconds(200))
        #expect(events.all == ["async:succeeded"])
        // After a "restart", nothing is posted again.
        let later = Events()
        let restarted = setup.manager(store: CPayFilePendingOrderStore(fileURL: file), events: later) { _ in nil }
        #expect(await restarted.resumePendingOrders().isEmpty)
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        waiting.cancel()
    }

    @Test("A store that fails is reported (NTFY_STORAGE_ERROR), and the order is kept for a later resume")
    func storeErrorsAreReported() async throws {
        let setup = try await SDKSetup.start()
        defer { Task { await setup.stop() } }
        let store = FaultyStore()
        let events = Events()
        let errors = Events()
        let manager = setup.manager(store: store, events: events) { _ in .pay }
        _ = manager.notificationCenter.addObserver(forName: Notification.Name(CPayManager.NTFY_STORAGE_ERROR()), object: nil, queue: nil) { note in
            errors.add((note.object as? CPayError)?.description ?? "?")
        }
        store.failRemove = true
        let result = try await manager.requestOrder(try await setup.order())
        #expect(result.isPaid)
        #expect(await eventually { !errors.all.isEmpty })
        #expect(errors.all.first?.contains("disk full (test)") == true)
        #expect(!events.all.contains("async:succeeded"), "not removed, so not notified yet")
        store.failRemove = false
        #expect(await manager.resumePendingOrders().first?.data?.status == .succeeded)
        #expect(await eventually { events.all.filter { $0 == "async:succeeded" }.count == 1 })
    }

    @Test("The manager holds no lock while its store does I/O")
    func noStoreIOUnderTheLock() async throws {
        let setup = try await SDKSetup.start()
        defer { Task { await setup.stop() } }
        let store = FaultyStore()
        store.blockInsert = true
        let manager = setup.manager(store: store, events: Events()) { _ in .pay }
        let order = try await setup.order()
        let waiting = Task { try await manager.requestOrder(order) }
        let entered = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: store.insertEntered.wait(timeout: .now() + 20) == .success) }
        }
        #expect(entered)
        // While the store is stuck in insert, the manager still answers.
        let answered = await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                let done = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    _ = manager.baseURL
                    _ = manager.pendingOrders()
                    done.signal()
                }
                continuation.resume(returning: done.wait(timeout: .now() + 10) == .success)
            }
        }
        #expect(answered, "a manager call waited for the store's I/O")
        store.releaseInsert.signal()
        #expect(try await waiting.value.isPaid)
    }
}
