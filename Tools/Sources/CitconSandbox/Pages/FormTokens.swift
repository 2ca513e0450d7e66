@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The wallet form's anti-forgery tokens: derived from the charge id and a secret the
/// sandbox keeps in its database, so that every instance of a shared sandbox renders
/// and checks the same token (a page served by one instance may be posted to another)
/// and nothing is held in memory. Another site cannot compute it without the secret.
struct FormTokens: Sendable {
    let secret: String

    func token(for id: String) -> String { String(SHA256.hex(secret + "\u{0}" + id).prefix(32)) }

    func check(_ token: String, for id: String) -> Bool { constantTimeEquals(self.token(for: id), token) }
}

/// A page's form token read back out of the HTML the sandbox rendered, as a browser
/// posts it back: for what drives the sandbox's forms without a browser (`chargekit
/// upi pay`, the headless wallet of `CitconSandboxTesting`).
public enum RenderedForm {
    /// The value of the page's `form_token` field, if it has one.
    public static func token(in html: String) -> String? {
        guard let start = html.range(of: #"name="form_token" value=""#) else { return nil }
        let rest = html[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        return String(rest[..<end])
    }
}
