@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// `/sandbox/dashboard`: the operator's page, behind the merchant key. `GET` shows it;
/// `POST` (a form of the page, with its anti-forgery token) pays, declines, cancels or
/// expires a charge, or sends an IPN again, then redirects back to the page.
extension SandboxRoutes {
    /// What the dashboard's form token is made for (never a charge id, which is digits).
    static let dashboardTokenSubject = "dashboard"

    /// The `401`: a client that sent a bearer token is told the scheme it used; any
    /// other (a browser) is asked for the key as the password of Basic authentication.
    private func unauthorized(_ error: APIError, _ request: Request) -> Response {
        var response = html(DashboardPage.error(error.message), status: 401)
        let bearer = request.headers[.authorization].map { $0.lowercased().hasPrefix("bearer") } ?? false
        response.headers[.wwwAuthenticate] = bearer
            ? #"Bearer realm="ChargeKit sandbox dashboard""#
            : #"Basic realm="ChargeKit sandbox dashboard", charset="UTF-8""#
        return response
    }

    /// The answer for a failure of a dashboard request.
    private func dashboardFailure(_ error: any Error, _ request: Request) -> Response {
        if let error = error as? APIError, error.code == .unauthorized { return unauthorized(error, request) }
        return errorPage(error, unavailable: "the dashboard is unavailable", render: DashboardPage.error)
    }

    /// The merchant key, as a Bearer token or Basic authentication's password, checked
    /// under the throttle (a wrong key counted for the client's address).
    private func requireMerchant(_ request: Request, _ context: SandboxRequestContext) async throws {
        let authorization = request.headers[.authorization]
        try await throttle.guarded(authorization: authorization, address: context.clientAddress) { try await api.authenticateMerchant(authorization) }
    }

    func dashboardPage(_ request: Request, context: SandboxRequestContext) async -> Response {
        do {
            try await requireMerchant(request, context)
            let entries = try await api.dashboard()
            return html(DashboardPage.render(entries, merchant: merchantName,
                                             formToken: formTokens.token(for: Self.dashboardTokenSubject), now: api.now,
                                             requests: journal.latest(20), failedKeyAttempts: try await throttle.recentFailures()))
        } catch {
            return dashboardFailure(error, request)
        }
    }

    func dashboardPost(_ request: Request, context: SandboxRequestContext) async -> Response {
        do {
            try await requireMerchant(request, context)
            guard let data = try await readBody(request, limit: 4096) else {
                return Self.closing(html(DashboardPage.error("form larger than 4096 bytes"), status: 413))
            }
            let form = try WalletPage.parseForm(String(decoding: data, as: UTF8.self))
            try checkSameSite(request, form: form, subject: Self.dashboardTokenSubject, page: "dashboard")
            let action = form["action"] ?? ""
            if action == "resend" {
                try await api.resendNotification(id: form["ipn"] ?? "")
            } else {
                guard let id = form["charge"] else { throw APIError(.invalidRequest, "charge: required for '\(action)'") }
                if action == "expire" {
                    try await api.expireNow(id: id)
                } else if let choice = SandboxAPI.WalletAction(rawValue: action) {
                    // The wallet leaves a charge no longer payable as it is; the operator is told instead.
                    // One only initiated is confirmed first, as the wallet page does: with its own
                    // method, else a card.
                    let charge = try await api.currentCharge(id: id)
                    guard charge.status == .pending || charge.status == .initiated else {
                        throw APIError(.illegalState, "status: the charge is \(charge.status); only an initiated or pending charge can be paid, declined or canceled")
                    }
                    _ = try await api.walletAction(id: id, action: choice, method: charge.method == nil ? "card" : nil)
                } else {
                    throw APIError(.invalidRequest, "action: must be pay, decline, cancel, expire or resend")
                }
            }
            return Response(status: .seeOther, headers: [.location: DashboardPage.path, .cacheControl: "no-store"], body: ResponseBody())
        } catch {
            return dashboardFailure(error, request)
        }
    }
}
