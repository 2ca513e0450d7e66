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

/// The names of an answer that sends a few fields of its own, then the card payment's
/// details: the details are the names from ``firstDetail`` on, each with the longest
/// value it may hold.
protocol DetailFieldName: FieldName {
    /// The first of the details' names.
    static var firstDetail: Self { get }
    /// The longest value the field may hold.
    var limit: Int { get }
}

extension DetailFieldName {
    /// The name as sent.
    var name: String { Self.texts[rawValue].description }
    /// Whether the name is one of the details.
    var isDetail: Bool { rawValue >= Self.firstDetail.rawValue }
    /// The details' names as sent, in order.
    static var detailNames: [String] { allCases.filter(\.isDetail).map(\.name) }
}

extension FieldReader {
    /// Takes `name`'s value, checked as text within the name's limit.
    mutating func takeChecked<Name: DetailFieldName>(_ name: Name) throws(ChargeKitError) -> String? {
        guard let value = take(name) else { return nil }
        try FieldRules.text(value, field: name.name, limit: name.limit)
        return value
    }

    /// Takes each detail sent, checked as ``takeChecked(_:)`` does and passed through
    /// `clean`, in the names' order.
    mutating func takeDetails<Name: DetailFieldName>(_: Name.Type, clean: (String) -> String = { $0 }) throws(ChargeKitError) -> [QueryItem] {
        var details: [QueryItem] = []
        for name in Name.allCases where name.isDetail {
            if let value = try takeChecked(name) { details.append(QueryItem(name.name, clean(value))) }
        }
        return details
    }
}

/// The names one callback parser takes fields by. ``FieldReader/match(_:)`` matches
/// each field of the query to its name once (each name's bytes compared once, after a
/// fingerprint), so that taking a field is a load and looking for an absent one costs
/// nothing; a name sent twice is found by its slot.
struct FieldNames: Sendable {
    /// One name: its fingerprint, its text and the next name in its bucket (-1 for none).
    private struct Entry: Sendable {
        var fingerprint: UInt64
        var text: StaticString
        var next: Int
    }

    /// How many names there are.
    var count: Int { entries.count }
    /// The names, each at its slot.
    private let entries: [Entry]
    /// For each of the 64 buckets of ``FieldReader/bucket(_:)``, the first name in it
    /// (its slot), or -1.
    private let heads: [Int]

    /// The names `texts`, at slots `0..<texts.count` in order; each must appear once.
    init(_ texts: [StaticString]) {
        var entries: [Entry] = []
        var heads = [Int](repeating: -1, count: 64)
        for slot in texts.indices {
            let text = texts[slot]
            precondition(!texts.indices.contains { $0 != slot && "\(texts[$0])" == "\(text)" }, "a field name must appear once")
            let fingerprint = text.withSpan(FieldReader.fingerprint)
            entries.append(Entry(fingerprint: fingerprint, text: text, next: -1))
        }
        // Each bucket's names in slot order.
        for slot in entries.indices.reversed() {
            let bucket = FieldReader.bucket(entries[slot].fingerprint)
            entries[slot].next = heads[bucket]
            heads[bucket] = slot
        }
        self.entries = entries
        self.heads = heads
    }

    /// The slot of the name `name` spells (whose fingerprint is `fingerprint`), if it
    /// is one of these.
    @inline(__always)
    func slot(of name: Span<UInt8>, fingerprint: UInt64) -> Int? {
        var slot = heads[FieldReader.bucket(fingerprint)]
        while slot >= 0 {
            let entry = entries[slot]
            // (Equal fingerprints: the same length, so the bytes are compared.)
            if entry.fingerprint == fingerprint && name.matches(entry.text) { return slot }
            slot = entry.next
        }
        return nil
    }
}
