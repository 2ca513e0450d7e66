import ChargeKit
import Foundation

/// An order handed to a wallet and not yet answered. It holds no secret: no access
/// token, no charge token, no card data.
public struct CPayPendingOrder: Sendable, Equatable, Codable {
    /// Citcon's transaction id.
    public var id: String
    /// The merchant's reference.
    public var reference: String
    /// Amount in minor units.
    public var amount: Int
    /// Currency.
    public var currency: String
    /// Payment method.
    public var method: String
    /// The URL the wallet returns to the app on.
    public var returnURL: String
    /// When the wallet was opened.
    public var started: Date

    /// Makes a pending order.
    public init(id: String, reference: String, amount: Int, currency: String, method: String, returnURL: String,
                started: Date) {
        self.id = id
        self.reference = reference
        self.amount = amount
        self.currency = currency
        self.method = method
        self.returnURL = returnURL
        self.started = started
    }
}

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

/// A store in one JSON file, shared safely between threads and processes (locked,
/// written durably, owner-only; see the ledger's file store); use it (for instance in
/// Application Support, whose folder it creates) so that
/// ``CPayManager/resumePendingOrders()`` finds the orders after a restart.
public struct CPayFilePendingOrderStore: CPayPendingOrderStore {
    private let file: AtomicJSONFile<[CPayPendingOrder]>

    /// Makes a store at `fileURL`; the file is created on the first insert.
    public init(fileURL: URL) { file = AtomicJSONFile(fileURL: fileURL, kind: "Citcon pending orders") }

    public func load() throws(ChargeKitError) -> [CPayPendingOrder] { try file.load() ?? [] }

    public func insert(_ order: CPayPendingOrder) throws(ChargeKitError) {
        try file.update { (orders: inout [CPayPendingOrder]?) throws(ChargeKitError) in
            orders = (orders ?? []).filter { $0.id != order.id } + [order]
        }
    }

    public func remove(id: String) throws(ChargeKitError) -> Bool {
        try file.update { (orders: inout [CPayPendingOrder]?) throws(ChargeKitError) -> Bool in
            guard let current = orders, current.contains(where: { $0.id == id }) else { return false }
            orders = current.filter { $0.id != id }
            return true
        }
    }
}
