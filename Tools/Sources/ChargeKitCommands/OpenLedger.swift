import ArgumentParser
@_spi(Tools) import ChargeKit
import ChargeKitSimulators
import Foundation

/// A ledger store and how to let it go (a PostgreSQL pool closes).
public struct OpenLedger: Sendable {
    public let store: any LedgerStore
    public let close: @Sendable () -> Void

    public init(store: any LedgerStore, close: @escaping @Sendable () -> Void) {
        self.store = store
        self.close = close
    }
}
