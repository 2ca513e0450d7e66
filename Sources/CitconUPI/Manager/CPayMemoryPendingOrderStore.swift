@_spi(Tools) import ChargeKit
import Foundation

/// A store that lives as long as the process (the default: like the original SDK).
public final class CPayMemoryPendingOrderStore: CPayPendingOrderStore, @unchecked Sendable {
    private let lock = NSLock()
    private var orders: [String: CPayPendingOrder] = [:]

    /// Makes an empty store.
    public init() {}

    public func load() -> [CPayPendingOrder] { lock.withLock { Array(orders.values) } }
    public func insert(_ order: CPayPendingOrder) { lock.withLock { orders[order.id] = order } }
    public func remove(id: String) -> Bool { lock.withLock { orders.removeValue(forKey: id) != nil } }
}
