@_spi(Tools) import ChargeKit
import ChargeKitSimulators
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `/apps/open`: the payment apps in a browser, for testing an app on a phone
/// without them (``SandboxAppOpener`` sends its hand-offs here). `GET ?url=<request>`
/// shows the app's page; `POST` (the page's form, with its anti-forgery token) plays
/// the scenario chosen and answers `303 See Other` to the callback URL the app would
/// open, so that the phone's browser opens the calling app with it. The request is
/// read by the simulators ``SimulatedDevice`` and `chargekit simulate` use.
extension SandboxRoutes {
    /// What the simulator's form token is made for (never a charge id, which is digits).
    static let appsTokenSubject = "apps"

    /// The longest request URL the page takes (the simulated apps read up to 1 MiB;
    /// a browser's address bar much less).
    static let maximumAppRequestLength = 32 * 1024

    func appPage(_ request: Request) -> Response {
        do {
            let url = try Self.requestURL(request.uri.queryParameters["url"].map(String.init))
            let summary = try SimulatedApps.summary(of: url)
            // Answered once as approved, as the app would: a request it cannot answer at
            // all is named on the page; one it answers with an error offers only the way back.
            var apps = SimulatedApps()
            let answer = try PaymentCallback.parse(try apps.respond(to: url, outcome: .approved), provider: summary.provider)
            let refusal = answer.outcome == .approved ? nil : answer.message ?? answer.providerStatus
            return html(AppSimulatorPage.render(summary, url: url, formToken: formTokens.token(for: Self.appsTokenSubject), refusal: refusal))
        } catch {
            return errorPage(error, unavailable: "the simulated app is unavailable", render: AppSimulatorPage.error)
        }
    }

    func appPost(_ request: Request) async -> Response {
        do {
            guard let data = try await readBody(request, limit: 2 * Self.maximumAppRequestLength) else {
                return Self.closing(html(AppSimulatorPage.error("form larger than \(2 * Self.maximumAppRequestLength) bytes"), status: 413))
            }
            let form = try WalletPage.parseForm(String(decoding: data, as: UTF8.self))
            try checkSameSite(request, form: form, subject: Self.appsTokenSubject, page: "simulated app")
            let url = try Self.requestURL(form["url"])
            guard let provider = SimulatedApps.provider(of: url) else { throw Self.notAnAppRequest }
            guard let name = form["scenario"], let scenario = Scenario.named(name, for: provider) else {
                let names = Scenario.catalog(for: provider).map(\.name).joined(separator: ", ")
                throw APIError(.invalidRequest, "scenario: must be one of \(provider.rawValue)'s: \(names)")
            }
            // As the phone opens them: a raw space of an app that answers unencoded escaped.
            let callbacks = try scenario.callbacks(for: url).map(Self.redirectable)
            for callback in callbacks {
                // A callback the browser is sent to must be a URL a phone opens: never a
                // header with a control character in it, and by the wallet's redirect rule
                // (an app's own scheme or http(s); never javascript:, data:, file: or an
                // operating-system handler such as ms-msdt:).
                _ = try QueryURL(parsing: callback, maximumLength: .max)
                guard SandboxAPI.isSafeRedirect(callback) else {
                    throw APIError(.invalidRequest, "callback: the app would answer on \(callback.prefix { $0 != ":" }):, "
                                   + "which the sandbox never sends a browser to (an app's own scheme or http(s) only)")
                }
            }
            // A late answer must wait for the ledger's clock: the page says how long.
            guard callbacks.count == 1, scenario.play != .late, let callback = callbacks.first else {
                return html(AppSimulatorPage.played(scenario, callbacks: callbacks))
            }
            return Response(status: .seeOther, headers: [.location: callback, .cacheControl: "no-store"], body: ResponseBody())
        } catch {
            return errorPage(error, unavailable: "the simulated app is unavailable", render: AppSimulatorPage.error)
        }
    }

    /// `callback` as a `Location` a browser follows: a raw space (an app that answers
    /// unencoded writes them) as `%20`, as the phone does when it opens the answer;
    /// everything else as the app wrote it (a control character is then refused).
    static func redirectable(_ callback: String) -> String {
        callback.contains(" ") ? callback.replacingOccurrences(of: " ", with: "%20") : callback
    }

    private static let notAnAppRequest = APIError(
        .invalidRequest, "url: not a request to a payment app the sandbox simulates (\(SimulatedApps.schemes.joined(separator: ", ")))")

    /// The `url` parameter: present, bounded, and a request to a simulated app.
    private static func requestURL(_ url: String?) throws(APIError) -> String {
        guard let url, !url.isEmpty else { throw APIError(.invalidRequest, "url: required (the exact request URL the app would open)") }
        guard url.utf8.count <= maximumAppRequestLength else {
            throw APIError(.invalidRequest, "url: longer than \(maximumAppRequestLength) bytes")
        }
        guard SimulatedApps.provider(of: url) != nil else { throw notAnAppRequest }
        return url
    }
}
