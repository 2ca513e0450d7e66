@_spi(Tools) import CitconUPI
import Foundation

/// The charges and the references they claimed. Every method is atomic;
/// ``updateCharge(id:reference:now:_:)`` writes the status change and its IPN in one
/// transaction.
public protocol ChargeStore: Sendable {
    /// Stores a new charge and claims its reference.
    /// - Throws: ``APIError`` `4100` when the reference was used before;
    ///   ``ChargeIdentifiersTaken`` when another charge has its id or charge token.
    ///   Either way nothing is written (the reference stays free on the second).
    func insertCharge(_ charge: ChargeRecord) async throws
    /// Finds a charge by id.
    func charge(id: String) async throws -> ChargeRecord?
    /// Finds a charge by charge token.
    func charge(chargeToken: String) async throws -> ChargeRecord?
    /// The charges most recently stored, newest first, at most `limit` (the dashboard).
    func recentCharges(limit: Int) async throws -> [ChargeRecord]
    /// Changes a charge in one transaction: claims `reference` (for a capture, refund or
    /// cancel), runs `body`, saves, and when the status changed and `urls.ipn` is set,
    /// adds the IPN to the outbox. `body` throwing rolls everything back. Stores run
    /// `body` through ``ChargeRecord/apply(now:_:)``, which keeps the status history.
    func updateCharge<T: Sendable>(id: String, reference: String?, now: Int64,
                                   _ body: @escaping @Sendable (inout ChargeRecord) throws -> T) async throws -> (ChargeRecord, T)
    /// Ids of unpaid charges whose time is up.
    func overdueCharges(now: Int64, limit: Int) async throws -> [String]
    /// The number of charges.
    func chargeCount() async throws -> Int
}

/// A store's refusal of a new charge whose transaction id or charge token another
/// charge already has. Nothing of the charge was written and its reference stays
/// free; ``SandboxAPI`` draws new identifiers and stores the charge again. (Ids follow
/// the clock, so two sandbox processes on one database can draw the same one.)
public struct ChargeIdentifiersTaken: Error, Sendable, Equatable, CustomStringConvertible {
    /// The refused charge's transaction id.
    public var id: String

    /// Makes the refusal of the charge `id`.
    public init(id: String) { self.id = id }

    public var description: String { "transaction id '\(id)' or its charge token belongs to another charge" }
}
