import CitconSandbox
@_spi(Tools) import ChargeKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A wallet without a browser: a ``URLOpener`` that, when the SDK opens the sandbox
/// wallet page, loads it over HTTP, submits the form a consumer would (Pay, Decline
/// or Cancel), and reopens the app on the URL the sandbox redirects to, exactly as
/// the wallet app would. Choosing `nil` abandons the payment (the consumer killed the
/// wallet).
public struct HeadlessWallet: URLOpener {
    private let choose: @Sendable (String) async -> SandboxAPI.WalletAction?
    private let reopenApp: @Sendable (URL) async -> Void
    private let session: URLSession

    /// Makes a wallet that decides with `choose` (given the wallet URL) and hands the
    /// return URL to `reopenApp` (typically `{ manager.handle(url: $0) }`).
    public init(choose: @escaping @Sendable (String) async -> SandboxAPI.WalletAction?,
                reopenApp: @escaping @Sendable (URL) async -> Void) {
        self.choose = choose
        self.reopenApp = reopenApp
        session = URLSession(configuration: .ephemeral, delegate: NoRedirects(), delegateQueue: nil)
    }

    /// Makes a wallet that always makes the same choice.
    public init(always action: SandboxAPI.WalletAction?, reopenApp: @escaping @Sendable (URL) async -> Void) {
        self.init(choose: { _ in action }, reopenApp: reopenApp)
    }

    public func open(_ url: String) async throws(ChargeKitError) {
        var formToken = ""
        guard let page = URL(string: url), page.scheme == "http" || page.scheme == "https" else {
            throw .appNotInstalled(scheme: URL(string: url)?.scheme ?? url)
        }
        do {
            let (html, response) = try await session.data(from: page)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            guard status == 200, String(decoding: html, as: UTF8.self).contains("<html") else {
                throw ChargeKitError.openFailed("wallet page answered HTTP \(status)")
            }
            formToken = HeadlessWallet.formToken(in: String(decoding: html, as: UTF8.self)) ?? ""
        } catch let error as ChargeKitError {
            throw error
        } catch {
            throw .openFailed("wallet page: \(error.localizedDescription)")
        }
        // The wallet app now runs on its own; the SDK's open() returns at once.
        let choose = self.choose, reopenApp = self.reopenApp, session = self.session, token = formToken
        Task {
            guard let action = await choose(url) else { return }
            var request = URLRequest(url: page)
            request.httpMethod = "POST"
            request.setValue("application/x-www-form-urlencoded", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data("form_token=\(token)&action=\(action.rawValue)".utf8)
            guard let (_, response) = try? await session.data(for: request),
                  let http = response as? HTTPURLResponse, http.statusCode == 303,
                  let location = http.value(forHTTPHeaderField: "Location"), let back = URL(string: location)
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
