import Foundation

/// A `{"data": [...]}` list of captures, refunds or chargebacks.
public struct CPayList: Sendable, Equatable, Codable {
    /// The entries.
    public var data: [CPayOperation]

    /// Makes a list.
    public init(_ data: [CPayOperation] = []) { self.data = data }
}
