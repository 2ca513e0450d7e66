/// A value read from the wire whose set the protocol documents but does not close: the
/// documented cases, and one that keeps anything else exactly as sent (a newer app's
/// card type, a new status), so that a genuine callback is never refused for it.
///
/// Not API: each such public type (`CardType`, `Zettle.ErrorCode`,
/// `Zettle.PaymentInfo.EntryMode`, `SumUp.Callback.FailureCause`, `Square.ErrorCode`,
/// and in CitconUPI `CPayStatus` and `CPayClientCode`) is `RawRepresentable` with a
/// `String` raw value, `Codable` as that string (the standard library's coding of a
/// raw value), printed as it, and equal to a value that spells the same (the standard
/// library's `==` and hashing of a raw value); it lists ``documented`` and spells
/// `rawValue` without comparing values, and its one-line `init(rawValue:)` reads
/// through ``init(reading:)``, written once here.
@_spi(Tools) public protocol OpenWireValue: RawRepresentable, Hashable, Sendable where RawValue == String {
    /// The documented values.
    static var documented: [Self] { get }
    /// A value not documented, kept as sent.
    static func other(_ rawValue: String) -> Self
}

extension OpenWireValue {
    /// The documented value the wire spells so, or ``other(_:)``.
    @_spi(Tools) public init(reading rawValue: String) {
        self = Self.documented.first { $0.rawValue == rawValue } ?? .other(rawValue)
    }

    /// The documented value the UTF-8 bytes spell, or ``other(_:)``: a string is made
    /// only for a value not documented.
    init(wireBytes bytes: UnsafeBufferPointer<UInt8>) {
        self = Self.documented.first { bytes.spells($0.rawValue) } ?? .other(String(decoding: bytes, as: UTF8.self))
    }

    /// Whether the value is one of the documented ones.
    @_spi(Tools) public var isDocumented: Bool { Self.documented.contains(self) }
}

extension RawRepresentable where Self: CaseIterable, RawValue == String {
    /// The case whose raw value the UTF-8 bytes spell (`ifcc_responseType`,
    /// `smp-status`), compared without making a string.
    init?(wireBytes bytes: UnsafeBufferPointer<UInt8>) {
        guard let match = Self.allCases.first(where: { bytes.spells($0.rawValue) }) else { return nil }
        self = match
    }
}
