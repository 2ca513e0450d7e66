/// What a ``FieldReader`` matches each field's name against before the parser runs:
/// a parser's ``FieldNames``, or ``NoFieldNames`` (the reader is then specialized to
/// do nothing of the kind).
protocol FieldNameMatcher {
    /// How many names there are (each has a slot).
    var count: Int { get }
    /// The slot of the name `name` spells (whose fingerprint is `fingerprint`), if it is one of these.
    func slot(of name: UnsafeBufferPointer<UInt8>, fingerprint: UInt64) -> Int?
}

/// No names: the parser finds its fields by testing each one's name (``FieldReader/name(_:is:)``).
struct NoFieldNames: FieldNameMatcher {
    var count: Int { 0 }
    func slot(of name: UnsafeBufferPointer<UInt8>, fingerprint: UInt64) -> Int? { nil }
}

/// A name a callback parser takes a field by: a case of the parser's enumeration of
/// its names, whose raw value is the name's slot among the parser's ``FieldNames``
/// (the cases are numbered in order, so that no slot is written by hand).
protocol FieldName: RawRepresentable<Int>, CaseIterable, Hashable, Sendable where AllCases == [Self] {
    /// The cases' names as sent, in the cases' order.
    static var texts: [StaticString] { get }
}

extension FieldName {
    /// The name's position in its ``FieldNames``.
    var slot: Int { rawValue }

    /// The name as sent.
    var text: StaticString { Self.texts[Self.allCases.firstIndex(of: self) ?? 0] }
}

/// The names one callback parser takes fields by. A ``FieldReader`` given them matches
/// each field of the query to its name once, as it prepares the fields (each name's
/// bytes compared once, after a fingerprint), so that taking a field is a load and
/// looking for an absent one costs nothing; a name sent twice is found by its slot.
final class FieldNames: FieldNameMatcher, @unchecked Sendable {
    // (@unchecked: the tables below are written once, in `init`, and only read after.)

    /// One name: its fingerprint, its bytes and the next name in its bucket (-1 for none).
    private struct Entry {
        var fingerprint: UInt64
        var bytes: UnsafePointer<UInt8>
        var next: Int
    }

    /// How many names there are.
    let count: Int
    /// The names, each at its slot.
    private let entries: UnsafeMutablePointer<Entry>
    /// For each of the 64 buckets of ``FieldReader/bucket(_:)``, the first name in it
    /// (its slot), or -1.
    private let heads: UnsafeMutablePointer<Int>

    /// The names `texts`, at slots `0..<texts.count` in order; each must appear once.
    init(_ texts: [StaticString]) {
        count = texts.count
        entries = .allocate(capacity: Swift.max(texts.count, 1))
        heads = .allocate(capacity: 64)
        heads.initialize(repeating: -1, count: 64)
        for slot in texts.indices.reversed() {
            let text = texts[slot]
            precondition(!texts.indices.contains { $0 != slot && texts[$0].bytes.elementsEqual(text.bytes) },
                         "a field name must appear once")
            let fingerprint = FieldReader.fingerprint(text.bytes)
            let bucket = FieldReader.bucket(fingerprint)
            (entries + slot).initialize(to: Entry(fingerprint: fingerprint, bytes: text.utf8Start, next: heads[bucket]))
            heads[bucket] = slot
        }
    }

    deinit {
        entries.deallocate()
        heads.deallocate()
    }

    /// The slot of the name `name` spells (whose fingerprint is `fingerprint`), if it
    /// is one of these.
    @inline(__always)
    func slot(of name: UnsafeBufferPointer<UInt8>, fingerprint: UInt64) -> Int? {
        var slot = heads[FieldReader.bucket(fingerprint)]
        while slot >= 0 {
            let entry = entries[slot]
            // (Equal fingerprints: the same length, so the bytes are compared.)
            if entry.fingerprint == fingerprint && name.equal(at: 0, to: entry.bytes, count: name.count) {
                return slot
            }
            slot = entry.next
        }
        return nil
    }
}

extension StaticString {
    /// The literal's UTF-8 bytes.
    @inline(__always)
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: utf8Start, count: utf8CodeUnitCount) }
}
