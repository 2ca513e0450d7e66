import Foundation

/// A ``URLOpener`` for debug builds that sends each hand-off to the ChargeKit
/// sandbox's simulated payment apps instead of to the payment app: it opens
/// `<sandbox>/apps/open?url=<the request URL>` (in Safari, on a phone), where a page
/// shows what the app would show and plays the outcome you choose. The browser is
/// then sent to the callback URL the real app would open, byte for byte, so your
/// app receives it through its usual path: nothing changes in Info.plist or in how
/// you handle callbacks.
///
/// ```swift
/// #if DEBUG
/// let opener = SandboxAppOpener(sandbox: URL(string: "http://192.168.1.20:8790")!)
/// #else
/// let opener = UIApplicationOpener()
/// #endif
/// ```
///
/// Start the sandbox where the phone can reach it:
/// `chargekit sandbox serve --host 0.0.0.0 --public-url http://<your Mac's address>:8790`.
public struct SandboxAppOpener: URLOpener {
    /// The sandbox's base URL, such as `http://192.168.1.20:8790`.
    public let sandbox: URL
    private let opener: any URLOpener

    /// Makes an opener that opens the sandbox's pages with `opener` (on Apple
    /// platforms, `init(sandbox:)` opens them with `UIApplication`).
    public init(sandbox: URL, opening opener: any URLOpener) {
        self.sandbox = sandbox
        self.opener = opener
    }

    /// The sandbox page that plays the app `requestURL` opens.
    /// - Throws: ``ChargeKitError/invalidURL(_:rule:)`` naming `sandbox` when it is not
    ///   an `http` or `https` URL with a host.
    public func simulatorURL(for requestURL: String) throws(ChargeKitError) -> String {
        guard let scheme = sandbox.scheme?.lowercased(), scheme == "http" || scheme == "https", sandbox.host != nil,
              sandbox.query == nil, sandbox.fragment == nil else {
            throw .invalidURL("sandbox", rule: "must be an http or https URL with a host and no query, such as http://192.168.1.20:8790")
        }
        var base = sandbox.absoluteString
        while base.hasSuffix("/") { base.removeLast() }
        return base + "/apps/open?url=" + PercentEncoding.encode(requestURL)
    }

    /// Opens the sandbox's page for `url` instead of `url`.
    public func open(_ url: String) async throws(ChargeKitError) {
        try await opener.open(try simulatorURL(for: url))
    }
}
