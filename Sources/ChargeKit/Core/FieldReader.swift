/// Reads the fields of a callback URL the way every callback parser must, in place on
/// the URL's bytes: a name that appears twice is refused, each known field is taken
/// once, and what is left (the app's own extra parameters) keeps its order.
///
/// The URL is scanned once (``URLBytes``); names are compared as bytes with the
/// parser's names (given up front as ``FieldNames``, each field is matched to them
/// once, before the parser runs; else the parser tests each field's name), and a string is made only for a value that is taken and for what is left.
/// Escapes are checked while scanning, so a malformed one is refused before any field,
/// as ``QueryURL`` refuses it; a value is decoded when it is read. The fields' places
/// live in temporary storage (on the stack for a callback's dozen fields), so the
/// reader allocates nothing and costs nothing to destroy.
struct FieldReader {
    /// A field's place: plain values only, so that reading one costs no reference counting.
    private struct Field {
        var segment: URLBytes.Segment
        /// The decoded name's index in `decodedNames`, when the name held an escape.
        var decodedName: Int32 = -1
        /// Leading name bytes that comparisons skip (Credit Card Terminal's `$`).
        var skip: Int32 = 0
        var taken = false
        /// Whether the name is one of the parser's ``FieldNames`` (its duplicates are
        /// found by its slot, not by comparing it with the other fields).
        var named = false
        /// The name's length and end bytes, so that most unequal names differ here.
        var fingerprint: UInt64

        /// Whether the duplicate check looks at this field: every field, or only those
        /// not taken (`untakenOnly`).
        @inline(__always)
        func isChecked(untakenOnly: Bool) -> Bool { !(untakenOnly && taken) }
    }

    /// The URL, whose string the values taken as ``CallbackText`` or ``TextPlace`` point into.
    let source: String
    private let bytes: UnsafeBufferPointer<UInt8>
    private let parts: URLBytes
    /// The fields, in order: the first `count` places of temporary storage.
    private let fields: UnsafeMutableBufferPointer<Field>
    /// How many fields the query holds.
    private(set) var count = 0
    /// The most places kept in temporary storage on the stack (the standard library
    /// allocates up to 1 KiB there, more on the heap), less two places for the slots of
    /// a parser's ``FieldNames`` (28 names; more go on the heap).
    private static let stackCapacity = 1024 / MemoryLayout<Field>.stride - 2
    /// Names that held escapes, decoded (few callbacks have any).
    private var decodedNames: [String] = []
    /// The bits (``bit(_:)``) that two or more fields' fingerprints set: a name can appear twice
    /// only among the fields that set one of them (a name and its escaped spelling share
    /// a fingerprint), so only those are compared. (Fields with one of the parser's
    /// ``FieldNames`` are left out: their duplicates are found by their slot.)
    private var sharedBits: UInt64 { matches.sharedBits }
    /// For each of the parser's ``FieldNames``, the index of the field that has it, or -1
    /// (empty when the reader was given no names).
    private let slots: UnsafeMutableBufferPointer<Int32>
    /// The first field whose name is one of the parser's names and came before.
    private var namedDuplicate: Int { matches.namedDuplicate }
    /// What matching the names found (the scan, then ``prepare(_:)`` for escaped names).
    private var matches: Matches

