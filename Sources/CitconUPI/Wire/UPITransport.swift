import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One HTTP exchange of ``UPIClient``: how its request reaches the network.
///
/// An app's client uses ``URLSessionTransport`` (what Apple's platforms run on).
/// ChargeKit's tools give the client their own transport (on SwiftNIO), so that every
/// request a `chargekit` command makes goes through one client. Whatever the
/// transport, it keeps the guarantees the client documents: it never follows a
/// redirect (the 3xx comes back and the client refuses it), it stops reading past
/// `limit` bytes, and it ends the whole exchange at `deadline`.
@_spi(Tools) public protocol UPITransport: Sendable {
    /// Sends `request` and returns the answer's HTTP status and body (at most `limit` bytes).
    func exchange(_ request: URLRequest, limit: Int, deadline: Duration) async throws(UPITransportFailure) -> (status: Int, body: Data)
}

/// How an exchange ended other than with an answer.
@_spi(Tools) public enum UPITransportFailure: Error, Sendable {
    /// The answer was larger than the limit; the transfer was stopped there.
    case tooLarge
    /// The exchange did not end before its deadline.
    case deadline
    /// The connection failed; the words say how.
    case transport(String)
}

/// The transport of an app's ``UPIClient``: URLSession, with the session's
/// configuration (proxies, headers and cookies as the app set them) and the bounds of
/// ``UPITransport``.
package struct URLSessionTransport: UPITransport, @unchecked Sendable {
    // (@unchecked: URLSessionConfiguration is a class, never changed once given here.)
    /// The configuration each exchange's session is made from.
    public let configuration: URLSessionConfiguration

    /// Makes a transport whose sessions are made from `configuration`.
    public init(configuration: URLSessionConfiguration) { self.configuration = configuration }

    public func exchange(_ request: URLRequest, limit: Int, deadline: Duration) async throws(UPITransportFailure) -> (status: Int, body: Data) {
        do throws(BoundedTransfer.Failure) {
            let (data, response) = try await BoundedTransfer.exchange(request, configuration: configuration, limit: limit, deadline: deadline)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
        } catch {
            switch error {
            case .tooLarge: throw .tooLarge
            case .deadline: throw .deadline
            case .transport(let error as URLError) where error.code == .timedOut: throw .deadline
            case .transport(let error): throw .transport(error.localizedDescription)
            }
        }
    }
}
