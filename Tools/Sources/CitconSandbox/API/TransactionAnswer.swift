@_spi(Tools) import CitconUPI
import Foundation

/// A transaction as the API answers it (schema `Transaction_Data`, named through the
/// configuration's `typeOverrides`): an inquiry's, a capture's, a cancel's, a refund's.
/// It is the value the app SDK reads, `CPayCheckData`, written by its own encoding (the
/// live API's shape, explicit nulls included), which the generated types would not
/// reproduce.
struct TransactionAnswer: Codable, Sendable, Hashable {
    let value: CPayCheckData

    init(_ value: CPayCheckData) { self.value = value }

    init(from decoder: any Decoder) throws { value = try CPayCheckData(from: decoder) }

    func encode(to encoder: any Encoder) throws { try value.encode(to: encoder) }

    static func == (lhs: Self, rhs: Self) -> Bool { lhs.value == rhs.value }

    /// Hashable as the generated code asks of every type, by the transaction's id (equal
    /// values have equal ids).
    func hash(into hasher: inout Hasher) { hasher.combine(value.id) }
}
