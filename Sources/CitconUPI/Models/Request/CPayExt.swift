import Foundation

/// Extra data of the published SDK: `ext.transaction.receipt.type`, `ext.device.ip`,
/// `ext.device.os`.
public struct CPayExt: Sendable, Equatable, Codable {
    /// Receipt type.
    public var receiptType: String?
    /// The device's IP address.
    public var deviceIP: String?
    /// The device's operating system.
    public var deviceOS: String?

    /// Makes empty extra data.
    public init() {}

    private struct Receipt: Codable { var type: String? }
    private struct Transaction: Codable { var receipt: Receipt? }
    private struct Device: Codable { var ip: String?; var os: String? }
    private enum CodingKeys: String, CodingKey { case transaction, device }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        receiptType = try container.decodeIfPresent(Transaction.self, forKey: .transaction)?.receipt?.type
        let device = try container.decodeIfPresent(Device.self, forKey: .device)
        deviceIP = device?.ip
        deviceOS = device?.os
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let receiptType { try container.encode(Transaction(receipt: Receipt(type: receiptType)), forKey: .transaction) }
        if deviceIP != nil || deviceOS != nil { try container.encode(Device(ip: deviceIP, os: deviceOS), forKey: .device) }
    }
}
