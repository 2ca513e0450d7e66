import Foundation

/// The work a binary property list asks of its reader, measured before it is read.
///
/// A binary property list (`bplist00`) stores each object once and refers to it by
/// number, so one array can hold the same array twice, which holds the same array
/// twice…: 392 bytes that Foundation expands into 413 MB, doubling with each level.
/// This walks the object table (trailer, offsets, the references of each array, set and
/// dictionary) and counts the objects the expanded tree would hold, refusing the file
/// when they pass a bound proportional to its size, or when a reference is out of the
/// table or makes a cycle. XML property lists hold no references.
enum BinaryPropertyListBound {
    /// Objects the expanded tree may hold per byte of the file (plus a floor).
    static let objectsPerByte = 8
    static let floor = 4_096

    /// Throws when `data`, a binary property list, would expand past its bound. Data
    /// that is not a binary property list passes (the reader judges it).
    static func check(_ data: Data, field: String) throws(ChargeKitError) {
        let bytes = [UInt8](data)
        guard bytes.count >= 40, bytes.starts(with: Array("bplist0".utf8)) else { return }
        let trailer = bytes.count - 32
        let offsetSize = Int(bytes[trailer + 6]), referenceSize = Int(bytes[trailer + 7])
        let count = integer(bytes, trailer + 8, 8), top = integer(bytes, trailer + 16, 8), table = integer(bytes, trailer + 24, 8)
        let refuse = ChargeKitError.invalidField(field, rule: "is a binary property list whose references expand past \(objectsPerByte) objects a byte")
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize), count > 0, count <= bytes.count, top < count,
              table >= 8, table <= trailer, count <= (trailer - table) / offsetSize else { throw refuse }
        let budget = bytes.count * objectsPerByte + floor
        var expanded = [Int?](repeating: nil, count: count)
        var visiting = [Bool](repeating: false, count: count)

        /// The objects object `index` expands to, itself included; `nil` past the budget.
        func size(_ index: Int, depth: Int) -> Int? {
            if let known = expanded[index] { return known }
            guard !visiting[index], depth < 512 else { return nil }
            let offset = integer(bytes, table + index * offsetSize, offsetSize)
            guard offset >= 8, offset < table else { return nil }
            let marker = bytes[offset]
            var references: [Int] = []
            switch marker >> 4 {
            case 0xA, 0xC, 0xD:
                var length = Int(marker & 0x0F), start = offset + 1
                if length == 0x0F {
                    guard start < table, bytes[start] >> 4 == 0x1 else { return nil }
                    let width = 1 << Int(bytes[start] & 0x0F)
                    guard width <= 8, start + 1 + width <= table else { return nil }
                    length = integer(bytes, start + 1, width)
                    start += 1 + width
                }
                let slots = marker >> 4 == 0xD ? length * 2 : length
                guard slots <= (table - start) / referenceSize else { return nil }
                references = (0..<slots).map { integer(bytes, start + $0 * referenceSize, referenceSize) }
            default:
                break
            }
            visiting[index] = true
            defer { visiting[index] = false }
            var total = 1
            for reference in references {
                guard reference < count, let inner = size(reference, depth: depth + 1) else { return nil }
                total += inner
                guard total <= budget else { return nil }
            }
            expanded[index] = total
            return total
        }
        guard size(top, depth: 0) != nil else { throw refuse }
    }

    /// A big-endian unsigned integer of `width` bytes at `offset` (0 past the end or too wide).
    private static func integer(_ bytes: [UInt8], _ offset: Int, _ width: Int) -> Int {
        guard offset >= 0, width <= 8, offset + width <= bytes.count else { return 0 }
        var value: UInt64 = 0
        for byte in bytes[offset..<(offset + width)] { value = value << 8 | UInt64(byte) }
        return value > UInt64(Int.max) ? Int.max : Int(value)
    }
}
