import Foundation

/// A hand-off settled by hand: the callback never came, and someone who checked the
/// payment app's history (or asked the provider) recorded what happened. Kept with
/// the ledger's entry; a later callback for it is refused, naming it
/// (``ChargeKitError/settledByHand(outcome:note:)``), so that a payment is never
/// counted twice.
public struct Resolution: Hashable, Sendable, Codable {
    /// What happened: approved, declined or cancelled.
    public var outcome: ChargeOutcome
    /// Why, and how it was checked (at most ``maximumNoteLength`` characters).
    public var note: String
    /// When it was recorded.
    public var resolvedAt: Date

    /// The longest note kept.
    public static let maximumNoteLength = 1000

    /// Records a settlement, checking what a person typed.
    /// - Throws: ``ChargeKitError/invalidField(_:rule:)`` naming `outcome` (only
    ///   approved, declined and cancelled settle a hand-off) or `note` (empty, longer
    ///   than ``maximumNoteLength`` characters, or holding a control character).
    public init(outcome: ChargeOutcome, note: String, resolvedAt: Date) throws(ChargeKitError) {
        guard outcome != .failed else {
            throw .invalidField("outcome", rule: "must be approved, declined or cancelled: what the payment app's history shows")
        }
        guard !note.trimmingCharacters(in: .whitespaces).isEmpty else { throw .invalidField("note", rule: "must say how the outcome was checked") }
        try FieldRules.text(note, field: "note", limit: Self.maximumNoteLength)
        self.outcome = outcome
        self.note = note
        self.resolvedAt = resolvedAt
    }
}
