import Foundation

/// How an amount with more decimals than the currency has is brought to its minor unit.
public enum RoundingRule: String, Sendable, Codable, CaseIterable {
    /// A half goes away from zero (2.345 → 2.35); ChargeKit's default, as on a receipt.
    case halfUp
    /// A half goes to the even neighbour (2.345 → 2.34, 2.355 → 2.36): banker's rounding.
    case halfEven
    /// Extra decimals are dropped (towards zero).
    case down
    /// Any extra decimal rounds away from zero.
    case up
}
