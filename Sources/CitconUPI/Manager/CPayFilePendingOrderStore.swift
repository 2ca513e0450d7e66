@_spi(Tools) import ChargeKit
import Foundation

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
