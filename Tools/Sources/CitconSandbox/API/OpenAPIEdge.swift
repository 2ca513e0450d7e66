import Foundation
import HTTPTypes
import Hummingbird
import OpenAPIRuntime

/// The edge of the generated server, on the group its operations are registered on: what
/// the generated code cannot keep by itself.
///
/// - **Accept and Content-Type**: the sandbox answers JSON whatever a request's `Accept`
///   says, and reads a body as JSON whatever its `Content-Type` says, as the live API
///   does (the generated server would refuse either): the edge hands the operation a
///   request without `Accept`, its body's type JSON.
/// - **The caller's address**: ``clientAddress``, for ``OperationPermissions``' throttle.
/// - **The body**: read once, bounded, its repeated names refused (``JSONBodyEdge``,
///   after ``OperationPermissions``, so that a caller is checked before its body is read).
/// - **Errors**: an operation's ``APIError`` (which the generated server wraps in its
///   `ServerError`), or any error that answers for itself (``ClosingRefusal``), is thrown
///   on as itself, to answer as every route's does (its `fail` envelope, a refused body
///   closing the connection); the generated server's own
///   refusals (a request it cannot read) and anything else as a `4000` naming what it
///   could not read, never a 500.
struct OpenAPIEdge: RouterMiddleware {
    typealias Context = SandboxRequestContext

    /// The client address of the request being answered (an IPv6 address's /64), as the
    /// request context has it.
    @TaskLocal static var clientAddress: String?

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var head = request.head
        head.headerFields[.accept] = nil
        if head.headerFields[.contentType] != nil || head.method == .post { head.headerFields[.contentType] = "application/json" }
        do {
            return try await Self.$clientAddress.withValue(context.clientAddress) {
                try await next(Request(head: head, body: request.body), context)
            }
        } catch let error as ServerError {
            if let answer = error.underlyingError as? any HTTPResponseError { throw answer }
            if let decoding = error.underlyingError as? DecodingError { throw SandboxAPI.describe(decoding) }
            throw APIError(.invalidRequest, "request: \(error.causeDescription)")
        } catch let error as any HTTPResponseError {
            throw error   // an APIError, or the router's 404 and 405 for a route not this group's: each answers for itself
        } catch {
            throw APIError(.invalidRequest, "request: \(error)")
        }
    }
}
