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
    /// Creation time, milliseconds since 1970.
    public var timeCreated: Int64?
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
        case timeCreated = "time_created"
    }

    /// Reads `time_created` in Unix seconds (live) or milliseconds (the seed).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(id: try c.decode(String.self, forKey: .id), object: try c.decode(String.self, forKey: .object),
                  reference: try c.decodeIfPresent(String.self, forKey: .reference), amount: try c.decode(Int.self, forKey: .amount),
                  currency: try c.decodeIfPresent(String.self, forKey: .currency), status: try c.decode(CPayStatus.self, forKey: .status),
                  timeCreated: try c.decodeEpochMilliseconds(.timeCreated), reason: try c.decodeIfPresent(String.self, forKey: .reason))
    }

    /// Writes `time_created` as the live API does: in Unix seconds.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(object, forKey: .object)
        try c.encodeIfPresent(reference, forKey: .reference)
        try c.encode(amount, forKey: .amount)
        try c.encodeIfPresent(currency, forKey: .currency)
        try c.encode(status, forKey: .status)
        try c.encodeIfPresent(timeCreated.map(UPIWire.wireTime), forKey: .timeCreated)
        try c.encodeIfPresent(reason, forKey: .reason)
    }
}
