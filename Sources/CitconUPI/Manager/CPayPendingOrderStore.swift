@_spi(Tools) import ChargeKit
import Foundation

/// Where ``CPayManager`` keeps pending orders so that a restart loses none.
///
/// Each method is one atomic step against every other user of the store (other
/// managers, threads and processes): ``remove(id:)`` tells exactly one caller that it
/// removed the order, and only that caller posts ``CPayManager/NTFY_ASYNC()``, so the
/// notification goes out once per order, also across a restart.
public protocol CPayPendingOrderStore: Sendable {
    /// Every pending order.
    func load() throws(ChargeKitError) -> [CPayPendingOrder]
    /// Adds (or replaces) an order.
    func insert(_ order: CPayPendingOrder) throws(ChargeKitError)
    /// Removes an order; `true` when it was there.
    func remove(id: String) throws(ChargeKitError) -> Bool
}
