@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// Answers an unknown route (`404`, code `4004`) or a known path with the wrong method
/// (`405` with `Allow`, code `4050`) in the UPI envelope, like every other answer.
struct UnknownRoutes: RouterMiddleware {
    typealias Context = SandboxRequestContext
    /// The routes the router serves, as registered.
    let served: [SandboxRoutes.Served]

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch let error as HTTPError where error.status == .notFound {
            let path = request.uri.path
            let allowed = served.filter { SandboxRoutes.matches($0.path, path) }.map(\.method)
            guard allowed.isEmpty else {
                var response = SandboxRoutes.failure(APIError(.methodNotAllowed,
                    "method: \(request.method.rawValue) is not allowed on \(path) (\(allowed.joined(separator: ", ")))"))
                response.headers[.allow] = allowed.joined(separator: ", ")
                return response
            }
            return SandboxRoutes.failure(APIError(.notFound, "path: no route \(request.method.rawValue) \(path)"))
        }
    }
}
