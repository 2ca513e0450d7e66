import NIOCore
import NIOHTTPTypes

/// A handler the server puts before its router on every connection: it watches the
/// connection's HTTP parts (to bound or refuse it) and passes them on unchanged.
protocol HTTPPartGuard: ChannelDuplexHandler, RemovableChannelHandler
where InboundIn == HTTPRequestPart, InboundOut == HTTPRequestPart, OutboundIn == HTTPResponsePart, OutboundOut == HTTPResponsePart {}
