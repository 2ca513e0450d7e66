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

    /// Whether the field's whole name is `text` (compared as bytes, no string made).
    func name(_ index: Int, spells text: String) -> Bool {
        let field = field(index)
        if field.decodedName >= 0 { return decodedNames[Int(field.decodedName)] == text }
        return UnsafeBufferPointer(rebasing: bytes[field.segment.name]).spells(text)
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
    func index(of name: some FieldName) -> Int? {
        precondition(name.slot < slots.count, "a field name taken from a reader not given its names")
        let index = slots[name.slot]
        return index < 0 ? nil : Int(index)
    }

    /// Whether a field of that name is present.
    @inline(__always)
    func contains(_ name: some FieldName) -> Bool { index(of: name) != nil }

    /// Takes a field's value; `nil` when absent. An empty value counts as present.
    @inline(__always)
    mutating func take(_ name: some FieldName) -> String? {
        guard let index = index(of: name) else { return nil }
        markTaken(index)
        return value(index)
    }

    /// Takes a field and gives `body` its value's bytes (decoded); `nil` when absent.
    @inline(__always)
    mutating func take<T>(
        _ name: some FieldName, reading body: (UnsafeBufferPointer<UInt8>) throws(ChargeKitError) -> T
    ) throws(ChargeKitError) -> T? {
        guard let index = index(of: name) else { return nil }
        markTaken(index)
        return try withValue(index, body)
    }

    /// Takes a field's value as a place in the URL's string, after `check` accepts its
    /// bytes (decoded); absent when the field is.
    @inline(__always)
    mutating func takeText(
        _ name: some FieldName, check: (UnsafeBufferPointer<UInt8>) throws(ChargeKitError) -> Void
    ) throws(ChargeKitError) -> CallbackText {
        guard let index = index(of: name) else { return CallbackText(wrappedValue: nil) }
        markTaken(index)
        return try text(index, check: check)
    }

    /// Takes a field's value as a place in ``source``, after `check` accepts its bytes
    /// (decoded); absent when the field is.
    @inline(__always)
    mutating func takePlace(
        _ name: some FieldName, check: (UnsafeBufferPointer<UInt8>) throws(ChargeKitError) -> Void
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
