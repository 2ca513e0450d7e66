/// The fields of a parsed callback, held once on the heap and shared by every copy
/// of the value (a parsed callback is read-only).
///
/// A parsed callback carries a dozen or more fields (a few hundred bytes); kept
/// inline, every move of the value (out of the parser, into an optional, into an
/// enum's payload) copied them all and every copy retained each of their strings.
/// Boxed, the value is one reference. The box is immutable, so it is shared safely
/// across concurrency domains, and reading a field needs no exclusivity check.
final class SharedFields<Fields: Hashable & Sendable>: Sendable {
    let fields: Fields

    init(_ fields: Fields) { self.fields = fields }

    /// Whether both boxes hold equal fields (the same box trivially does).
    static func same(_ lhs: SharedFields, _ rhs: SharedFields) -> Bool { lhs === rhs || lhs.fields == rhs.fields }
}
