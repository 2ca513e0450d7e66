import Foundation
import HTTPTypes
import Hummingbird
import Logging
@_spi(Tools) import CitconUPI
import NIOCore
import Synchronization

/// Logs every request once answered: method, route, status and duration, as structured
/// metadata. The route is the pattern the router matched (`/v1/charges/{charge_token}`), never
/// the path itself, so charge tokens in paths, bearer tokens and keys (which are only
/// in headers and bodies, never logged) stay out of the log.
///
/// Each API request (`/v1/…`, but the log itself and the listeners' event stream) is
/// also kept in the instance's ``RequestJournal`` with both bodies, masked: what
/// `GET /v1/logs` and the dashboard show the merchant.
struct RequestLog: RouterMiddleware {
    typealias Context = SandboxRequestContext
    let logger: Logger
    let journal: RequestJournal
    let clock: SandboxClock

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let started = ContinuousClock.now
        let method = request.method.rawValue
        // The router writes the pattern it matched into the context's shared endpoint
        // path, which this middleware reads once the request is answered.
        var route: String { context.endpointPath ?? "(unknown route)" }
        let journaled = request.uri.path.hasPrefix("/v1/") && !request.uri.path.hasPrefix("/v1/logs")
            && !(request.method == .get && request.uri.path.hasPrefix("/v1/ipn-events"))
        var request = request
        var body: ByteBuffer?
        var cut = false
        // A body of a declared length the API takes is read here once, and the route is
        // handed the bytes read; any other is left to the route and its own limits.
        if journaled, let length = request.headers[.contentLength].flatMap({ Int($0) }), (1...UPIWire.maximumBodyBytes).contains(length) {
            do {
                body = try await request.collectBody(upTo: length)
            } catch {
                // Cut short (the client closed, or sent slower than the request timeout):
                // the body cannot be read a second time, so the route never runs.
                cut = true
            }
        }
        let requestBody = body.map { Data($0.readableBytesView) }
        let (clock, journal) = (clock, journal)
        let record = { @Sendable (route: String, status: Int, responseBody: Data?) -> Void in
            journal.record(time: clock.now / 1000, method: method, route: route, status: status,
                           milliseconds: Self.milliseconds(since: started), requestBody: requestBody, responseBody: responseBody)
        }
        if cut {
            let refusal = APIError(.malformedJSON, "body: ended before its Content-Length was read (cut short, or slower than the request timeout)")
            log(method, "(body cut short)", status: refusal.status.code, since: started)
            record("(body cut short)", refusal.status.code, nil)
            var response = try refusal.response(from: request, context: context)
            response.headers[.connection] = "close"
            return response
        }
        do {
            let response = try await next(request, context)
            log(method, route, status: response.status.code, since: started)
            guard journaled else { return response }
            let (routeName, status) = (route, response.status.code)
            // The answer's body as it is written (its first bytes, as many as are kept).
            let kept = KeptBytes()
            return response.journaled(keeping: kept) { record(routeName, status, kept.data) }
        } catch let error as any HTTPResponseError {
            log(method, route, status: error.status.code, since: started)
            if journaled { record(route, error.status.code, nil) }
            throw error
        } catch {
            log(method, route, status: 500, since: started)
            throw error
        }
    }

    static func milliseconds(since started: ContinuousClock.Instant) -> Double {
        let elapsed = started.duration(to: .now)
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }

    private func log(_ method: String, _ route: String, status: Int, since started: ContinuousClock.Instant) {
        let milliseconds = Self.milliseconds(since: started)
        logger.log(level: status >= 500 ? .error : .info, "request", metadata: [
            "method": .string(method), "route": .string(route), "status": .stringConvertible(status),
            "ms": .string(String(format: "%.2f", milliseconds)),
        ])
    }
}

/// The first bytes of an answer as it is written, up to what the journal keeps.
final class KeptBytes: Sendable {
    private let bytes = Mutex(Data())

    func append(_ buffer: ByteBuffer) {
        bytes.withLock { kept in
            let room = RequestJournal.maximumBodyBytes + 1 - kept.count
            guard room > 0 else { return }
            kept.append(contentsOf: buffer.readableBytesView.prefix(room))
        }
    }

    var data: Data? { bytes.withLock { $0.isEmpty ? nil : $0 } }
}

extension Response {
    /// The response, its body's first bytes kept in `kept` as they are written and
    /// `record` run once all is written; its length stays declared.
    func journaled(keeping kept: KeptBytes, then record: @escaping @Sendable () -> Void) -> Response {
        var response = self
        let body = response.body
        response.body = ResponseBody(contentLength: body.contentLength) { writer in
            try await body.write(writer.map { buffer in
                kept.append(buffer)
                return buffer
            })
            record()
        }
        return response
    }
}
