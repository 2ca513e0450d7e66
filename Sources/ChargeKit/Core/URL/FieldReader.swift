import Foundation

/// Reads the fields of a callback URL the way every callback parser must, on the URL's
/// bytes: a name that appears twice is refused, each known field is taken once, and
/// what is left (the app's own extra parameters) keeps its order.
///
/// The URL is scanned once (``URLBytes``); names are compared as bytes with the
/// parser's names (given up front as ``FieldNames``, each field is matched to them
/// once, before the parser runs; else the parser tests each field's name), and a
/// string is made only for a value that is taken and for what is left. Escapes are
/// checked before the parser runs, so a malformed one is refused before any field,
/// as ``QueryURL`` refuses it; a value is decoded when it is read.
struct FieldReader {
    /// A field's place.
    private struct Field {
        var segment: URLBytes.Segment
        /// The decoded name's index in `decodedNames`, when the name held an escape.
        var decodedName = -1
        /// Leading name bytes that comparisons skip (Credit Card Terminal's `$`).
        var skip = 0
        var taken = false
        /// Whether the name is one of the parser's ``FieldNames`` (its duplicates are
        /// found by its slot, not by comparing it with the other fields).
        var named = false
        /// The name's length and some of its bytes, so that most unequal names differ here.
        var fingerprint: UInt64

        /// Whether the duplicate check looks at this field: every field, or only those
        /// not taken (`untakenOnly`).
        func isChecked(untakenOnly: Bool) -> Bool { !(untakenOnly && taken) }
    }

    /// The URL, whose string the values taken as ``CallbackText`` or ``TextPlace`` point into.
    let source: String
    private let parts: URLBytes
    /// The fields, in order.
    private var fields: [Field] = []
    /// Names that held escapes, decoded (few callbacks have any).
    private var decodedNames: [String] = []
    /// For each of the parser's ``FieldNames``, the index of the field that has it, or -1
    /// (empty when the reader was given no names).
    private var slots: [Int]
    /// The first field whose name is one of the parser's names and came before.
    private var namedDuplicate = Int.max

    /// How many fields the query holds.
    var count: Int { fields.count }

    /// Reads `url` and gives its fields to `body`.
    /// - Throws: what ``init(scanning:maximumLength:)`` refuses, or `body`'s error.
    static func read<T>(
        _ url: String, maximumLength: Int, _ body: (inout FieldReader) throws(ChargeKitError) -> T
    ) throws(ChargeKitError) -> T {
        var reader = try FieldReader(scanning: url, maximumLength: maximumLength)
        return try body(&reader)
    }

    /// Scans `url` once: its parts and its query's fields, each escaped name decoded
    /// and every escape checked, so that a malformed one is refused before any field
    /// is read. A parser then matches the names it takes fields by (``match(_:)``).
    /// - Throws: ``ChargeKitError/urlTooLong(limit:)`` over `maximumLength` bytes, what
    ///   ``URLBytes`` and percent-decoding refuse.
    init(scanning url: String, maximumLength: Int) throws(ChargeKitError) {
        // Values are kept as 31-bit offsets into the URL (``TextPlace``).
        let limit = Swift.min(maximumLength, TextPlace.maximumSourceLength)
        guard url.utf8.count <= limit else { throw .urlTooLong(limit: limit) }
        var source = url
        // Made contiguous before it is shared, so that reading its bytes copies nothing.
        source.makeContiguousUTF8()
        self = try source.withUTF8Span { bytes throws(ChargeKitError) in try FieldReader(source, bytes) }
        #if DEBUG
        Self.scans?.add()
        #endif
    }

    #if DEBUG
    /// Counts the scans completed while it is bound, for the tests that show how many a
    /// verification makes (debug builds only). A scan refused part-way (at an answer's
    /// first raw space, say) is not counted.
    @TaskLocal static var scans: ScanCount?

    /// A count of scans.
    final class ScanCount: @unchecked Sendable {
        // (@unchecked: `value` is read and written under `lock` only.)
        private let lock = NSLock()
        private var value = 0
        var count: Int { lock.withLock { value } }
        func add() { lock.withLock { value += 1 } }
    }
    #endif

