@_spi(Tools) import CitconUPI
import Foundation

/// An answer's data as the API writes it: a value of the UPI data model both sides share
/// (`CPayCheckData`), written by its own encoding (the live API's shape, explicit
/// nulls included), which the generated types would not reproduce. The schemas of
/// `sandbox.yaml` that are answered so name it through the configuration's
/// `typeOverrides` (``TransactionAnswer``).
struct WireAnswer<Value: Codable & Sendable & Equatable>: Codable, Sendable, Hashable {
    let value: Value

    init(_ value: Value) { self.value = value }

    init(from decoder: any Decoder) throws { value = try Value(from: decoder) }

    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.value == rhs.value }

    /// Hashable as the generated code asks of every type; an answer is never hashed, so
    /// every value hashes alike (which equal values must).
    func hash(into hasher: inout Hasher) {}
}

/// A transaction (schema `Transaction_Data`): an inquiry's, a capture's, a cancel's, a refund's.
typealias TransactionAnswer = WireAnswer<CPayCheckData>