    /// Reads `url` and gives its fields to `body`; the reader lives only as long as
    /// `body` runs (it points into the URL's bytes and into temporary storage).
    /// - Throws: ``ChargeKitError/urlTooLong(limit:)`` over `maximumLength` bytes, what
    ///   ``URLBytes`` and percent-decoding refuse, or `body`'s error.
    /// - Parameter names: the names the parser takes fields by (``take(_:)`` and the
    ///   like); each field is matched to them once, before `body` runs.
    static func read<T, Names: FieldNameMatcher>(
        _ url: String, maximumLength: Int, names: Names, _ body: (inout FieldReader) throws(ChargeKitError) -> T
    ) throws(ChargeKitError) -> T {
        // Values are kept as 31-bit offsets into the URL (``TextPlace``).
        let limit = Swift.min(maximumLength, TextPlace.maximumSourceLength)
        guard url.utf8.count <= limit else { throw .urlTooLong(limit: limit) }
        var url = url
        // Made contiguous before it is shared, so that reading its bytes copies nothing
        // and values kept as places in it decode straight from its buffer.
        url.makeContiguousUTF8()
        let source = url
        // The closures return nothing and write their outcome out: a generic `Result`
        // passed back through `withUTF8` costs copies and unspecialized destroys.
        var output: T?
        var failure: ChargeKitError?
        url.withUTF8 { bytes in
            // A callback's fields fit in the 1 KiB the standard library keeps on the
            // stack; a query with more is read again into places for all it holds (the
            // first scan counts them, so the second fits).
            // (A loop, not a local function: one would box the variables it captures.)
            var capacity = Self.stackCapacity
            while true {
                // The fields' places, then (in the places after them) the names' slots.
                let nameCount = names.count
                let slotPlaces = (nameCount * MemoryLayout<Int32>.stride + MemoryLayout<Field>.stride - 1) / MemoryLayout<Field>.stride
                let needed = withUnsafeTemporaryAllocation(of: Field.self, capacity: capacity + slotPlaces) { places -> Int? in
                    let storage = UnsafeMutableBufferPointer(rebasing: places[0..<capacity])
                    let slots = UnsafeMutableBufferPointer(
                        start: UnsafeMutableRawPointer(places.baseAddress.unsafelyUnwrapped + capacity)
                            .bindMemory(to: Int32.self, capacity: nameCount),
                        count: nameCount)
                    slots.initialize(repeating: -1)
                    do throws(ChargeKitError) {
                        let scan = try Self.scan(bytes, into: storage, matching: names, slots: slots)
                        guard scan.count <= storage.count else { return scan.count }
                        var reader = FieldReader(source, bytes, scan: scan, storage: storage, slots: slots)
                        if scan.needsPreparing { try reader.prepare(names) }
                        output = try body(&reader)
                    } catch {
                        failure = error
                    }
                    return nil
                }
                guard let needed, needed > capacity else { break }
                capacity = needed
            }
        }
        if let failure { throw failure }
        // `body` either returned (output is set) or threw (failure is set).
        // Moved out, not copied: a result struct's copy and destroy go through its value witnesses.
        guard let output = output.take() else { throw .invalidURL("url", rule: "could not be read") }
        return output
    }

    /// Reads `url` for a parser that finds its fields by testing each one's name
    /// (``name(_:is:)``, ``name(_:hasPrefix:)``), with no ``FieldNames``.
    @inline(__always)
    static func read<T>(
        _ url: String, maximumLength: Int, _ body: (inout FieldReader) throws(ChargeKitError) -> T
    ) throws(ChargeKitError) -> T {
        try read(url, maximumLength: maximumLength, names: NoFieldNames(), body)
    }

    /// What one scan found: the URL's parts and how many pairs its query holds (the
    /// first `storage.count` of them stored), and what matching their names found.
    private struct Scan {
        var parts: URLBytes
        var count: Int
        var matches = Matches()
        /// Whether a name holds an escape or a value an escape the scan could not vouch
        /// for (``prepare(_:)`` then looks at them).
        var needsPreparing = false
    }

    /// What matching the fields' names to a parser's ``FieldNames`` found so far.
    private struct Matches {
        /// One bit per fingerprint (``bit(_:)``) of the fields without a slot.
        var fingerprints: UInt64 = 0
        /// See ``FieldReader/sharedBits``.
        var sharedBits: UInt64 = 0
        /// See ``FieldReader/namedDuplicate``.
        var namedDuplicate = Int.max
    }