    /// Scans the URL `bytes` of `source`, then checks the escapes the scan could not
    /// vouch for (see ``URLBytes/Segment/escapesPlain``).
    private init(_ source: String, _ bytes: Span<UInt8>) throws(ChargeKitError) {
        self.source = source
        slots = []
        var fields: [Field] = []
        fields.reserveCapacity(16)
        parts = try URLBytes(bytes) { segment in
            fields.append(Field(segment: segment, fingerprint: Self.fingerprint(bytes.extracting(segment.name))))
        }
        self.fields = fields
        for index in fields.indices {
            let segment = fields[index].segment
            if segment.nameEscaped {
                let name = try bytes.decoded(segment.name, escaped: true, field: "query parameter name")
                self.fields[index].fingerprint = name.withUTF8Span(Self.fingerprint)
                self.fields[index].decodedName = decodedNames.count
                decodedNames.append(name)
            }
            if segment.valueEscaped && !segment.escapesPlain {
                try PercentEncoding.check(bytes.extracting(segment.value), field: self.name(index))
            }
        }
    }

    /// Matches each field's name (decoded) to the parser's `names`, once, before the
    /// parser takes fields by them: a field with one of them takes its slot (the first
    /// in field order keeps it, a later one is a duplicate). Matching again replaces
    /// what an earlier parser matched; what was taken stays taken.
    mutating func match(_ names: FieldNames) {
        slots = [Int](repeating: -1, count: names.count)
        namedDuplicate = Int.max
        for index in fields.indices {
            let fingerprint = fields[index].fingerprint
            let slot = withName(index, skipping: false) { names.slot(of: $0, fingerprint: fingerprint) }
            fields[index].named = slot != nil
            guard let slot else { continue }
            if slots[slot] < 0 {
                slots[slot] = index
            } else {
                namedDuplicate = Swift.min(namedDuplicate, index)
            }
        }
    }

    static func fingerprint(_ name: Span<UInt8>) -> UInt64 {
        guard !name.isEmpty else { return 0 }
        return UInt64(name.count) << 32 | UInt64(name[0]) << 16 | UInt64(name[name.count / 2]) << 8 | UInt64(name[name.count - 1])
    }

    /// Which of 64 buckets a fingerprint falls in (a few bits of a multiplicative hash).
    static func bucket(_ fingerprint: UInt64) -> Int { Int(truncatingIfNeeded: (fingerprint &* 0x9E37_79B9_7F4A_7C15) >> 58) }

    /// Runs `body` on the URL's bytes.
    private func withBytes<R>(_ body: (Span<UInt8>) throws(ChargeKitError) -> R) throws(ChargeKitError) -> R {
        try source.withUTF8Span(body)
    }

    /// Runs `body` on the URL's bytes (for a body that throws nothing).
    private func withBytes<R>(_ body: (Span<UInt8>) -> R) -> R {
        source.withUTF8Span(body)
    }

    /// The URL before its query, such as `com-your-app://action/`.
    var base: String { withBytes { $0.string(parts.base) } }
    /// The URL's `#fragment`, as sent.
    var fragment: String? { parts.fragment.map { range in withBytes { $0.string(range) } } }
    /// Whether the URL has a `#fragment` (without making a string of it).
    var hasFragment: Bool { parts.fragment != nil }
    /// ``base``, kept in the URL's string.
    var baseText: RequiredCallbackText { RequiredCallbackText(CallbackText(source: source, range: parts.base, escaped: false)) }
    /// ``fragment``, kept in the URL's string.
    var fragmentText: CallbackText {
        parts.fragment.map { CallbackText(source: source, range: $0, escaped: false) } ?? CallbackText(wrappedValue: nil)
    }

    /// The fields' positions, in order.
    var indices: Range<Int> { fields.indices }

    /// The field's full name as sent (decoded).
    func name(_ index: Int) -> String {
        let field = fields[index]
        return field.decodedName >= 0 ? decodedNames[field.decodedName] : withBytes { $0.string(field.segment.name) }
    }

