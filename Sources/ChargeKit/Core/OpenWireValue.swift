/// A value read from the wire whose set the protocol documents but does not close: the
/// documented cases, and one that keeps anything else exactly as sent (a newer app's
/// card type, a new status), so that a genuine callback is never refused for it.
///
/// A conforming enum lists ``documented`` and spells ``wireValue``; reading, printing
/// and coding come from here, written once for every such type (`CardType`,
/// `Zettle.ErrorCode`, `Zettle.PaymentInfo.EntryMode`, `SumUp.Callback.FailureCause`,
/// and in CitconUPI `CPayStatus` and `CPayClientCode`).
public protocol OpenWireValue: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The documented values.
    static var documented: [Self] { get }
    /// A value not documented, kept as sent.
    static func other(_ wireValue: String) -> Self
    /// The value as the wire spells it.
    var wireValue: String { get }
}

extension OpenWireValue {
    /// The documented value the wire spells so, or ``other(_:)``.
    public init(wireValue: String) {
        self = Self.documented.first { $0.wireValue == wireValue } ?? .other(wireValue)
    }

    /// The documented value the UTF-8 bytes spell, or ``other(_:)``: a string is made
    /// only for a value not documented.
    init(wireBytes bytes: UnsafeBufferPointer<UInt8>) {
        self = Self.documented.first { bytes.spells($0.wireValue) } ?? .other(String(decoding: bytes, as: UTF8.self))
    }

    /// The value the wire spells `rawValue` (``init(wireValue:)`` by the name the
    /// seeds use).
    public init(rawValue: String) { self.init(wireValue: rawValue) }

    /// The value as the wire spells it (``wireValue`` by the name the seeds use).
    public var rawValue: String { wireValue }

    /// Whether the value is one of the documented ones.
    public var isDocumented: Bool { Self.documented.contains(self) }

    public var description: String { wireValue }

    public init(from decoder: any Decoder) throws {
        self.init(wireValue: try decoder.singleValueContainer().decode(String.self))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wireValue)
    }
}

extension RawRepresentable where Self: CaseIterable, RawValue == String {
    /// The case whose raw value the UTF-8 bytes spell (`ifcc_responseType`,
    /// `smp-status`), compared without making a string.
    init?(wireBytes bytes: UnsafeBufferPointer<UInt8>) {
        guard let match = Self.allCases.first(where: { bytes.spells($0.rawValue) }) else { return nil }
        self = match
    }
}
