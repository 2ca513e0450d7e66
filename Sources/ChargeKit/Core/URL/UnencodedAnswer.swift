/// The answer of an app that writes values unencoded (its `answersUnencoded`): a raw space
/// becomes `%20` and a `%` that starts no escape `%25`, so that the one URL reader
/// reads it; everything else (`*`, `+`, non-ASCII) is kept as sent.
enum UnencodedAnswer {
    /// The registered app that writes its answers unencoded whose callback `escaped`
    /// (an answer already escaped) reads as; `nil` when none.
    static func app(answering escaped: String, maximumLength: Int = QueryURL.defaultMaximumLength) -> (any PaymentAppDefinition.Type)? {
        guard let split = try? QueryURL(parsing: escaped, maximumLength: maximumLength) else { return nil }
        return RegisteredApps.all.first { $0.answersUnencoded && $0.recognises(split) }
    }

    /// The escaped text, or `nil` when there is nothing to escape.
    static func escaped(_ url: String) -> String? {
        let bytes = Array(url.utf8)
        func needsEscape(_ index: Int) -> Bool {
            let byte = bytes[index]
            if byte == 0x20 { return true }
            guard byte == 0x25 else { return false }
            return !(index + 2 < bytes.count && PercentEncoding.hexValue(bytes[index + 1]) != nil && PercentEncoding.hexValue(bytes[index + 2]) != nil)
        }
        guard bytes.indices.contains(where: needsEscape) else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        for index in bytes.indices {
            if needsEscape(index) {
                out += [0x25, 0x32, bytes[index] == 0x20 ? 0x30 : 0x35]
            } else {
                out.append(bytes[index])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