    /// Scans the URL once, storing its pairs' places (and their names' fingerprints) as
    /// they are found, and matching each plain name to `names` (``match(_:at:name:in:slots:_:)``).
    @inline(__always)
    private static func scan(
        _ bytes: UnsafeBufferPointer<UInt8>, into storage: UnsafeMutableBufferPointer<Field>,
        matching names: some FieldNameMatcher, slots: UnsafeMutableBufferPointer<Int32>
    ) throws(ChargeKitError) -> Scan {
        var count = 0
        var matches = Matches()
        var needsPreparing = false
        let places = storage.baseAddress.unsafelyUnwrapped, capacity = storage.count
        let parts = try URLBytes(bytes) { segment in
            if count < capacity {
                let name = UnsafeBufferPointer(rebasing: bytes[segment.name])
                var field = Field(segment: segment, fingerprint: fingerprint(name))
                if segment.nameEscaped || (segment.valueEscaped && !segment.escapesPlain) { needsPreparing = true }
                // An escaped name is matched once decoded, by prepare(_:).
                if !segment.nameEscaped { match(&field, at: count, name: name, in: names, slots: slots, &matches) }
                (places + count).initialize(to: field)
            }
            count &+= 1
        }
        return Scan(parts: parts, count: count, matches: matches, needsPreparing: needsPreparing)
    }

    /// Matches the field at `index`, whose name (decoded) is `name`, to the parser's
    /// `names`: a field with one of them takes its slot (the first in field order keeps
    /// it, a later one is a duplicate), any other sets its fingerprint's bit.
    @inline(__always)
    private static func match(
        _ field: inout Field, at index: Int, name: UnsafeBufferPointer<UInt8>, in names: some FieldNameMatcher,
        slots: UnsafeMutableBufferPointer<Int32>, _ matches: inout Matches
    ) {
        if names.count > 0, let slot = names.slot(of: name, fingerprint: field.fingerprint) {
            field.named = true
            let taker = Int(slots[slot])
            if taker < 0 {
                slots[slot] = Int32(truncatingIfNeeded: index)
            } else {
                slots[slot] = Int32(truncatingIfNeeded: Swift.min(taker, index))
                matches.namedDuplicate = Swift.min(matches.namedDuplicate, Swift.max(taker, index))
            }
        } else {
            let bit = bit(field.fingerprint)
            matches.sharedBits |= matches.fingerprints & bit
            matches.fingerprints |= bit
        }
    }

    /// A reader of the pairs `scan` stored; ``prepare(_:)`` then checks their escapes.
    private init(
        _ source: String, _ bytes: UnsafeBufferPointer<UInt8>, scan: Scan, storage: UnsafeMutableBufferPointer<Field>,
        slots: UnsafeMutableBufferPointer<Int32>
    ) {
        self.source = source
        self.bytes = bytes
        parts = scan.parts
        fields = storage
        count = scan.count
        self.slots = slots
        matches = scan.matches
    }

    /// Checks, in order, the escapes the scan could not vouch for (see
    /// ``URLBytes/Segment/escapesPlain``), and decodes the names that hold any and
    /// matches them to the parser's `names` (the scan matched the others). (A method, not
    /// part of the initializer: a throwing initializer that loops over `self` made the
    /// compiler copy the whole reader.)
    private mutating func prepare(_ names: some FieldNameMatcher) throws(ChargeKitError) {
        for index in 0..<count {
            let place = fields.baseAddress.unsafelyUnwrapped + index
            let segment = place.pointee.segment
            if segment.nameEscaped {
                var name = try bytes.decoded(segment.name, escaped: true, field: "query parameter name")
                place.pointee.fingerprint = name.withUTF8 { Self.fingerprint($0) }
                place.pointee.decodedName = Int32(decodedNames.count)
                decodedNames.append(name)
                name.withUTF8 { Self.match(&place.pointee, at: index, name: $0, in: names, slots: slots, &matches) }
            }
            if segment.valueEscaped && !segment.escapesPlain {
                try PercentEncoding.check(UnsafeBufferPointer(rebasing: bytes[segment.value]), field: name(index))
            }
        }
    }

    @inline(__always)
    static func fingerprint(_ name: UnsafeBufferPointer<UInt8>) -> UInt64 {
        guard let first = name.first, let last = name.last else { return 0 }
        return UInt64(name.count) << 32 | UInt64(first) << 16 | UInt64(name[name.count / 2]) << 8 | UInt64(last)
    }

