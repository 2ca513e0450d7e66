@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI
import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// The request context of the sandbox: the access token that authenticated the call,
/// filled by ``TokenAuthentication`` before the route runs.
struct SandboxRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    /// The caller's access token, for the `/v1/` operations that need one.
    var token: AccessTokenRecord?
    /// The client's address as the throttle keys it (an IPv6 address's /64), when known.
    let clientAddress: String?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        clientAddress = FailureThrottle.addressKey(source.channel.remoteAddress?.ipAddress)
    }

    /// The caller's token (`4010` when the middleware found none).
    func requireToken() throws(APIError) -> AccessTokenRecord {
        guard let token else { throw APIError(.unauthorized, "Authorization: 'Bearer <access token>' is required") }
        return token
    }
}
