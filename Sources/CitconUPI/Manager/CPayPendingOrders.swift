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
public protocol CPayPendingOrderStore: Sendable {
    /// Every pending order.
    func load() throws(ChargeKitError) -> [CPayPendingOrder]
    /// Replaces every pending order.
    func save(_ orders: [CPayPendingOrder]) throws(ChargeKitError)
}

/// A store that lives as long as the process (the default: like the original SDK).
public final class CPayMemoryPendingOrderStore: CPayPendingOrderStore, @unchecked Sendable {
    private let lock = NSLock()
    private var orders: [CPayPendingOrder] = []

    /// Makes an empty store.
    public init() {}

    public func load() -> [CPayPendingOrder] { lock.withLock { orders } }
    public func save(_ orders: [CPayPendingOrder]) { lock.withLock { self.orders = orders } }
}

/// A store in one JSON file, replaced atomically; use it (for instance in Application
/// Support) so that ``CPayManager/resumePendingOrders()`` finds the orders after a restart.
public struct CPayFilePendingOrderStore: CPayPendingOrderStore {
    private let file: AtomicJSONFile<[CPayPendingOrder]>

    /// Makes a store at `fileURL`; the file is created on the first save.
    public init(fileURL: URL) { file = AtomicJSONFile(fileURL: fileURL, kind: "Citcon pending orders") }

    public func load() throws(ChargeKitError) -> [CPayPendingOrder] { try file.load() ?? [] }
    public func save(_ orders: [CPayPendingOrder]) throws(ChargeKitError) { try file.save(orders) }
}