    /// The one bit of 64 a fingerprint sets (its ``bucket(_:)``).
    @inline(__always)
    private static func bit(_ fingerprint: UInt64) -> UInt64 { 1 << bucket(fingerprint) }

    /// Which of 64 buckets a fingerprint falls in (a few bits of a multiplicative hash).
    @inline(__always)
    static func bucket(_ fingerprint: UInt64) -> Int { Int(truncatingIfNeeded: (fingerprint &* 0x9E37_79B9_7F4A_7C15) >> 58) }

    /// The URL before its query, such as `com-your-app://action/`.
    var base: String { bytes.string(parts.base) }
    /// The URL's `#fragment`, as sent.
    var fragment: String? { parts.fragment.map { bytes.string($0) } }
    /// Whether the URL has a `#fragment` (without making a string of it).
    var hasFragment: Bool { parts.fragment != nil }
    /// ``base``, kept in the URL's string.
    var baseText: RequiredCallbackText { RequiredCallbackText(CallbackText(source: source, range: parts.base, escaped: false)) }
    /// ``fragment``, kept in the URL's string.
    var fragmentText: CallbackText {
        parts.fragment.map { CallbackText(source: source, range: $0, escaped: false) } ?? CallbackText(wrappedValue: nil)
    }

    /// The fields' positions, in order.
    var indices: Range<Int> { 0..<count }

    /// The place of the field at `index` (one of ``indices``).
    @inline(__always)
    private func place(_ index: Int) -> UnsafeMutablePointer<Field> {
        precondition(index >= 0 && index < count, "field index out of range")
        return fields.baseAddress.unsafelyUnwrapped + index
    }

    /// The field at `index` (one of ``indices``).
    @inline(__always)
    private func field(_ index: Int) -> Field { place(index).pointee }

    /// The field's full name as sent (decoded).
    func name(_ index: Int) -> String {
        let field = field(index)
        return field.decodedName >= 0 ? decodedNames[Int(field.decodedName)] : bytes.string(field.segment.name)
    }

    /// The field's value (decoded).
    func value(_ index: Int) -> String {
        let segment = field(index).segment
        return PercentEncoding.decodeChecked(UnsafeBufferPointer(rebasing: bytes[segment.value]), escaped: segment.valueEscaped)
    }

    /// The field's value, kept in the URL's string and decoded when read, after
    /// `check` accepts its bytes (decoded).
    @inline(__always)
    func text(
        _ index: Int, check: (UnsafeBufferPointer<UInt8>) throws(ChargeKitError) -> Void
    ) throws(ChargeKitError) -> CallbackText {
        CallbackText(source: source, place: try place(index, check: check))
    }

    /// The field's value as a place in ``source``, after `check` accepts its bytes (decoded).
    @inline(__always)
    func place(
        _ index: Int, check: (UnsafeBufferPointer<UInt8>) throws(ChargeKitError) -> Void
    ) throws(ChargeKitError) -> TextPlace {
        try withValue(index, check)
        let segment = field(index).segment
        return TextPlace(segment.value, escaped: segment.valueEscaped)
    }

    /// Runs `body` on the field's value, as UTF-8 bytes (decoded into temporary
    /// storage when the value holds an escape), without making a string.
    @inline(__always)
    func withValue<Result>(
        _ index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws(ChargeKitError) -> Result
    ) throws(ChargeKitError) -> Result {
        let segment = field(index).segment
        let value = UnsafeBufferPointer(rebasing: bytes[segment.value])
        guard segment.valueEscaped else { return try body(value) }
        return try PercentEncoding.withDecodedChecked(value, body)
    }

    /// The field as a query item.
    func item(_ index: Int) -> QueryItem { QueryItem(name(index), value(index)) }

    /// The length in bytes of the field's name, past the bytes skipped.
    @inline(__always)
    func nameLength(_ index: Int) -> Int {
        let field = field(index)
        let length = field.decodedName >= 0 ? decodedNames[Int(field.decodedName)].utf8.count : field.segment.name.count
        return length - Int(field.skip)
    }

