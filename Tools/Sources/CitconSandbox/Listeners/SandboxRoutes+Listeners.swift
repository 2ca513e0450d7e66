@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import ServiceLifecycle

/// `GET /v1/ipn-events`: every IPN of the merchant, as server-sent events, for
/// `chargekit upi listen` (whether or not the charge named an IPN URL). The merchant
/// key authenticates it, as it does `/v1/access-tokens`.
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
/// ``streamLifetime``, when the sandbox stops, or within a second of its key being
/// rotated away (on any instance); the listener reconnects. An idle stream costs no
/// query (``ListenerFeed``), and one key opens at most ``ListenerFeed/limit``.
extension SandboxRoutes {
    /// How long one stream lasts before the listener is asked to reconnect.
    static let streamLifetime: Duration = .seconds(600)
    /// How many recent IPN ids a stream looks at again on each poll: an IPN committed
    /// after a later one (another instance of a shared sandbox) is still sent, once.
    static let lateWindow: Int64 = 256
    /// After how many quiet polls a stream writes a keep-alive comment.
    static let keepAlivePolls = 50

    /// The answer of a route of a merchant-key group (``MerchantKeyAuthentication``
    /// checked the key): `body`'s, or the failure envelope of what it threw (a `4000` for
    /// an error that is not an ``APIError``), never a 500.
    func forMerchant(_ request: Request, _ body: () async throws -> Response) async -> Response {
        do {
            return try await body()
        } catch let error as APIError {
            return Self.failure(error)
        } catch {
            return Self.failure(APIError(.invalidRequest, "request: \(error)"))
        }
    }

    func ipnEvents(_ request: Request) async -> Response {
        await forMerchant(request) {
            let resume = request.headers[HTTPField.Name("Last-Event-ID")!] ?? request.uri.queryParameters["after"].map(String.init)
            // A new listener starts with the IPNs to come; one that resumes, after the last it had.
            let latest = try await api.store.latestNotificationID()
            let after: Int64
            if let resume { after = Int64(resume) ?? -1 } else { after = latest }
            guard after >= 0 else {
                throw APIError(.invalidRequest, "Last-Event-ID: must be the id of an event this stream sent (digits)")
            }
            // The key was just checked against the store: one rotated in by another
            // instance in the last second is read now, so that the stream does not end at once.
            let key = SandboxAPI.bearer(request.headers[.authorization]) ?? ""
            if !constantTimeEquals(secrets.merchantKey, key) { await secrets.refresh(from: api.store) }
            // The place is freed when the stream ends, or with the response if its body never runs.
            let place: ListenerFeed.Place
            do throws(APIError) {
                place = try feed.open()
            } catch {
                // Over the key's bound: refused, and the connection it held freed.
                return Self.closing(Self.failure(error))
            }
            let routes = self
            let body = ResponseBody { writer in
                defer { place.free() }
                try await routes.stream(after: after, latest: latest, key: key, to: &writer)
                try await writer.finish(nil)
            }
            return Response(status: .ok, headers: [.contentType: "text/event-stream", .cacheControl: "no-store"], body: body)
        }
    }

    /// Writes the IPNs after `after` as they come, until the stream's lifetime ends,
    /// the sandbox stops, `key` is no longer the merchant key, or the listener goes.
    private func stream(after: Int64, latest: Int64, key: String, to writer: inout any ResponseBodyWriter) async throws {
        let hello = String(decoding: (try? UPIWire.encoder().encode(["ipn_secret": secrets.ipnSecret, "merchant": merchantName, "latest": String(latest)]))
                           ?? Data("{}".utf8), as: UTF8.self)
        try await writer.write(ByteBuffer(string: "retry: 1000\nevent: hello\ndata: \(hello)\n\n"))
        var cursor = after
        var sent = Set<Int64>()
        var read: UInt64?
        let end = ContinuousClock.now + Self.streamLifetime
        var quietSince = ContinuousClock.now
        while ContinuousClock.now < end && !Task.isCancelled && !Task.isShuttingDownGracefully && constantTimeEquals(secrets.merchantKey, key) {
            // The outbox is read at the start and again only when the feed saw it change.
            let generation = feed.generation
            if read != generation {
                read = generation
                feed.countRead()
                let entries = try await api.store.notifications(after: max(after, cursor - Self.lateWindow), limit: 500)
                for entry in entries where !sent.contains(entry.id) {
                    let body = String(decoding: IPNWorker.signedBody(entry.payload, secret: secrets.ipnSecret), as: UTF8.self)
                    try await writer.write(ByteBuffer(string: "id: \(entry.id)\nevent: \(Self.eventName(entry))\ndata: \(body)\n\n"))
                    sent.insert(entry.id)
                    cursor = max(cursor, entry.id)
                    quietSince = ContinuousClock.now
                }
                sent = sent.filter { $0 > cursor - Self.lateWindow }
            }
            // A quiet stream says it is alive every fifty polls (5 s by default): a comment
            // keeps proxies from closing it, and a listener that went is found out by the
            // write failing, which ends the stream and frees its place.
            if ContinuousClock.now - quietSince > pollInterval * Self.keepAlivePolls {
                try await writer.write(ByteBuffer(string: ": keep-alive\n\n"))
                quietSince = ContinuousClock.now
            }
            try await Task.sleep(for: pollInterval)
        }
    }

    /// What an IPN reports: `charge.<status>` (`succeeded`, `authorized`, `failed`,
    /// `canceled`, `expired`, `pending`), or `refund.succeeded`.
    static func eventName(_ entry: OutboxEntry) -> String {
        entry.status.event
    }
}

/// `GET /v1/ipns[?charge=ID]`: the IPNs the sandbox has written, newest last, each
/// with its attempts, as the dashboard shows them (for `chargekit upi ipn list`); the
/// merchant key authenticates it.
extension SandboxRoutes {
}
