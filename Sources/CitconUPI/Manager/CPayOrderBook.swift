@_spi(Tools) import ChargeKit
import Foundation

/// The orders a ``CPayManager`` handed to a wallet and that are not answered yet: kept
/// in the pending-order store (so that a restart loses none), with the waiter of each
/// and the ones being answered right now (so that each return is answered once).
final class CPayOrderBook: @unchecked Sendable {
    /// What a waiting ``CPayManager/requestOrder(_:)`` is told.
    typealias Waiter = @Sendable (Result<CPayResult, CPayError>) -> Void

    /// Where the orders are kept.
    let store: any CPayPendingOrderStore
    /// Told when the store fails (set right after init; read and written under the lock,
    /// so that setting it later is no data race either).
    var onStorageError: (@Sendable (ChargeKitError) -> Void)? {
        get { lock.withLock { storageErrorHandler } }
        set { lock.withLock { storageErrorHandler = newValue } }
    }
    private var storageErrorHandler: (@Sendable (ChargeKitError) -> Void)?
    private let lock = NSLock()
    private var claimed: Set<String> = []
    private var waiters: [String: Waiter] = [:]

    init(store: any CPayPendingOrderStore) {
        self.store = store
    }

    /// Keeps the order in the store (outside the lock: no file I/O while holding it),
    /// then registers its waiter.
    func record(_ order: CPayPendingOrder, waiter: @escaping Waiter) throws(CPayError) {
        do throws(ChargeKitError) { try store.insert(order) } catch { throw CPayError.storage(error.description) }
        lock.withLock { waiters[order.id] = waiter }
    }

    /// The stored orders; a store failure is reported and reads as none.
    func stored() -> [CPayPendingOrder] {
        do throws(ChargeKitError) { return try store.load() } catch {
            onStorageError?(error)
            return []
        }
    }

    /// Removes an order from the store; `true` when this call removed it.
    func remove(_ id: String) -> Bool {
        do throws(ChargeKitError) { return try store.remove(id: id) } catch {
            onStorageError?(error)
            return false
        }
    }

    /// Marks an order as being answered; `false` when it already is.
    func claim(_ id: String) -> Bool {
        lock.withLock { claimed.insert(id).inserted }
    }

    /// The stored order a return URL belongs to, marked as being answered; `nil` for
    /// a URL of no waiting order, or of one already being answered.
    func claim(returnURL url: URL) -> CPayPendingOrder? {
        guard let query = try? QueryURL(parsing: url.absoluteString) else { return nil }
        let ids = query.items.filter { $0.name == "charge_id" }.map(\.value)
        guard ids.count == 1, let id = ids.first else { return nil }
        guard let order = stored().first(where: { $0.id == id }),
              Self.sameEndpoint(url.absoluteString, order.returnURL),
              claim(id)
        else { return nil }
        return order
    }

    /// Ends the answering of an order and hands back its waiter (`keepWaiter` leaves
    /// the waiter registered, for an order that is still pending).
    func release(_ id: String, keepWaiter: Bool = false) -> Waiter? {
        lock.withLock {
            claimed.remove(id)
            return keepWaiter ? nil : waiters.removeValue(forKey: id)
        }
    }

    /// The wallet could not be opened: the order is forgotten and its waiter told.
    func fail(_ id: String, _ error: CPayError) {
        let waiter = lock.withLock { waiters.removeValue(forKey: id) }
        _ = remove(id)
        waiter?(.failure(error))
    }

    /// Whether `url` is `returnURL` plus a query: same scheme, host and path.
    static func sameEndpoint(_ url: String, _ returnURL: String) -> Bool {
        func base(_ text: String) -> Substring {
            let end = text.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? text.endIndex
            var base = text[..<end]
            while base.hasSuffix("/") { base = base.dropLast() }
            return base
        }
        return base(url).lowercased() == base(returnURL).lowercased()
    }
}