    /// Whether the field's name, past the bytes skipped, is `expected`.
    @inline(__always)
    func name(_ index: Int, is expected: StaticString) -> Bool {
        let field = field(index)
        if field.decodedName >= 0 {
            return decodedNames[Int(field.decodedName)].utf8.dropFirst(Int(field.skip)).elementsEqual(expected.bytes)
        }
        return bytes.matches(field.segment.name, expected, from: Int(field.skip))
    }

    /// Whether the field's name, past the bytes skipped, starts with `prefix`.
    @inline(__always)
    func name(_ index: Int, hasPrefix prefix: StaticString) -> Bool {
        let field = field(index)
        if field.decodedName >= 0 {
            return decodedNames[Int(field.decodedName)].utf8.dropFirst(Int(field.skip)).starts(with: prefix.bytes)
        }
        return bytes.hasPrefix(field.segment.name, prefix, from: Int(field.skip))
    }

    /// Skips the next `count` bytes of the field's name in later comparisons.
    mutating func skip(_ count: Int32, ofNameAt index: Int) {
        place(index).pointee.skip += count
    }

    /// Marks the field as read, so that ``remaining`` leaves it out.
    mutating func markTaken(_ index: Int) { place(index).pointee.taken = true }

    /// The position of the field with one of the parser's names (given to
    /// ``read(_:maximumLength:names:_:)``): a load, matched before the parser ran.
    @inline(__always)
    func index(of name: FieldName) -> Int? {
        precondition(name.slot < slots.count, "a field name taken from a reader not given its names")
        let index = slots[name.slot]
        return index < 0 ? nil : Int(index)
    }

    /// Whether a field of that name is present.
    @inline(__always)
    func contains(_ name: FieldName) -> Bool { index(of: name) != nil }

    /// Takes a field's value; `nil` when absent. An empty value counts as present.
    @inline(__always)
    mutating func take(_ name: FieldName) -> String? {
        guard let index = index(of: name) else { return nil }
        markTaken(index)
        return value(index)
    }

    /// Takes a field and gives `body` its value's bytes (decoded); `nil` when absent.
    @inline(__always)
    mutating func take<T>(
        _ name: FieldName, reading body: (UnsafeBufferPointer<UInt8>) throws(ChargeKitError) -> T
    ) throws(ChargeKitError) -> T? {
        guard let index = index(of: name) else { return nil }
        markTaken(index)
        return try withValue(index, body)
    }

    /// Takes a field's value as a place in the URL's string, after `check` accepts its
    /// bytes (decoded); absent when the field is.
    @inline(__always)
    mutating func takeText(
        _ name: FieldName, check: (UnsafeBufferPointer<UInt8>) throws(ChargeKitError) -> Void
    ) throws(ChargeKitError) -> CallbackText {
        guard let index = index(of: name) else { return CallbackText(wrappedValue: nil) }
        markTaken(index)
        return try text(index, check: check)
    }

    /// Takes a field's value as a place in ``source``, after `check` accepts its bytes
    /// (decoded); absent when the field is.
    @inline(__always)
    mutating func takePlace(
        _ name: FieldName, check: (UnsafeBufferPointer<UInt8>) throws(ChargeKitError) -> Void
    ) throws(ChargeKitError) -> TextPlace {
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
        let shared = sharedBits
        guard shared != 0 else {
            if named < count { throw .duplicateField(name(named)) }
            return
        }
        // (The fields are read through a local: a helper closing over `self` copies the reader.)
        let fields = fields
        // Callbacks carry a dozen fields: comparing the few whose fingerprints share a bit
        // pairwise beats hashing.
        if count <= 32 {
            for index in 0..<Swift.min(count, named) where !fields[index].named && Self.bit(fields[index].fingerprint) & shared != 0
                && fields[index].isChecked(untakenOnly: untakenOnly) {
                for earlier in 0..<index where !fields[earlier].named && fields[earlier].fingerprint == fields[index].fingerprint
                    && fields[earlier].isChecked(untakenOnly: untakenOnly) && sameName(earlier, index) {
                    throw .duplicateField(name(index))
                }
            }
        } else {
            var seen = Set<String>(minimumCapacity: count)
            for index in 0..<Swift.min(count, named) where !fields[index].named && fields[index].isChecked(untakenOnly: untakenOnly)
                && !seen.insert(name(index)).inserted {
                throw .duplicateField(name(index))
            }
        }
        if named < count { throw .duplicateField(name(named)) }
    }

