import Foundation
import HTTPTypes
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTPTypes

/// The connections each client address (an IPv6 /64) has open on this instance.
final class ClientConnections: Sendable {
    /// The most one address may have open: a share of `--max-connections`.
    let perClient: Int
    private let open = NIOLockedValueBox([String: Int]())

    init(maximumConnections: Int) {
        perClient = Self.share(of: maximumConnections)
    }

    /// A quarter of `maximumConnections`, at least 2.
    static func share(of maximumConnections: Int) -> Int { max(2, maximumConnections / 4) }

    /// Takes a place for `address`; `false` when it has ``perClient`` open.
    func acquire(_ address: String) -> Bool {
        open.withLockedValue { open in
            guard open[address, default: 0] < perClient else { return false }
            open[address, default: 0] += 1
            return true
        }
    }

    func release(_ address: String) {
        open.withLockedValue { open in
            open[address, default: 1] -= 1
            if open[address] == 0 { open[address] = nil }
        }
    }
}

/// Holds each client address to its share of the connections: a connection beyond it
/// is answered `503` with `Connection: close` as soon as its request head arrives, and
/// closed after a second if none does (a client holding connections open sends none),
/// so that one client never holds every connection of the instance.
final class ClientConnectionCap: HTTPPartGuard {

    private let connections: ClientConnections
    private var address: String?
    private var held = false
    private var refused = false
    private var timer: Scheduled<Void>?

    init(connections: ClientConnections) { self.connections = connections }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        admit(context)
        context.fireChannelActive()
    }

    private func admit(_ context: ChannelHandlerContext) {
        guard address == nil, let key = FailureThrottle.addressKey(context.channel.remoteAddress?.ipAddress) else { return }
        address = key
        held = connections.acquire(key)
        guard !held else { return }
        refused = true
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: .seconds(1)) { channel.close(promise: nil) }
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { release() }

    private func release() {
        timer?.cancel()
        timer = nil
        if held, let address { connections.release(address) }
        held = false
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard refused else { return context.fireChannelRead(data) }
        guard case .head = unwrapInboundIn(data) else { return }
        refused = false
        timer?.cancel()
        let body = Data(#"{"status":"fail","data":{"code":"4290","message":"connection: this address has too many connections open; retry"}}"#.utf8)
        var head = HTTPResponse(status: .serviceUnavailable)
        head.headerFields[.connection] = "close"
        head.headerFields[.contentType] = "application/json; charset=utf-8"
        head.headerFields[.contentLength] = String(body.count)
        head.headerFields[.retryAfter] = "1"
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.write(wrapOutboundOut(.body(ByteBuffer(bytes: body))), promise: nil)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
