import AsyncHTTPClient
import NIOCore

/// One event of a server-sent events stream.
public struct ServerSentEvent: Sendable, Equatable {
    /// The `id:` field, if the event had one.
    public var id: String?
    /// The `event:` field (`message` when absent).
    public var name: String
    /// The `data:` lines, joined with line feeds.
    public var data: String

    /// Makes an event.
    public init(id: String?, name: String, data: String) {
        self.id = id
        self.name = name
        self.data = data
    }
}

/// The events of a stream, read as they arrive. The stream is read only as fast as
/// its events are taken (what is not yet taken waits in the socket, not in memory), and
/// no event may be longer than its limit: a longer one ends the stream with
/// ``ToolsHTTPClient/Failure/eventTooLarge(limit:)``.
public struct ServerSentEvents: AsyncSequence, Sendable {
    public typealias Element = ServerSentEvent

    let body: HTTPClientResponse.Body
    let limit: Int

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(bytes: body.makeAsyncIterator(), parser: ServerSentEventParser(limit: limit))
    }

    /// Reads the next event.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var bytes: HTTPClientResponse.Body.AsyncIterator
        var parser: ServerSentEventParser

        public mutating func next() async throws -> ServerSentEvent? {
            while true {
                if let event = parser.next() { return event }
                guard let buffer = try await bytes.next() else { return nil }
                try parser.append(buffer.readableBytesView)
            }
        }
    }
}