    private func sameName(_ a: Int, _ b: Int) -> Bool {
        let first = fields[a], second = fields[b]
        if first.decodedName >= 0 || second.decodedName >= 0 { return name(a) == name(b) }
        return first.segment.name.count == second.segment.name.count
            && bytes.equal(at: first.segment.name.lowerBound, to: bytes.baseAddress.unsafelyUnwrapped + second.segment.name.lowerBound,
                           count: first.segment.name.count)
    }

    /// Whether any field is not taken.
    var hasRemaining: Bool { (0..<count).contains { !fields[$0].taken } }

    /// The fields not taken, in their original order.
    var remaining: [QueryItem] {
        var items: [QueryItem] = []
        for index in 0..<count where !fields[index].taken { items.append(item(index)) }
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

/// A name a callback parser takes a field by, with its place among the parser's
/// ``FieldNames``.
struct FieldName: Sendable {
    /// The name's position in its ``FieldNames``.
    let slot: Int
    /// The name as sent.
    let text: StaticString
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

    /// The names `names`, each of which must be at its own slot (`0..<names.count`, in
    /// order) and appear once.
    init(_ names: [FieldName]) {
        precondition(names.indices.allSatisfy { names[$0].slot == $0 }, "each field name must be at its slot")
        count = names.count
        entries = .allocate(capacity: Swift.max(names.count, 1))
        heads = .allocate(capacity: 64)
        heads.initialize(repeating: -1, count: 64)
        for slot in names.indices.reversed() {
            let text = names[slot].text
            precondition(!names.indices.contains { $0 != slot && names[$0].text.bytes.elementsEqual(text.bytes) },
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

/// Checks shared by every request builder and by the Citcon UPI SDK and sandbox. Each
/// throws a ``ChargeKitError`` that names `field`.
@_spi(Tools) public enum FieldRules {
    /// Whether `text` is a URL scheme by RFC 3986 (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`,
    /// ASCII only): the rule the URL scanner applies, for callers that hold a scheme alone.
    @_spi(Tools) public static func isScheme(_ text: some StringProtocol) -> Bool {
        var text = String(text)
        return text.withUTF8(URLBytes.isScheme)
    }

    /// A free-text field: no control characters, at most `limit` characters.
    @_spi(Tools) public static func text(_ value: String, field: @autoclosure () -> String, limit: Int) throws(ChargeKitError) {
        // Printable ASCII, the common case: one byte is one character and none is a control.
        if value.utf8.withContiguousStorageIfAvailable(isPrintableASCII) ?? false {
            guard value.utf8.count <= limit else { throw .fieldTooLong(field(), limit: limit) }
            return
        }
        guard value.count <= limit else { throw .fieldTooLong(field(), limit: limit) }
        guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalidField(field(), rule: "must not contain control characters")
        }
    }

    /// The rule of `text(_:field:limit:)`, on a value's UTF-8 bytes: a string is made
    /// only when they are not all printable ASCII (characters are then counted).
    static func text(_ bytes: UnsafeBufferPointer<UInt8>, field: @autoclosure () -> String, limit: Int) throws(ChargeKitError) {
        if isPrintableASCII(bytes) {
            guard bytes.count <= limit else { throw .fieldTooLong(field(), limit: limit) }
            return
        }
        try text(String(decoding: bytes, as: UTF8.self), field: field(), limit: limit)
    }

    /// Only printable ASCII (0x20–0x7E), at most `limit` characters.
    @_spi(Tools) public static func printableASCII(_ value: String, field: @autoclosure () -> String, limit: Int) throws(ChargeKitError) {
        try value.withUTF8Bytes { bytes throws(ChargeKitError) in try printableASCII(bytes, field: field(), limit: limit) }
    }

    /// The rule of `printableASCII(_:field:limit:)`, on a value's UTF-8 bytes.
    static func printableASCII(_ bytes: UnsafeBufferPointer<UInt8>, field: @autoclosure () -> String, limit: Int) throws(ChargeKitError) {
        guard bytes.count <= limit else { throw .fieldTooLong(field(), limit: limit) }
        guard isPrintableASCII(bytes) else { throw .invalidField(field(), rule: "must contain printable ASCII characters only") }
    }

    /// Refuses an empty value.
    @inline(__always)
    static func nonEmpty(_ bytes: UnsafeBufferPointer<UInt8>, field: @autoclosure () -> String) throws(ChargeKitError) {
        guard !bytes.isEmpty else { throw .invalidField(field(), rule: "must not be empty") }
    }

    /// Whether every byte is printable ASCII (0x20–0x7E), eight at a time (``all(_:_:)``).
    /// (Called, not inlined: inlined into each field's check it left the callers too
    /// large for the compiler to inline their field lookups.)
    @inline(never)
    static func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        all(bytes) { word in
            // A byte below 0x20 borrows into its high bit, one of 0x7F or more carries
            // into it or has it: "any flagged" is exact (a false flag sits only above a true one).
            ~((word &- ByteWord.ones &* 0x20) | (word &+ ByteWord.ones) | word) & ByteWord.highs
        }
    }

    /// A masked card number as Zettle sends it (`**** **** **** 1111`): digits, `*` and
    /// spaces, the last four (or all, when fewer) digits.
    static func isMaskedCardNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        endsInFourDigits(bytes) && all(bytes) { ByteWord.digits($0) | ByteWord.equal($0, 0x2A) | ByteWord.equal($0, 0x20) }
    }

    /// A redacted card number as Credit Card Terminal sends it: `^X*[0-9]{4}$`.
    static func isRedactedCardNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 4 && endsInFourDigits(bytes) && all(UnsafeBufferPointer(rebasing: bytes.dropLast(4))) { ByteWord.equal($0, 0x58) }
    }

    /// Whether the last four bytes (all of them, when fewer) are ASCII digits: four in
    /// one 32-bit word.
    @inline(__always)
    private static func endsInFourDigits(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= 4, let start = bytes.baseAddress else { return all(bytes, ByteWord.digits) }
        let word = UInt64(UInt32(littleEndian: UnsafeRawPointer(start + bytes.count - 4).loadUnaligned(as: UInt32.self)))
        let four: UInt64 = 0x8080_8080
        return word & four == 0 && ByteWord.digits(word) & four == four
    }

    /// Whether every byte passes `accepted`, a test of eight bytes at once that sets the
    /// high bit of each byte it accepts (``ByteWord``; it sees ASCII bytes only: a byte
    /// of 0x80 or more is refused before it). Eight at a time, the last eight (or four)
    /// overlapping those already tested, fewer than four in one word padded with zeros.
    @inline(__always)
    static func all(_ bytes: UnsafeBufferPointer<UInt8>, _ accepted: (UInt64) -> UInt64) -> Bool {
        guard let start = bytes.baseAddress else { return true }
        let count = bytes.count
        let raw = UnsafeRawPointer(start)
        /// Whether every byte of `word` is ASCII and accepted, in the bytes `mask` marks.
        func test(_ word: UInt64, _ mask: UInt64 = ByteWord.highs) -> Bool {
            word & ByteWord.highs == 0 && accepted(word) & mask == mask
        }
        if count >= 8 {
            var index = 0
            while index + 8 <= count {
                guard test(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))) else { return false }
                index += 8
            }
            return index == count || test(UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)))
        }
        if count >= 4 {
            let low = UInt64(UInt32(littleEndian: raw.loadUnaligned(as: UInt32.self)))
            let high = UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count - 4, as: UInt32.self)))
            return test(low | high << 32)
        }
        var word: UInt64 = 0
        for index in 0..<count { word |= UInt64(start[index]) << (8 * index) }
        return test(word, ByteWord.highs & (1 << (8 * count) &- 1))
    }

    /// The app's extra parameters: non-empty names, none reserved, none twice (counting
    /// the names already on the URL they are appended to).
    /// - Parameter reservedRule: the rule a reserved name breaks, or `nil` when it is free.
    static func extras(
        _ extras: [QueryItem], field: String, alreadyOn existing: [QueryItem] = [], reservedRule: (QueryItem) -> String?
    ) throws(ChargeKitError) {
        var seen = Set(existing.map(\.name))
        var size = 0
        for item in extras {
            size += item.encoded.utf8.count + 1
            guard size <= maximumExtrasBytes else { throw .fieldTooLong(field, limit: maximumExtrasBytes) }
            if item.name == ChargeKitParameter.nonce || item.name == ChargeKitParameter.callback {
                throw .invalidField(item.name, rule: "is a name ChargeKit uses on the callback")
            }
            guard !item.name.isEmpty else { throw .invalidField(field, rule: "a parameter name must not be empty") }
            if let rule = reservedRule(item) { throw .invalidField(item.name, rule: rule) }
            guard seen.insert(item.name).inserted else { throw .duplicateField(item.name) }
        }
    }

    /// The most bytes the app's extra parameters may take, percent-encoded, so that a
    /// pending charge (and the ledger that holds it) stays small.
    @_spi(Tools) public static let maximumExtrasBytes = 4096

    /// The longest callback URL a payment app takes, extras and nonce included.
    @_spi(Tools) public static let maximumCallbackURLLength = 2048

    /// A URL an app opens us back on: must have a scheme and be at most
    /// ``maximumCallbackURLLength`` bytes long; no fragment unless the app is known to
    /// insert its answer before one (`allowingFragment`, SumUp).
    @_spi(Tools) public static func callbackURL(_ value: String, field: String, allowingFragment: Bool = false) throws(ChargeKitError) {
        guard value.utf8.count <= maximumCallbackURLLength else { throw .fieldTooLong(field, limit: maximumCallbackURLLength) }
        // QueryURL's checks (the scanner, every escape decoded), without an item array.
        let hasFragment: Bool
        do {
            hasFragment = try FieldReader.read(value, maximumLength: maximumCallbackURLLength) { $0.hasFragment }
        } catch {
            switch error {
            case .invalidURL(_, let rule), .malformedPercentEncoding(_, let rule): throw .invalidURL(field, rule: rule)
            default: throw error
            }
        }
        guard allowingFragment || !hasFragment else { throw .invalidURL(field, rule: "must not have a #fragment") }
    }

    /// An identifier such as a reference, token or transaction id: 1 to `limit`
    /// characters from `A–Z a–z 0–9 . _ : -` (safe in a URL path without encoding).
    @_spi(Tools) public static func identifier(_ value: String, field: String, limit: Int) throws(ChargeKitError) {
        guard !value.isEmpty else { throw .missingField(field) }
        guard value.utf8.count <= limit else { throw .fieldTooLong(field, limit: limit) }
        guard value.utf8.allSatisfy({ isIdentifierByte($0) }) else {
            throw .invalidField(field, rule: "may contain only letters, digits, '.', '_', ':' and '-'")
        }
    }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: ":"),
             UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }
}

/// Tests of eight ASCII bytes at once, packed in a word (the first byte lowest): each
/// gives the high bit of every byte that passes it. Exact for bytes below 0x80 (no
/// byte carries into the next); ``FieldRules/all(_:_:)`` refuses the others first.
enum ByteWord {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highs: UInt64 = 0x8080_8080_8080_8080

    /// The bytes that are ASCII digits: 0x30 or more, and not 0x3A or more.
    @inline(__always)
    static func digits(_ word: UInt64) -> UInt64 {
        (word &+ ones &* (0x80 - 0x30)) & ~(word &+ ones &* (0x80 - 0x3A)) & highs
    }

    /// The bytes equal to `byte`.
    @inline(__always)
    static func equal(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let difference = word ^ (ones &* UInt64(byte))
        return ~(((difference & ~highs) &+ ~highs) | difference) & highs
    }
}
