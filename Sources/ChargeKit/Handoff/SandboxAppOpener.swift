import Foundation

/// A ``URLOpener`` for debug builds that sends each hand-off to the ChargeKit
/// sandbox's simulated payment apps instead of to the payment app: it opens the
/// sandbox's payment-apps page with `?url=<the request URL>` (in Safari, on a phone),
/// where a page shows what the app would show and plays the outcome you choose. The
/// browser is then sent to the callback URL the real app would open, byte for byte,
/// so your app receives it through its usual path: nothing changes in Info.plist or
/// in how you handle callbacks.
///
/// ```swift
/// #if DEBUG
/// let opener = SandboxAppOpener(page: URL(string: "http://192.168.1.20:8790/apps/open")!)
/// #else
/// let opener = UIApplicationOpener()
/// #endif
/// ```
///
/// Start the sandbox where the phone can reach it:
/// `chargekit sandbox serve --host 0.0.0.0 --public-url http://<your Mac's address>:8790`;
/// it prints the page's address (`payment apps:`).
public struct SandboxAppOpener: URLOpener {
    /// The sandbox's payment-apps page, as `sandbox serve` prints it, such as
    /// `http://192.168.1.20:8790/apps/open`.
    public let page: URL
    private let opener: any URLOpener

    /// Makes an opener that opens the sandbox's page with `opener` (on Apple
    /// platforms, `init(page:)` opens it with `UIApplication`).
    public init(page: URL, opening opener: any URLOpener) {
        self.page = page
        self.opener = opener
    }

    /// The sandbox page that plays the app `requestURL` opens.
    /// - Throws: ``ChargeKitError/invalidURL(_:rule:)`` naming `page` when it is not
    ///   an `http` or `https` URL with a host and no query.
    public func simulatorURL(for requestURL: String) throws(ChargeKitError) -> String {
        guard let scheme = page.scheme?.lowercased(), scheme == "http" || scheme == "https", page.host != nil,
              page.query == nil, page.fragment == nil else {
            throw .invalidURL("page", rule: "must be an http or https URL with a host and no query, such as http://192.168.1.20:8790/apps/open")
        }
        return page.absoluteString + "?url=" + PercentEncoding.encode(requestURL)
    }

    /// Opens the sandbox's page for `url` instead of `url`.
    public func open(_ url: String) async throws(ChargeKitError) {
        try await opener.open(try simulatorURL(for: url))
    }
}
