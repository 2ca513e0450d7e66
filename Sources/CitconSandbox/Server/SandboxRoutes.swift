import ChargeKit
import CitconUPI
import Foundation
import Hummingbird
import NIOCore

/// The HTTP face of ``SandboxAPI``: `/v1/` JSON in the UPI envelope, and the wallet
/// page under `/sandbox/wallet/`. No handler lets an error escape: every failure is a
/// `fail` envelope (or an HTML error page for the wallet), never a 500.
struct SandboxRoutes: Sendable {
    let api: SandboxAPI
    let merchantName: String

    func register(on router: Router<BasicRequestContext>) {
        router.post("/v1/access-tokens") { request, _ in
            await json(request, status: 201) { body, auth in try await api.issueToken(authorization: auth, body: body) }
        }
        router.post("/v1/charges") { request, _ in
            await json(request, status: 201) { body, auth in try await api.createCharge(authorization: auth, body: body) }
        }
        router.post("/v1/charges/:token") { request, context in
            let token = context.parameters.get("token") ?? ""
            return await json(request) { body, auth in try await api.confirm(chargeToken: token, authorization: auth, body: body) }
        }
        router.get("/v1/transactions/:id") { request, context in
            let id = context.parameters.get("id") ?? ""
            return await json(request) { _, auth in try await api.inquire(id: id, authorization: auth) }
        }
        router.post("/v1/captures") { request, _ in
            await json(request, status: 201) { body, auth in try await api.capture(authorization: auth, body: body) }
        }
        router.post("/v1/refunds") { request, _ in
            await json(request, status: 201) { body, auth in try await api.refund(authorization: auth, body: body) }
        }
        router.post("/v1/cancels") { request, _ in
            await json(request, status: 201) { body, auth in try await api.cancel(authorization: auth, body: body) }
        }
        router.get("/v1/health") { _, _ in
            Self.envelope(UPIWire.Envelope(data: ["status": "ok"]), status: 200)
        }
        router.get("/sandbox/wallet/:id") { _, context in
            await walletPage(id: context.parameters.get("id") ?? "")
        }
        router.post("/sandbox/wallet/:id") { request, context in
            await walletPost(request, id: context.parameters.get("id") ?? "")
        }
    }

    // MARK: JSON

    static func envelope<Payload: Codable & Sendable>(_ envelope: UPIWire.Envelope<Payload>, status: Int) -> Response {
        let data = (try? UPIWire.encoder().encode(envelope)) ?? Data(#"{"status":"fail"}"#.utf8)
        return Response(status: .init(code: status), headers: [.contentType: "application/json; charset=utf-8"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: data)))
    }

    static func failure(_ error: APIError) -> Response {
        envelope(UPIWire.Envelope(status: "fail", data: UPIWire.Failure(code: error.code.rawValue, message: error.message)),
                 status: error.httpStatus)
    }

    /// Reads the body (bounded), runs `body`, wraps its answer or error in an envelope.
    private func json<Payload: Codable & Sendable>(
        _ request: Request, status: Int = 200,
        _ handler: @Sendable (Data, String?) async throws -> Payload
    ) async -> Response {
        var request = request
        let data: Data
        do {
            data = Data(try await request.collectBody(upTo: UPIWire.maximumBodyBytes).readableBytesView)
        } catch is NIOTooManyBytesError {
            return Self.failure(APIError(.bodyTooLarge, "body: larger than \(UPIWire.maximumBodyBytes) bytes"))
        } catch {
            return Self.failure(APIError(.malformedJSON, "body: could not be read"))
        }
        do {
            return Self.envelope(UPIWire.Envelope(data: try await handler(data, request.headers[.authorization])), status: status)
        } catch let error as APIError {
            return Self.failure(error)
        } catch {
            return Self.failure(APIError(.invalidRequest, "request: \(error)"))
        }
    }

    // MARK: Wallet

    private func html(_ body: String, status: Int = 200) -> Response {
        Response(status: .init(code: status), headers: [.contentType: "text/html; charset=utf-8"],
                 body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    private func walletPage(id: String) async -> Response {
        do {
            let charge = try await api.currentCharge(id: id)
            return html(WalletPage.render(charge: charge, merchant: merchantName))
        } catch let error as APIError {
            return html(WalletPage.error(error.message), status: error.httpStatus)
        } catch {
            return html(WalletPage.error("the wallet is unavailable"), status: 503)
        }
    }

    private func walletPost(_ request: Request, id: String) async -> Response {
        var request = request
        do {
            let data = Data(try await request.collectBody(upTo: 4096).readableBytesView)
            let form = try WalletPage.parseForm(String(decoding: data, as: UTF8.self))
            guard let raw = form["action"], let action = SandboxAPI.WalletAction(rawValue: raw) else {
                throw APIError(.invalidRequest, "action: must be pay, decline or cancel")
            }
            let (charge, redirect) = try await api.walletAction(id: id, action: action)
            if let redirect {
                return Response(status: .seeOther, headers: [.location: redirect], body: ResponseBody())
            }
            return html(WalletPage.done(charge: charge))
        } catch let error as APIError {
            return html(WalletPage.error(error.message), status: error.httpStatus)
        } catch let error as ChargeKitError {
            return html(WalletPage.error(error.description), status: 400)
        } catch is NIOTooManyBytesError {
            return html(WalletPage.error("form larger than 4096 bytes"), status: 413)
        } catch {
            return html(WalletPage.error("the wallet is unavailable"), status: 503)
        }
    }
}
