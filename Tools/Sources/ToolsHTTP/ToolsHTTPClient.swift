import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

/// The one HTTP client of ChargeKit's tools: every request a `chargekit` or
/// `chargekit-server` command makes (the UPI API, the sandbox's dashboard, the
/// listener's stream, its forwards and reports, the headless wallet) goes through it.
///
/// It gives every request the guarantees the app SDK's `UPIClient` has, on SwiftNIO
/// (AsyncHTTPClient) rather than swift-corelibs-foundation's `URLSession`:
/// - **No redirect is followed.** A 3xx is an error naming its status
///   (``Failure/redirect(status:url:)``), unless the request asks to read it
///   (``Request/readsRedirects``): following one would carry the `Authorization`
///   header, the merchant key, to wherever `Location` points.
/// - **Nothing is unbounded.** An answer is read as it arrives and refused past
///   ``Request/limit`` bytes; an event of a stream past its own limit.
/// - **A total deadline** per request (``Request/deadline``), however slowly a server
///   trickles bytes; a stream ends after ``idleTimeout`` without a byte.
/// - **Idle costs nothing.** A stream waits in the event loop's `epoll`, not in a
///   polling thread.
public struct ToolsHTTPClient: Sendable {
    /// How long a connection (or a stream) may stay silent before it is dropped.
    public static let idleTimeout: TimeAmount = .seconds(60)

    /// The client every command shares. It lives as long as the process (it is never
    /// shut down, so it never traps on a missing shutdown), on NIO's singleton event loops.
    public static let shared = ToolsHTTPClient()

    private static let engine = HTTPClient(
        eventLoopGroup: HTTPClient.defaultEventLoopGroup,
        configuration: {
            var configuration = HTTPClient.Configuration(
                redirectConfiguration: .disallow,
                timeout: .init(connect: .seconds(10), read: idleTimeout),
                decompression: .disabled
            )
            // A connection that cannot be made (refused, or a TLS handshake with a plain
            // server) fails at once, naming why, instead of being tried again until the
            // connect timeout: a command's user is waiting, and a retry would fail alike.
            configuration.connectionPool.retryConnectionEstablishment = false
            return configuration
        }()
    )

    private init() {}

    /// One request.
    public struct Request: Sendable {
        /// `GET`, `POST`…
        public var method: String
        /// An `http` or `https` URL.
        public var url: URL
        /// Header fields, sent in order.
        public var headers: [(name: String, value: String)]
        /// The body, if any.
        public var body: Data?
        /// The whole exchange (connecting, sending, the answer's last byte) ends by then.
        public var deadline: Duration
        /// The most bytes of an answer's body kept; a longer answer is ``Failure/tooLarge(limit:)``.
        public var limit: Int
        /// Whether a 3xx is returned to be read (its `Location` is never followed)
        /// rather than thrown as ``Failure/redirect(status:url:)``.
        public var readsRedirects: Bool

        /// Makes a request; by default a 30-second deadline, a 1 MiB answer and redirects refused.
        public init(_ method: String, _ url: URL, headers: [(name: String, value: String)] = [], body: Data? = nil,
                    deadline: Duration = .seconds(30), limit: Int = 1 << 20, readsRedirects: Bool = false) {
            self.method = method
            self.url = url
            self.headers = headers
            self.body = body
            self.deadline = deadline
            self.limit = limit
            self.readsRedirects = readsRedirects
        }
    }

    /// An answer, read to its end.
    public struct Response: Sendable {
        /// The HTTP status.
        public var status: Int
        /// The header fields as received.
        public var headers: [(name: String, value: String)]
        /// The body (at most the request's limit).
        public var body: Data

        /// The first value of header `name` (compared without case).
        public func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }

