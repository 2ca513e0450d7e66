@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Authenticates the `/v1/` operations that take an access token (the route group it
/// is the middleware of): looks the bearer token up (unknown or expired is `4010`) and
/// puts it in the request context, the way hummingbird-auth's authenticators fill
/// theirs. The routes check its permissions.
struct TokenAuthentication: RouterMiddleware {
    typealias Context = SandboxRequestContext
    let api: SandboxAPI

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var context = context
        context.token = try await api.authenticate(request.headers[.authorization])
        return try await next(request, context)
    }
}

/// Authenticates the hand-written routes that take the merchant key (the route groups it
/// is the middleware of: the listeners' routes, `/v1/logs`, `/sandbox/clock`; the
/// generated operations' callers are checked by ``OperationPermissions``): `Authorization: Bearer <merchant key>`, wrong keys counted by the
/// ``FailureThrottle``, before the route reads anything of the request.
struct MerchantKeyAuthentication: RouterMiddleware {
    typealias Context = SandboxRequestContext
    let api: SandboxAPI
    let throttle: FailureThrottle

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await throttle.requireMerchantKey(request.headers[.authorization], from: context.clientAddress, api: api)
        return try await next(request, context)
    }
}
