import Foundation

/// A capture, refund or chargeback of a transaction.
public struct CPayOperation: Sendable, Equatable, Codable {
    /// Its id.
    public var id: String
    /// `capture`, `refund` or `chargeback`.
    public var object: String
    /// The merchant's reference for the operation.
    public var reference: String?
    /// Amount in minor units.
    public var amount: Int
    /// Currency.
    public var currency: String?
    /// Status, such as `succeeded`.
    public var status: CPayStatus
    /// Creation time, milliseconds since 1970 (read from Unix seconds, as the live API
    /// sends it, or milliseconds, as the seed's examples do; written in seconds).
    public var timeCreated: Int64? {
        get { wireTimeCreated.map(UPIWire.epochMilliseconds) }
        set { wireTimeCreated = newValue.map(UPIWire.wireTime) }
    }
    /// `time_created` as it is on the wire.
    private var wireTimeCreated: Int64?
    /// Reason given (refunds).
    public var reason: String?

    /// Makes an operation.
    public init(id: String, object: String, reference: String?, amount: Int, currency: String?,
                status: CPayStatus, timeCreated: Int64?, reason: String? = nil) {
        self.id = id
        self.object = object
        self.reference = reference
        self.amount = amount
        self.currency = currency
        self.status = status
        self.timeCreated = timeCreated
        self.reason = reason
    }

    enum CodingKeys: String, CodingKey {
        case id, object, reference, amount, currency, status, reason
        case wireTimeCreated = "time_created"
    }
}
