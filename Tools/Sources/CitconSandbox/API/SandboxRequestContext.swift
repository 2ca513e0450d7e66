@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The request context of the sandbox: the client's address, which the throttle keys
/// failed authentications by.
struct SandboxRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The client's address as the throttle keys it (an IPv6 address's /64), when known.
    let clientAddress: String?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = FailureThrottle.addressKey(source.channel.remoteAddress?.ipAddress)
    }
}
