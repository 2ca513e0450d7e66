@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI
import Foundation
import OpenAPIRuntime
import ServiceLifecycle

/// `GET /v1/ipn-events`' body: every IPN of the merchant, as server-sent events, for
/// `chargekit upi listen` (whether or not the charge named an IPN URL). The merchant
/// key authenticates it (``OperationPermissions``), as it does `/v1/access-tokens`.
///
/// Each event is one IPN: `id` its outbox number, `event` what it reports
/// (`charge.succeeded`, `refund.succeeded`…), `data` the body exactly as the sandbox
/// posts it, signed with the IPN secret. A listener that reconnects with
/// `Last-Event-ID` (or `?after=`) gets every IPN after that one; several listeners,
/// on one instance or on several instances of a shared sandbox, each get all. The
/// first event, `hello`, carries the IPN secret to verify with, the merchant's name and
/// `latest`, the newest IPN's number (a listener resuming after a larger one was given
/// a number this sandbox never wrote, as after its database was recreated). A new listener (no
/// `Last-Event-ID`) gets the IPNs written from then on; `?after=0` gets them all. A stream ends after
/// ``lifetime``, when the sandbox stops, or within a second of its key being
/// rotated away (on any instance); the listener reconnects. An idle stream costs no
/// query (``ListenerFeed``), and one key opens at most ``ListenerFeed/limit``.
///
/// The stream is read by the transport as it writes the answer: each ``Iterator/next()``
/// is a poll, in the request's task. Its place in the feed is freed when it ends, or
/// when the transport drops it (the listener went).
struct IPNEventStream: AsyncSequence, Sendable {
    typealias Element = ArraySlice<UInt8>

    /// How long one stream lasts before the listener is asked to reconnect.
    static let lifetime: Duration = .seconds(600)
    /// How many recent IPN ids a stream looks at again on each poll: an IPN committed
    /// after a later one (another instance of a shared sandbox) is still sent, once.
    static let lateWindow: Int64 = 256
    /// After how many quiet polls a stream writes a keep-alive comment.
    static let keepAlivePolls = 50

    let store: any ListenerStore
    let listeners: ListenerStreams
    /// The IPNs after this one are sent.
    let after: Int64
    /// The newest IPN's number when the stream opened.
    let latest: Int64
    /// The merchant key the stream was opened with: it ends when that is no longer the key.
    let key: String
    /// Its place among the key's streams.
    let place: ListenerFeed.Place

    /// The answer's body.
    var body: HTTPBody { HTTPBody(self, length: .unknown, iterationBehavior: .single) }

    func makeAsyncIterator() -> Iterator { Iterator(stream: self) }

    struct Iterator: AsyncIteratorProtocol {
        let stream: IPNEventStream
        private var helloSent = false
        private var cursor: Int64
        private var sent = Set<Int64>()
        private var read: UInt64?
        private let end: ContinuousClock.Instant
        private var quietSince: ContinuousClock.Instant

        init(stream: IPNEventStream) {
            self.stream = stream
            cursor = stream.after
            end = .now + IPNEventStream.lifetime
            quietSince = .now
        }

        /// The next events: the hello first, then the IPNs after the cursor as the feed
        /// sees them come, or a keep-alive comment; `nil` once the stream is over.
        mutating func next() async throws -> ArraySlice<UInt8>? {
            if !helloSent {
                helloSent = true
                let fields = ["ipn_secret": stream.listeners.secrets.ipnSecret, "merchant": stream.listeners.merchantName,
                              "latest": String(stream.latest)]
                let hello = String(decoding: (try? UPIWire.encoder().encode(fields)) ?? Data("{}".utf8), as: UTF8.self)
                return ArraySlice("retry: 1000\nevent: hello\ndata: \(hello)\n\n".utf8)
            }
            while ContinuousClock.now < end && !Task.isCancelled && !Task.isShuttingDownGracefully
                    && constantTimeEquals(stream.listeners.secrets.merchantKey, stream.key) {
                var events = ""
                // The outbox is read at the start and again only when the feed saw it change.
                let generation = stream.listeners.feed.generation
                if read != generation {
                    read = generation
                    stream.listeners.feed.countRead()
                    let entries = try await stream.store.notifications(after: Swift.max(stream.after, cursor - IPNEventStream.lateWindow), limit: 500)
                    for entry in entries where !sent.contains(entry.id) {
                        let body = String(decoding: IPNWorker.signedBody(entry.payload, secret: stream.listeners.secrets.ipnSecret), as: UTF8.self)
                        events += "id: \(entry.id)\nevent: \(entry.status.event)\ndata: \(body)\n\n"
                        sent.insert(entry.id)
                        cursor = Swift.max(cursor, entry.id)
                        quietSince = .now
                    }
                    sent = sent.filter { $0 > cursor - IPNEventStream.lateWindow }
                }
                // A quiet stream says it is alive every fifty polls (5 s by default): a comment
                // keeps proxies from closing it, and a listener that went is found out by the
                // write failing, which ends the stream and frees its place.
                if events.isEmpty && ContinuousClock.now - quietSince > stream.listeners.pollInterval * IPNEventStream.keepAlivePolls {
                    events = ": keep-alive\n\n"
                    quietSince = .now
                }
                if !events.isEmpty { return ArraySlice(events.utf8) }
                try await Task.sleep(for: stream.listeners.pollInterval)
            }
            stream.place.free()
            return nil
        }
    }
}

/// What every listener stream of an instance shares: the secrets its IPNs are signed
/// with (and the merchant key it ends with), the feed that wakes it and bounds the key's
/// streams, how often it looks whether the feed moved, and the merchant's name its hello
/// gives.
struct ListenerStreams: Sendable {
    /// The merchant key and IPN secret, as this instance last read them.
    let secrets: SandboxSecrets
    /// The streams open here, and what wakes them.
    let feed: ListenerFeed
    /// How often a stream looks whether the feed moved.
    let pollInterval: Duration
    /// The merchant's name.
    let merchantName: String
}
