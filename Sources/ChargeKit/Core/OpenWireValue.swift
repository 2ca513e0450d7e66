/// A value read from the wire whose set the protocol documents but does not close: the
/// documented cases, and one that keeps anything else exactly as sent (a newer app's
/// card type, a new status), so that a genuine callback is never refused for it.
///
/// The apps' card types, error codes and statuses (``CreditCardTerminal/CardType``, for
/// example), and in CitconUPI `CPayStatus` and `CPayClientCode`, are open wire values. Each lists ``documented`` and spells `rawValue`; it is `Codable` as that
/// string, equal to a value that spells the same, and hashed by it. Switch over the
/// documented cases and handle ``other(_:)`` for the rest:
///
/// ```swift
/// switch response.cardType {
/// case .visa?, .masterCard?: print("a card we know:", response.cardType?.rawValue ?? "")
/// case .other(let sent)?: print("a card type a newer app sends, kept as sent:", sent)
/// case nil: print("no card type")
/// default: print("another documented card type")
/// }
/// ```
///
/// A type of your own conforms by listing its documented cases and its `other` case;
/// ``init(rawValue:)``, ``isDocumented`` and ``description`` come with the protocol.
public protocol OpenWireValue: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible where RawValue == String {
    /// The documented values.
    static var documented: [Self] { get }
    /// A value not documented, kept as sent.
    static func other(_ rawValue: String) -> Self
}

extension OpenWireValue {
    /// The documented value the wire spells `rawValue`, or ``other(_:)`` keeping it as sent.
    public init(rawValue: String) {
        self = Self.documented.first { $0.rawValue == rawValue } ?? .other(rawValue)
    }

    /// The documented value the UTF-8 bytes spell, or ``other(_:)``: a string is made
    /// only for a value not documented.
    init(wireBytes bytes: Span<UInt8>) {
        self = Self.documented.first { bytes.spells($0.rawValue) } ?? .other(bytes.string)
    }

    /// Whether the value is one of the documented ones.
    public var isDocumented: Bool { Self.documented.contains(self) }

    /// The value as the wire spells it (its `rawValue`).
    public var description: String { rawValue }
}

extension RawRepresentable where Self: CaseIterable, RawValue == String {
    /// The case whose raw value the UTF-8 bytes spell (`ifcc_responseType`,
    /// `smp-status`), compared without making a string.
    init?(wireBytes bytes: Span<UInt8>) {
        guard let match = Self.allCases.first(where: { bytes.spells($0.rawValue) }) else { return nil }
        self = match
    }
}
