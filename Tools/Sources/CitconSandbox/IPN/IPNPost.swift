import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// One IPN attempt on the wire: an HTTP/1.1 POST over a fresh connection, with a total
/// deadline and a bounded answer.
///
/// The sandbox speaks HTTP itself (SwiftNIO) rather than through URLSession so that
/// what is checked is what is connected to and what is read is bounded:
/// - a loopback target is connected to as the literal address that was judged
///   (`localhost` means `127.0.0.1`, then `::1`); no name is resolved, and the
///   connected peer is checked again;
/// - redirects are never followed (a 3xx is a failed attempt);
/// - the whole attempt (connect, send, answer) ends at the deadline, however slowly
///   the receiver streams, and an answer over ``maximumAnswerBytes`` ends it too;
/// - nothing outlives the attempt: no shared session, no threads left parked.
struct IPNPost: Sendable {
    /// The most bytes of an answer (headers excluded) read before the attempt fails.
    static let maximumAnswerBytes = 64 * 1024

    /// Why an attempt failed, as recorded in the outbox.
    struct Failure: Error, Equatable {
        var reason: String
        /// A failure no retry can mend (the URL itself is not deliverable).
        var isPermanent = false
    }

    let timeout: Duration
    let loopbackOnly: Bool

    /// The TCP port `url` names (80 when it names none), or `nil` when it is not a URL
    /// with a host or its port is outside 1 to 65535. Checked when a charge is created,
    /// and again before every attempt, so that no stored row can reach SwiftNIO's
    /// address constructors with a port they trap on.
    static func port(of url: String) -> Int? {
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else { return nil }
        guard let port = components.port else { return 80 }
        return (1...65535).contains(port) ? port : nil
    }

    /// Posts `body` to `url` and returns the HTTP status of the answer. With `cutOff`,
    /// the connection is closed half-way through the body (``IPNFault/reset``).
    func post(_ body: Data, to url: String, headers: [(String, String)], cutOff: Bool = false) async -> Result<Int, Failure> {
        guard let components = URLComponents(string: url), let host = components.host, !host.isEmpty else {
            return .failure(Failure(reason: "not a URL", isPermanent: true))
        }
        guard components.scheme?.lowercased() == "http" else {
            return .failure(Failure(reason: "only http:// IPN URLs are delivered by the sandbox (no TLS client)", isPermanent: true))
        }
        if loopbackOnly && !isLoopback(url) { return .failure(Failure(reason: "not a loopback address", isPermanent: true)) }
        guard let port = Self.port(of: url) else {
            return .failure(Failure(reason: "the port is not 1 to 65535", isPermanent: true))
        }
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        var path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        if let query = components.percentEncodedQuery { path += "?" + query }
        let authority = (host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host) + (components.port.map { ":\($0)" } ?? "")

        let deadline = NIODeadline.now() + TimeAmount.nanoseconds(Int64(timeout.milliseconds) * 1_000_000)
        // The addresses to try, in order: literals as written; `localhost` as both loopbacks.
        let targets: [String] = bare.lowercased() == "localhost" ? ["127.0.0.1", "::1"] : [bare]
        var lastFailure = Failure(reason: "connection refused")
        for target in targets {
            let result = await attempt(target: target, port: port, resolve: !loopbackOnly, path: path,
                                       authority: authority, body: body, headers: headers, deadline: deadline, cutOff: cutOff)
            switch result {
            case .success: return result
            case .failure(let failure) where failure.reason.hasPrefix("connect:"):
                lastFailure = failure
                continue
            case .failure: return result
            }
        }
        return .failure(lastFailure)
    }

    private func attempt(target: String, port: Int, resolve: Bool, path: String, authority: String, body: Data,
                         headers: [(String, String)], deadline: NIODeadline, cutOff: Bool) async -> Result<Int, Failure> {
        let remaining = deadline - .now()
        guard remaining > .zero else { return .failure(Failure(reason: "timed out")) }
        let bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connectTimeout(remaining)
        let initializer: @Sendable (Channel) -> EventLoopFuture<NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>> = { channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHTTPClientHandlers()
                return try NIOAsyncChannel(wrappingChannelSynchronously: channel)
            }
        }
        let channel: NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>
        do {
            if resolve {
                channel = try await bootstrap.connect(host: target, port: port, channelInitializer: initializer)
            } else {
                let address = try SocketAddress(ipAddress: target, port: port)
                channel = try await bootstrap.connect(to: address, channelInitializer: initializer)
            }
        } catch ChannelError.connectTimeout {
            return .failure(Failure(reason: "timed out"))
        } catch {
            return .failure(Failure(reason: "connect: \(error)"))
        }
        // What is connected to is what was judged.
        if loopbackOnly, let peer = channel.channel.remoteAddress?.ipAddress,
           !isLoopback(peer.contains(":") ? "http://[\(peer)]/" : "http://\(peer)/") {
            try? await channel.channel.close()
            return .failure(Failure(reason: "not a loopback address", isPermanent: true))
        }
        // The deadline closes the connection, which ends the reads below.
        let timedOut = TimedOut()
        let timer = channel.channel.eventLoop.scheduleTask(deadline: deadline) {
            timedOut.set()
            channel.channel.close(promise: nil)
        }
        defer { timer.cancel() }
        do {
            return try await channel.executeThenClose { inbound, outbound in
                var head = HTTPRequestHead(version: .http1_1, method: .POST, uri: path)
                head.headers.add(name: "Host", value: authority)
                head.headers.add(name: "Content-Length", value: String(body.count))
                head.headers.add(name: "Connection", value: "close")
                head.headers.add(name: "User-Agent", value: "chargekit-upi-sandbox")
                for (name, value) in headers { head.headers.add(name: name, value: value) }
                try await outbound.write(.head(head))
                if cutOff {
                    // Half the body the head announced, then the connection ends.
                    try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body.prefix(body.count / 2)))))
                    return .failure(Failure(reason: "cut off half-way by the sandbox (\(IPNFault.header): reset)"))
                }
                try await outbound.write(.body(.byteBuffer(ByteBuffer(bytes: body))))
                try await outbound.write(.end(nil))
                var status: Int?
                var received = 0
                for try await part in inbound {
                    switch part {
                    case .head(let answer):
                        status = Int(answer.status.code)
                    case .body(let buffer):
                        received += buffer.readableBytes
                        if received > Self.maximumAnswerBytes {
                            return .failure(Failure(reason: "answer larger than \(Self.maximumAnswerBytes) bytes"))
                        }
                    case .end:
                        guard let status else { return .failure(Failure(reason: "no answer")) }
                        if (200..<300).contains(status) { return .success(status) }
                        let redirect = (300..<400).contains(status) ? " (redirects are not followed)" : ""
                        return .failure(Failure(reason: "HTTP \(status)\(redirect)"))
                    }
                }
                return .failure(Failure(reason: timedOut.value ? "timed out" : "connection closed before the answer ended"))
            }
        } catch {
            return .failure(Failure(reason: timedOut.value ? "timed out" : "\(error)"))
        }
    }

    private final class TimedOut: @unchecked Sendable {
        private let lock = NSLock()
        private var flag = false
        func set() { lock.withLock { flag = true } }
        var value: Bool { lock.withLock { flag } }
    }
}