    /// The field's value (decoded).
    func value(_ index: Int) -> String {
        let segment = fields[index].segment
        return withBytes { PercentEncoding.decodeChecked($0.extracting(segment.value), escaped: segment.valueEscaped) }
    }

    /// The field's value, kept in the URL's string and decoded when read, after
    /// `check` accepts its bytes (decoded).
    func text(_ index: Int, check: (Span<UInt8>) throws(ChargeKitError) -> Void) throws(ChargeKitError) -> CallbackText {
        CallbackText(source: source, place: try place(index, check: check))
    }

    /// The field's value as a place in ``source``, after `check` accepts its bytes (decoded).
    func place(_ index: Int, check: (Span<UInt8>) throws(ChargeKitError) -> Void) throws(ChargeKitError) -> TextPlace {
        try withValue(index, check)
        let segment = fields[index].segment
        return TextPlace(segment.value, escaped: segment.valueEscaped)
    }

    /// Runs `body` on the field's value, as UTF-8 bytes (decoded when the value holds
    /// an escape), without making a string.
    func withValue<Result>(_ index: Int, _ body: (Span<UInt8>) throws(ChargeKitError) -> Result) throws(ChargeKitError) -> Result {
        let segment = fields[index].segment
        return try withBytes { bytes throws(ChargeKitError) in
            let value = bytes.extracting(segment.value)
            guard segment.valueEscaped else { return try body(value) }
            return try PercentEncoding.withDecodedChecked(value, body)
        }
    }

    /// The field's value as bytes (decoded), for a reader of its own (an app's JSON).
    func valueBytes(_ index: Int) -> [UInt8] {
        let segment = fields[index].segment
        // (Its escapes were checked by the scan: decoding gives its bytes, a plain value copied as it is.)
        return withBytes { PercentEncoding.unescape($0.extracting(segment.value))?.bytes ?? [] }
    }

    /// The field as a query item.
    func item(_ index: Int) -> QueryItem { QueryItem(name(index), value(index)) }

    /// Runs `body` on the field's name (decoded), past the bytes skipped unless `skipping` is false.
    @inline(__always)
    private func withName<R>(_ index: Int, skipping: Bool = true, _ body: (Span<UInt8>) -> R) -> R {
        let field = fields[index]
        let skip = skipping ? field.skip : 0
        if field.decodedName >= 0 {
            return decodedNames[field.decodedName].withUTF8Span { body($0.extracting(droppingFirst: skip)) }
        }
        return withBytes { body($0.extracting(field.segment.name).extracting(droppingFirst: skip)) }
    }

    /// The length in bytes of the field's name, past the bytes skipped.
    func nameLength(_ index: Int) -> Int { withName(index) { $0.count } }

    /// Whether the field's name, past the bytes skipped, is `expected`.
    func name(_ index: Int, is expected: StaticString) -> Bool { withName(index) { $0.matches(expected) } }

    /// Whether the field's whole name is `text` (compared as bytes, no string made).
    func name(_ index: Int, spells text: String) -> Bool { withName(index, skipping: false) { $0.spells(text) } }

    /// Whether the field's name, past the bytes skipped, starts with `prefix`.
    func name(_ index: Int, hasPrefix prefix: StaticString) -> Bool { withName(index) { $0.hasPrefix(0..<$0.count, prefix) } }

    /// Skips the next `count` bytes of the field's name in later comparisons.
    mutating func skip(_ count: Int32, ofNameAt index: Int) {
        fields[index].skip += Int(count)
    }

    /// Marks the field as read, so that ``remaining`` leaves it out.
    mutating func markTaken(_ index: Int) { fields[index].taken = true }

    /// The position of the field with one of the parser's names (given to
    /// ``match(_:)``), matched before the parser ran.
    func index(of name: some FieldName) -> Int? {
        precondition(name.slot < slots.count, "a field name taken from a reader not given its names")
        let index = slots[name.slot]
        return index < 0 ? nil : index
    }

    /// Whether a field of that name is present.
    func contains(_ name: some FieldName) -> Bool { index(of: name) != nil }

