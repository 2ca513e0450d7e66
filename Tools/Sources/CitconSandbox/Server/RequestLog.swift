import Foundation
import HTTPTypes
import Hummingbird
import Logging

/// Logs every request once answered: method, route, status and duration, as structured
/// metadata. The route is the pattern the router matched (`/v1/charges/{token}`), never
/// the path itself, so charge tokens in paths, bearer tokens and keys (which are only
/// in headers and bodies, never logged) stay out of the log.
struct RequestLog: RouterMiddleware {
    typealias Context = SandboxRequestContext
    let logger: Logger

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let method = request.method.rawValue
        // The router writes the pattern it matched into the context's shared endpoint
        // path, which this middleware reads once the request is answered.
        var route: String { context.endpointPath ?? "(unknown route)" }
        do {
            let response = try await next(request, context)
            log(method, route, status: response.status.code, since: started)
            return response
        } catch let error as any HTTPResponseError {
            log(method, route, status: error.status.code, since: started)
            throw error
        } catch {
            log(method, route, status: 500, since: started)
            throw error
        }
    }

    private func log(_ method: String, _ route: String, status: Int, since started: ContinuousClock.Instant) {
        let elapsed = started.duration(to: .now)
        let milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        logger.log(level: status >= 500 ? .error : .info, "request", metadata: [
            "method": .string(method), "route": .string(route), "status": .stringConvertible(status),
            "ms": .string(String(format: "%.2f", milliseconds)),
        ])
    }
}
