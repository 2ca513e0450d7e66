@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Authenticates the hand-written routes that take the merchant key (the route group it
/// is the middleware of: the listeners' stream; the generated operations' callers are
/// checked by ``OperationPermissions``): `Authorization: Bearer <merchant key>`, wrong
/// keys counted by the ``FailureThrottle``, before the route reads anything of the request.
struct MerchantKeyAuthentication: RouterMiddleware {
    typealias Context = SandboxRequestContext
    let api: SandboxAPI
    let throttle: FailureThrottle

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        try await throttle.requireMerchantKey(request.headers[.authorization], from: context.clientAddress, api: api)
        return try await next(request, context)
    }
}
