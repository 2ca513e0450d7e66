@_spi(Tools) import CitconUPI
import Foundation

extension CPayIPN {
    /// Signs `fields`: adds `fields` (their names, comma-separated, in order) and
    /// `sign`, as Citcon's server does. The sandbox's signer: signing is a server's
    /// concern, so it lives here, not in the app SDK, which only verifies
    /// (`CPayIPN.verify(_:secret:)`, with the same `CPayIPN.signature(of:secret:)`).
    package static func signed(_ fields: [(String, String)], secret: String) -> [String: String] {
        var all = Dictionary(fields, uniquingKeysWith: { first, _ in first })
        all["fields"] = fields.map(\.0).joined(separator: ",")
        all["sign"] = signature(of: all, secret: secret)
        return all
    }
}
