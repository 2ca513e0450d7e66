import Foundation

extension KeyedDecodingContainer {
    /// A time as milliseconds since 1970, read from either world: the live API sends
    /// Unix **seconds**, the seed's examples and older documents milliseconds. A value
    /// above 10^11 is taken as milliseconds (10^11 seconds is the year 5138), anything
    /// else as seconds. `null` and absence are `nil`.
    func decodeEpochMilliseconds(_ key: Key) throws -> Int64? {
        guard let value = try decodeIfPresent(Int64.self, forKey: key) else { return nil }
        return UPIWire.epochMilliseconds(value)
    }

    /// A string that the server may send as a number (`"code": 4010`).
    func decodeLenientString(_ key: Key) throws -> String? {
        if let number = try? decodeIfPresent(Int64.self, forKey: key) { return String(number) }
        return try decodeIfPresent(String.self, forKey: key)
    }

    /// A Bool that the seed's table types as String (`"true"`/`"false"`).
    func decodeLenientBool(_ key: Key) throws -> Bool? {
        if let text = try? decodeIfPresent(String.self, forKey: key) {
            switch text {
            case "true": return true
            case "false": return false
            default:
                throw DecodingError.dataCorruptedError(forKey: key, in: self, debugDescription: "expected true or false")
            }
        }
        return try decodeIfPresent(Bool.self, forKey: key)
    }
}
