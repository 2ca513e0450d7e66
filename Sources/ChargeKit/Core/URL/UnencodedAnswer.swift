/// The answer of an app that writes values unencoded (Viva.com Terminal): a raw space
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
        var url = url
        return url.withUTF8 { bytes -> String? in
            func needsEscape(_ index: Int) -> Bool {
                let byte = bytes[index]
                if byte == 0x20 { return true }
                guard byte == 0x25 else { return false }
                return !(index + 2 < bytes.count && PercentEncoding.hexValue(bytes[index + 1]) != nil && PercentEncoding.hexValue(bytes[index + 2]) != nil)
            }
            var extra = 0
            for index in bytes.indices where needsEscape(index) { extra += 2 }
            guard extra > 0 else { return nil }
            return String(unsafeUninitializedCapacity: bytes.count + extra) { out in
                var written = 0
                for index in bytes.indices {
                    if needsEscape(index) {
                        out[written] = 0x25
                        out[written + 1] = 0x32
                        out[written + 2] = bytes[index] == 0x20 ? 0x30 : 0x35
                        written += 3
                    } else {
                        out[written] = bytes[index]
                        written += 1
                    }
                }
                return written
            }
        }
    }
}
