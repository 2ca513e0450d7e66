import HTTPTypes
import NIOCore
import NIOHTTPTypes

/// Closes a connection whose next request does not arrive whole in time.
///
/// The clock starts when the connection opens and again each time an answer has been
/// written; it stops when a request's last byte arrives (the handler may then take as
/// long as it needs). A client that sends half a request, or trickles it one byte at a
/// time, or keeps an idle connection open, is cut off after `timeout` and frees its
/// slot of ``SandboxConfiguration/maximumConnections``.
///
/// An answer with `Connection: close` closes the connection once written.
///
/// It also bounds what a connection may send after its answer: once a request has
/// been answered, body bytes beyond `maximumBodyBytes` (the route read and discarded
/// what it could) close the connection instead of being drained without end.
final class RequestDeadline: HTTPPartGuard {

    private let timeout: TimeAmount
    private let maximumBodyBytes: Int
    private var timer: Scheduled<Void>?
    private var bodyBytes = 0
    private var answered = false
    private var closeAfterAnswer = false

    init(timeout: TimeAmount, maximumBodyBytes: Int) {
        self.timeout = timeout
        self.maximumBodyBytes = maximumBodyBytes
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { arm(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        arm(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head:
            bodyBytes = 0
            answered = false
        case .body(let buffer):
            bodyBytes += buffer.readableBytes
            if answered && bodyBytes > maximumBodyBytes {
                context.close(promise: nil)
                return
            }
        case .end:
            timer?.cancel()
            timer = nil
        }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        switch unwrapOutboundIn(data) {
        case .head(let response):
            closeAfterAnswer = response.headerFields[.connection] == "close"
            context.write(data, promise: promise)
        case .body:
            context.write(data, promise: promise)
        case .end:
            answered = true
            arm(context)
            guard closeAfterAnswer else { return context.write(data, promise: promise) }
            // An answer that says `Connection: close` (a refused body) ends the connection.
            let channel = context.channel
            let written = context.eventLoop.makePromise(of: Void.self)
            written.futureResult.whenComplete { _ in channel.close(promise: nil) }
            written.futureResult.cascade(to: promise)
            context.writeAndFlush(data, promise: written)
        }
    }

    private func arm(_ context: ChannelHandlerContext) {
        timer?.cancel()
        let channel = context.channel
        timer = context.eventLoop.scheduleTask(in: timeout) { channel.close(promise: nil) }
    }
}