    /// Takes a field's value; `nil` when absent. An empty value counts as present.
    mutating func take(_ name: some FieldName) -> String? {
        guard let index = index(of: name) else { return nil }
        markTaken(index)
        return value(index)
    }

    /// Takes a field and gives `body` its value's bytes (decoded); `nil` when absent.
    mutating func take<T>(_ name: some FieldName, reading body: (Span<UInt8>) throws(ChargeKitError) -> T) throws(ChargeKitError) -> T? {
        guard let index = index(of: name) else { return nil }
        markTaken(index)
        return try withValue(index, body)
    }

    /// Takes a field's value as a place in the URL's string, after `check` accepts its
    /// bytes (decoded); absent when the field is.
    mutating func takeText(_ name: some FieldName, check: (Span<UInt8>) throws(ChargeKitError) -> Void) throws(ChargeKitError) -> CallbackText {
        guard let index = index(of: name) else { return CallbackText(wrappedValue: nil) }
        markTaken(index)
        return try text(index, check: check)
    }

    /// Takes a field's value as a place in ``source``, after `check` accepts its bytes
    /// (decoded); absent when the field is.
    mutating func takePlace(_ name: some FieldName, check: (Span<UInt8>) throws(ChargeKitError) -> Void) throws(ChargeKitError) -> TextPlace {
        guard let index = index(of: name) else { return .absent }
        markTaken(index)
        return try place(index, check: check)
    }

    /// Refuses a name that appears twice (among the fields not taken, when `untakenOnly`).
    /// - Throws: ``ChargeKitError/duplicateField(_:)`` naming the second occurrence.
    func refuseDuplicates(untakenOnly: Bool = false) throws(ChargeKitError) {
        // A named field's duplicate was found when it was matched to its slot (taking
        // a named field never leaves out its duplicate: `untakenOnly` is for readers
        // without names); the others are compared here. The first field whose name came
        // before is named, as if all were compared in order.
        let named = namedDuplicate
        let checked = fields.indices.prefix(Swift.min(count, named)).filter { !fields[$0].named && fields[$0].isChecked(untakenOnly: untakenOnly) }
        if checked.count <= 32 {
            // A callback's dozen fields: pairwise, after the fingerprints, beats hashing.
            for (position, index) in checked.enumerated() {
                for earlier in checked.prefix(position) where fields[earlier].fingerprint == fields[index].fingerprint && name(earlier) == name(index) {
                    throw .duplicateField(name(index))
                }
            }
        } else {
            var seen = Set<String>(minimumCapacity: checked.count)
            for index in checked where !seen.insert(name(index)).inserted { throw .duplicateField(name(index)) }
        }
        if named < count { throw .duplicateField(name(named)) }
    }

    /// Whether any field is not taken.
    var hasRemaining: Bool { fields.contains { !$0.taken } }

    /// The fields not taken, in their original order.
    var remaining: [QueryItem] {
        var items: [QueryItem] = []
        for index in 0..<count where !fields[index].taken { items.append(item(index)) }
        return items
    }

    /// ``remaining`` as the fields an app's answer keeps without knowing them (never a
    /// reason to refuse), each value at most `limit` bytes.
    /// - Throws: ``ChargeKitError/fieldTooLong(_:limit:)`` naming a longer one.
    func unknownFields(limit: Int) throws(ChargeKitError) -> [QueryItem] {
        guard hasRemaining else { return [] }
        let items = remaining
        if let long = items.first(where: { $0.value.utf8.count > limit }) { throw .fieldTooLong(long.name, limit: limit) }
        return items
    }

    /// ``remaining``, kept as places in ``source`` (the same items when read).
    var remainingItems: CallbackItems {
        var places: [CallbackItems.Place] = []
        for index in 0..<count where !fields[index].taken {
            let segment = fields[index].segment
            places.append(CallbackItems.Place(name: TextPlace(segment.name, escaped: segment.nameEscaped),
                                              value: TextPlace(segment.value, escaped: segment.valueEscaped)))
        }
        return CallbackItems(source: source, places: places)
    }
}
