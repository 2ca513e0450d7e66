import Foundation
import HTTPTypes
import Hummingbird
import OpenAPIRuntime

/// The edge of the generated server, on the group its operations are registered on: what
/// the generated code cannot keep by itself.
///
/// - **Accept**: the sandbox answers JSON whatever a request's `Accept` says, as the live
///   API does (the generated server would refuse an `Accept` without JSON): the edge
///   hands the operation a request without one.
/// - **Errors**: an operation's ``APIError`` (which the generated server wraps in its
///   `ServerError`) goes out as its own `fail` envelope; the generated server's own
///   refusals (a request it cannot read) and anything else as a `4000` naming what it
///   could not read, never a 500.
struct OpenAPIEdge: RouterMiddleware {
    typealias Context = SandboxRequestContext

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var head = request.head
        head.headerFields[.accept] = nil
        do {
            return try await next(Request(head: head, body: request.body), context)
        } catch let error as ServerError {
            if let apiError = error.underlyingError as? APIError { return SandboxRoutes.failure(apiError) }
            return SandboxRoutes.failure(APIError(.invalidRequest, "request: \(error.causeDescription)"))
        } catch let error as APIError {
            return SandboxRoutes.failure(error)
        } catch let error as HTTPError {
            throw error   // a route that is not this group's: the router's 404 and 405 answer it
        } catch {
            return SandboxRoutes.failure(APIError(.invalidRequest, "request: \(error)"))
        }
    }
}
