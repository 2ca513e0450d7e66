@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI
import Foundation
import SandboxScenarios
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import OpenAPIRuntime

/// The HTTP face of ``SandboxAPI``: `/v1/` JSON in the UPI envelope, and the wallet
/// page under `/sandbox/wallet/`. No handler lets an error escape: every failure is a
/// `fail` envelope (or an HTML error page for the wallet), never a 500.
package struct SandboxRoutes: Sendable {
    let api: SandboxAPI
    /// The API requests this instance answered (`GET /v1/logs`, the dashboard).
    let journal: RequestJournal
    let merchantName: String
    /// How much of an over-limit body is read and discarded before answering.
    let discardLimit: Int
    /// The wallet form's anti-forgery tokens, one per charge.
    let formTokens: FormTokens
    /// What this instance's listener streams share (`GET /v1/ipn-events`).
    let listeners: ListenerStreams
    /// Refuses attempts while the merchant keeps failing to authenticate with its key.
    var throttle: FailureThrottle {
        FailureThrottle(store: api.store, clock: api.clock, addresses: addressFailures, logger: logger)
    }
    /// This instance's failed authentications per client address.
    let addressFailures: AddressFailures
    /// Where the throttle tells the operator that the key is being guessed.
    let logger: Logger

    /// One route the router serves: `METHOD /path`, with `:name` parameters.
    package struct Served: Sendable, Hashable {
        package let method: String
        package let path: String
    }

    /// The server URL the generated operations are registered under: their paths are whole.
    static let root = URL(fileURLWithPath: "/")

    /// Whether `path` matches a route pattern.
    static func matches(_ pattern: String, _ path: String) -> Bool {
        let want = pattern.split(separator: "/", omittingEmptySubsequences: false)
        let have = path.split(separator: "/", omittingEmptySubsequences: false)
        return want.count == have.count && zip(want, have).allSatisfy { $0.hasPrefix(":") ? !$1.isEmpty : $0 == $1 }
    }

    /// Registers every route on `router`, and returns them as registered (what a `405`
    /// answer's `Allow` is read from). The operations generated from the description
    /// (``SandboxOperations``) are registered behind ``OpenAPIEdge``, their callers
    /// checked by ``OperationPermissions``. The pages, written by hand, take nothing (the
    /// dashboard asks for the key itself, as a browser's Basic authentication).
    @discardableResult
    func register(on router: Router<SandboxRequestContext>) -> [Served] {
        var served: [Served] = []
        func route(_ method: HTTPRequest.Method, _ path: String,
                   _ handler: @escaping @Sendable (Request, SandboxRequestContext) async throws -> Response) {
            router.on(RouterPath(path), method: method, use: handler)
            served.append(Served(method: method.rawValue, path: path))
        }
        route(.get, "/openapi.yaml") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: OpenAPIDocument.yaml)))
        }
        route(.get, "/") { _, _ in
            html(LandingPage.render(merchant: merchantName, baseURL: api.baseURL()))
        }
        route(.get, "/docs/running-the-sandbox.md") { _, _ in
            // text/plain, so that a browser shows it rather than download it.
            Response(status: .ok, headers: [.contentType: "text/plain; charset=utf-8"],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: SandboxGuide.markdown)))
        }
        route(.get, "/sandbox/wallet/:id") { request, context in
            await walletPage(id: context.parameters.get("id") ?? "", capability: request.uri.queryParameters["k"].map(String.init))
        }
        route(.get, "/sandbox/qr/:id") { request, context in
            await qrPage(id: context.parameters.get("id") ?? "", capability: request.uri.queryParameters["k"].map(String.init))
        }
        route(.post, "/sandbox/wallet/:id") { request, context in
            await walletPost(request, id: context.parameters.get("id") ?? "", capability: request.uri.queryParameters["k"].map(String.init))
        }
        route(.get, "/sandbox/dashboard") { request, context in await dashboardPage(request, context: context) }
        route(.post, "/sandbox/dashboard") { request, context in await dashboardPost(request, context: context) }
        route(.get, AppSimulatorPage.path) { request, _ in appPage(request) }
        route(.post, AppSimulatorPage.path) { request, _ in await appPost(request) }
        // The operations generated from the description (SandboxOperations), behind their edge.
        let generated = RecordingTransport(router.group().add(middleware: OpenAPIEdge()))
        do {
            try SandboxOperations(api: api, journal: journal, listeners: listeners).registerHandlers(
                on: generated, serverURL: Self.root, configuration: Configuration(jsonEncodingOptions: [.sortedKeys, .withoutEscapingSlashes]),
                middlewares: [OperationPermissions(api: api, throttle: throttle), JSONBodyEdge(discardLimit: discardLimit)])
        } catch {
            // Only a server URL without a path could fail the registration, and ``root`` is "/".
            logger.critical("the generated operations were not registered: \(error)")
        }
        served += generated.served
        // Router middleware wraps every route, whenever it is added.
        router.add(middleware: UnknownRoutes(served: served))
        return served
    }

    // MARK: JSON

    /// The `fail` envelope of `error`, with its HTTP status.
    static func failure(_ error: APIError) -> Response {
        let envelope = UPIWire.Envelope(status: "fail", data: UPIWire.Failure(code: error.code.rawValue, message: error.message))
        let bytes = (try? UPIWire.encoder().encode(envelope)) ?? Data(#"{"status":"fail"}"#.utf8)
        return Response(status: .init(code: error.httpStatus), headers: [.contentType: "application/json; charset=utf-8"],
                        body: ResponseBody(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    /// The body, or `nil` when it is longer than `limit` (``BoundedBody``, up to
    /// ``SandboxConfiguration/maximumDiscardedBytes`` more read and discarded).
    func readBody(_ request: Request, limit: Int) async throws -> Data? {
        // The first chunk is kept as it came (most bodies are one chunk); later ones are
        // gathered behind it.
        var collected: ByteBuffer?
        let within = try await BoundedBody.read(request.body, limit: limit, discardLimit: discardLimit, size: \.readableBytes) { chunk in
            if var gathered = collected.take() {
                gathered.writeImmutableBuffer(chunk)
                collected = gathered
            } else {
                collected = chunk
            }
        }
        guard within else { return nil }
        return collected.map { Data($0.readableBytesView) } ?? Data()
    }

    /// The same answer, after which the connection is closed.
    static func closing(_ response: Response) -> Response {
        var response = response
        response.headers[.connection] = "close"
        return response
    }

    // MARK: Wallet

    /// An HTML page that no other site may frame, sniff or load scripts into.
    func html(_ body: String, status: Int = 200) -> Response {
        Response(status: .init(code: status), headers: [
            .contentType: "text/html; charset=utf-8",
            .xFrameOptions: "DENY",
            .contentSecurityPolicy: "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'",
            .xContentTypeOptions: "nosniff",
            // Not `no-referrer`: under it a browser sends `Origin: null` with the page's
            // own form posts, and the same-site check below must refuse `null`. With
            // `same-origin` the page's posts carry its origin, and other sites still
            // learn nothing of its URL (which holds the wallet link's capability).
            .referrerPolicy: "same-origin",
            .cacheControl: "no-store",
        ], body: ResponseBody(byteBuffer: ByteBuffer(string: body)))
    }

    /// A post must come from the sandbox's own page: not from another site (`Origin`,
    /// `Sec-Fetch-Site`), and carrying the form token of the page (`subject` is what
    /// the token was made for: a charge id for the wallet, ``dashboardTokenSubject``).
    /// `Origin: null` (a sandboxed frame, a `data:` page, a post made under a
    /// `no-referrer` policy) is refused: the pages' own policy is `same-origin`, so
    /// their posts name their origin.
    func checkSameSite(_ request: Request, form: [String: String], subject: String, page: String = "wallet") throws(APIError) {
        if request.headers[.secFetchSite].map({ $0 == "cross-site" || $0 == "same-site" }) == true {
            throw APIError(.forbidden, "the \(page) accepts posts from its own page only")
        }
        if let origin = request.headers[.origin] {
            let host = request.head.authority ?? ""
            guard origin == "http://" + host || origin == "https://" + host else {
                throw APIError(.forbidden, "Origin \(origin) is not the \(page)'s own")
            }
        }
        guard let token = form["form_token"], formTokens.check(token, for: subject) else {
            throw APIError(.forbidden, "form_token: missing or stale; reload the \(page) page")
        }
    }

    /// The HTML answer to a page request that failed: an ``APIError`` with its own
    /// status, a field refused by ChargeKit's rules as `400`, anything else as `503`
    /// (`unavailable`), each on the page `render` makes of the message.
    func errorPage(_ error: any Error, unavailable: String, render: (String) -> String) -> Response {
        switch error {
        case let error as APIError: html(render(error.message), status: error.httpStatus)
        case let error as ChargeKitError: html(render(error.description), status: 400)
        default: html(render(unavailable), status: 503)
        }
    }

    private func walletFailure(_ error: any Error) -> Response {
        errorPage(error, unavailable: "the wallet is unavailable", render: WalletPage.error)
    }

    private func walletPage(id: String, capability: String?) async -> Response {
        do {
            try api.checkWalletCapability(capability, for: id)
            let charge = try await api.currentCharge(id: id)
            let token = formTokens.token(for: charge.id)
            return html(WalletPage.render(charge: charge, merchant: merchantName, formToken: token, action: api.walletPath(for: charge.id)))
        } catch {
            return walletFailure(error)
        }
    }

    private func qrPage(id: String, capability: String?) async -> Response {
        do {
            try api.checkWalletCapability(capability, for: id)
            let charge = try await api.currentCharge(id: id)
            return html(WalletPage.qr(charge: charge, walletURL: api.baseURL() + api.walletPath(for: charge.id), merchant: merchantName))
        } catch {
            return walletFailure(error)
        }
    }

    private func walletPost(_ request: Request, id: String, capability: String?) async -> Response {
        do {
            try api.checkWalletCapability(capability, for: id)
            guard let data = try await readBody(request, limit: 4096) else {
                return Self.closing(html(WalletPage.error("form larger than 4096 bytes"), status: 413))
            }
            let form = try WalletPage.parseForm(String(decoding: data, as: UTF8.self))
            try checkSameSite(request, form: form, subject: id)
            guard let raw = form["action"], let action = SandboxAPI.WalletAction(rawValue: raw) else {
                throw APIError(.invalidRequest, "action: must be pay, decline or cancel")
            }
            let (charge, redirect) = try await api.walletAction(id: id, action: action, method: form["method"])
            if let redirect {
                guard SandboxAPI.isSafeRedirect(redirect) else {
                    return html(WalletPage.error("the return URL is not an http(s) or app URL; not redirecting"), status: 400)
                }
                return Response(status: .seeOther, headers: [.location: redirect], body: ResponseBody())
            }
            return html(WalletPage.done(charge: charge))
        } catch {
            return walletFailure(error)
        }
    }
}

/// An ``APIError`` answers for itself: the `fail` envelope with its code and HTTP
/// status (a refused body also closes the connection).
extension APIError: HTTPResponseError {
    public var status: HTTPResponse.Status { .init(code: httpStatus) }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        let response = SandboxRoutes.failure(self)
        return code == .bodyTooLarge ? SandboxRoutes.closing(response) : response
    }
}

/// An ``APIError`` answered as its own, after which the connection is closed (a
/// refusal of what the connection itself holds, such as a listener stream over the bound).
struct ClosingRefusal: Error, HTTPResponseError {
    let error: APIError

    init(_ error: APIError) { self.error = error }

    var status: HTTPResponse.Status { error.status }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        SandboxRoutes.closing(SandboxRoutes.failure(error))
    }
}

extension HTTPField.Name {
    static let xFrameOptions = Self("X-Frame-Options")!
    static let xContentTypeOptions = Self("X-Content-Type-Options")!
    static let referrerPolicy = Self("Referrer-Policy")!
    static let secFetchSite = Self("Sec-Fetch-Site")!
    static let wwwAuthenticate = Self("WWW-Authenticate")!
}
