import CitconSandbox
@_spi(Tools) import ChargeKit
import Foundation
import ToolsHTTP
#if canImport(FoundationNetworking)
import FoundationNetworking  // NoRedirects, for tests that play an app on URLSession
#endif

/// A wallet without a browser: a ``URLOpener`` that, when the SDK opens the sandbox
/// wallet page, loads it over HTTP, submits the form a consumer would (Pay, Decline
/// or Cancel), and reopens the app on the URL the sandbox redirects to, exactly as
/// the wallet app would. Choosing `nil` abandons the payment (the consumer killed the
/// wallet).
public struct HeadlessWallet: URLOpener {
    private let choose: @Sendable (String) async -> SandboxAPI.WalletAction?
    private let reopenApp: @Sendable (URL) async -> Void

    /// Makes a wallet that decides with `choose` (given the wallet URL) and hands the
    /// return URL to `reopenApp` (typically `{ manager.handle(url: $0) }`).
    public init(choose: @escaping @Sendable (String) async -> SandboxAPI.WalletAction?,
                reopenApp: @escaping @Sendable (URL) async -> Void) {
        self.choose = choose
        self.reopenApp = reopenApp
    }

    /// Makes a wallet that always makes the same choice.
    public init(always action: SandboxAPI.WalletAction?, reopenApp: @escaping @Sendable (URL) async -> Void) {
        self.init(choose: { _ in action }, reopenApp: reopenApp)
    }

    public func open(_ url: String) async throws(ChargeKitError) {
        var formToken = ""
        guard let pageURL = URL(string: url), pageURL.scheme == "http" || pageURL.scheme == "https" else {
            throw .appNotInstalled(scheme: URL(string: url)?.scheme ?? url)
        }
        let page: ToolsHTTPClient.Response
        do throws(ToolsHTTPClient.Failure) {
            page = try await ToolsHTTPClient.shared.send(.init("GET", pageURL, deadline: .seconds(30), limit: 1 << 20))
        } catch {
            throw .openFailed("wallet page: \(error.description)")
        }
        guard page.status == 200, page.text.contains("<html") else { throw .openFailed("wallet page answered HTTP \(page.status)") }
        formToken = HeadlessWallet.formToken(in: page.text) ?? ""
        // The wallet app now runs on its own; the SDK's open() returns at once.
        let choose = self.choose, reopenApp = self.reopenApp, token = formToken
        Task {
            guard let action = await choose(url) else { return }
            // The wallet's answer is a 303 to the app, read here and never followed.
            let form = Data("form_token=\(token)&action=\(action.rawValue)".utf8)
            guard let answer = try? await ToolsHTTPClient.shared.send(
                      .init("POST", pageURL, headers: [("Content-Type", "application/x-www-form-urlencoded")], body: form,
                            deadline: .seconds(30), limit: 1 << 20, readsRedirects: true)),
                  answer.status == 303, let location = answer.header("Location"), let back = URL(string: location)
            else { return }
            await reopenApp(back)
        }
    }
}

/// A URLSession delegate that stops redirects from being followed: the wallet's
/// redirect goes to the app, and tests want to read the `Location` themselves.
public final class NoRedirects: NSObject, URLSessionTaskDelegate, @unchecked Sendable {
    /// Makes a delegate.
    override public init() {}

    public func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
                    newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }
}

extension HeadlessWallet {
    /// The form token in a rendered wallet page (what a browser would post back).
    public static func formToken(in html: String) -> String? { RenderedForm.token(in: html) }
}
