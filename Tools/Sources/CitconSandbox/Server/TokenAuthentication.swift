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
