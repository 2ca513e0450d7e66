import HTTPTypes
import Hummingbird
import OpenAPIHummingbird
import OpenAPIRuntime

/// The Hummingbird routes the generated server registers on, recording each as it is
/// registered: what the `405` answer's `Allow` and the check of the served routes
/// against the description read.
final class RecordingTransport: ServerTransport {
    private let routes: RouterGroup<SandboxRequestContext>
    /// The routes registered, `:name` for each path parameter.
    private(set) var served: [SandboxRoutes.Served] = []

    init(_ routes: RouterGroup<SandboxRequestContext>) { self.routes = routes }

    func register(
        _ handler: @escaping @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?),
        method: HTTPRequest.Method, path: String
    ) throws {
        routes.register(handler, method: method, path: path)
        let pattern = path.split(separator: "/", omittingEmptySubsequences: false).map { segment in
            segment.hasPrefix("{") && segment.hasSuffix("}") ? ":" + segment.dropFirst().dropLast() : String(segment)
        }.joined(separator: "/")
        served.append(SandboxRoutes.Served(method: method.rawValue, path: pattern))
    }
}