        /// The body as UTF-8 text (invalid bytes replaced).
        public var text: String { String(decoding: body, as: UTF8.self) }
    }

    /// Why a request gave no answer.
    public enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// The URL is not an `http(s)` URL with a host.
        case invalidURL(String)
        /// The server answered with a redirect, which was not followed.
        case redirect(status: Int, url: String)
        /// The answer was longer than the request's limit.
        case tooLarge(limit: Int)
        /// One event of a stream was longer than its limit.
        case eventTooLarge(limit: Int)
        /// The deadline passed before the answer ended.
        case deadline(Duration)
        /// The connection failed.
        case transport(String)

        public var description: String {
            switch self {
            case .invalidURL(let url): "not an http(s) URL: \(url)"
            case .redirect(let status, let url): "HTTP \(status) from \(url): a redirect, not followed"
            case .tooLarge(let limit): "the answer is larger than \(limit) bytes"
            case .eventTooLarge(let limit): "an event is larger than \(limit) bytes"
            case .deadline(let deadline): "no complete answer within \(deadline)"
            case .transport(let reason): reason
            }
        }
    }

    /// Sends `request` and reads its answer to the end, within its bounds.
    public func send(_ request: Request) async throws(Failure) -> Response {
        let outgoing = try Self.outgoing(request)
        let shown = Self.shown(request.url)
        do {
            return try await Self.within(request.deadline) {
                let answer = try await Self.engine.execute(outgoing, deadline: .now() + TimeAmount(request.deadline))
                let status = Int(answer.status.code)
                if (300..<400).contains(status) && !request.readsRedirects { throw Failure.redirect(status: status, url: shown) }
                let body: ByteBuffer
                do { body = try await answer.body.collect(upTo: request.limit) } catch is NIOTooManyBytesError {
                    throw Failure.tooLarge(limit: request.limit)
                }
                return Response(status: status, headers: answer.headers.map { ($0.name, $0.value) }, body: Data(body.readableBytesView))
            }
        } catch {
            throw Self.failure(error, deadline: request.deadline, url: shown)
        }
    }

    /// Opens a server-sent events stream: the answer's head within the request's
    /// deadline, then its events as they come, each at most `maximumEventBytes`. A
    /// status other than 200 is ``StreamRefusal`` with the body's first 4 KiB.
    public func events(_ request: Request, maximumEventBytes: Int = 256 * 1024) async throws -> ServerSentEvents {
        var request = request
        request.headers.append(("Accept", "text/event-stream"))
        let outgoing = try Self.outgoing(request)
        let shown = Self.shown(request.url)
        let answer: HTTPClientResponse
        do {
            // The deadline bounds the wait for the head; the stream itself ends after a silent idleTimeout.
            answer = try await Self.within(request.deadline) {
                try await Self.engine.execute(outgoing, deadline: .now() + .hours(24))
            }
        } catch {
            throw Self.failure(error, deadline: request.deadline, url: shown)
        }
        let status = Int(answer.status.code)
        if (300..<400).contains(status) { throw Failure.redirect(status: status, url: shown) }
        guard status == 200 else {
            var text = ""
            if let body = try? await Self.within(.seconds(5), { try await Self.prefix(of: answer.body, 4096) }) { text = body }
            throw StreamRefusal(status: status, body: text)
        }
        return ServerSentEvents(body: answer.body, limit: maximumEventBytes)
    }

    /// A stream answered with a status other than 200.
    public struct StreamRefusal: Error, Sendable {
        /// The HTTP status.
        public var status: Int
        /// The first 4 KiB of the body, as text.
        public var body: String
    }

    // MARK: Internals

    private static func outgoing(_ request: Request) throws(Failure) -> HTTPClientRequest {
        guard let scheme = request.url.scheme?.lowercased(), scheme == "http" || scheme == "https",
              let host = request.url.host, !host.isEmpty else { throw .invalidURL(shown(request.url)) }
        var outgoing = HTTPClientRequest(url: request.url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if let body = request.body {
            outgoing.body = .bytes(ByteBuffer(bytes: body))
        }
        return outgoing
    }

    /// The URL without its query (which may hold a secret), for messages.
    public static func shown(_ url: URL) -> String {
        let text = url.absoluteString
        return text.firstIndex(of: "?").map { String(text[..<$0]) } ?? text
    }

    /// The first `limit` bytes of `body`, as text (what is past them is not read).
    private static func prefix(of body: HTTPClientResponse.Body, _ limit: Int) async throws -> String {
        var kept = Data()
        for try await buffer in body {
            kept.append(contentsOf: buffer.readableBytesView.prefix(limit - kept.count))
            if kept.count >= limit { break }
        }
        return String(decoding: kept, as: UTF8.self)
    }

    /// `body`'s result, or ``Failure/deadline(_:)`` once `deadline` has passed (the
    /// work is cancelled, which closes its connection).
    private static func within<T: Sendable>(_ deadline: Duration, _ body: @escaping @Sendable () async throws -> T) async throws -> T {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: deadline)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let value = first else { throw Failure.deadline(deadline) }
            return value
        }
    }

    private static func failure(_ error: any Error, deadline: Duration, url: String) -> Failure {
        switch error {
        case let failure as Failure: return failure
        case let error as HTTPClientError where error == .deadlineExceeded || error == .readTimeout:
            return .deadline(deadline)
        case is CancellationError: return .deadline(deadline)
        case _ where String(reflecting: type(of: error)).contains("NIOSSL") && url.lowercased().hasPrefix("https:"):
            return .transport("\(url): the TLS handshake failed (\(error)); a server that speaks plain HTTP needs an http:// URL")
        default: return .transport("\(url): \(error)")
        }
    }
}

extension TimeAmount {
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self = .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
