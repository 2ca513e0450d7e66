import CitconSandbox
@_spi(Tools) import CitconUPI
import Foundation
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// A merchant's IPN endpoint on loopback, for tests and demos: records every POST to
/// `/ipn` and answers with the next status of a script (then 200). A receiver
/// scripted `[500, 500]` fails twice and accepts the third attempt.
public final class IPNReceiver: Sendable {
    /// One notification received.
    public struct Delivery: Sendable {
        /// The body as sent.
        public var body: Data
        /// The `X-Citcon-Attempt` header.
        public var attempt: Int?
        /// The HTTP status the receiver answered.
        public var answered: Int

        /// The body's fields, read without checking the signature (for looking, not trusting).
        public var fields: [String: String]? { CPayIPN.textFields(body) }

        /// The notification verified with the merchant's IPN secret, as a merchant's server does.
        public func verified(secret: String) throws(CPayIPNError) -> CPayIPN { try CPayIPN.verify(body, secret: secret) }
    }

    private final class State: @unchecked Sendable {
        let lock = NSLock()
        var script: [Int]
        var deliveries: [Delivery] = []
        init(script: [Int]) { self.script = script }
    }

    private let state: State
    private let runner: ServiceRunner<Int>
    /// The URL to put in `urls.ipn`.
    public let url: String

    private init(state: State, runner: ServiceRunner<Int>, url: String) {
        self.state = state
        self.runner = runner
        self.url = url
    }

    /// Starts a receiver on a free loopback port; `script` lists the statuses of the
    /// first answers (200 after that); `delay` holds every answer back (a hanging receiver).
    /// `host` is the loopback address to listen on: `127.0.0.1` or `::1`. With
    /// `delayFirst`, only that many first answers are held back by `delay` (a receiver
    /// that hangs, then recovers).
    public static func start(script: [Int] = [], delay: Duration = .zero, delayFirst: Int? = nil,
                             host: String = "127.0.0.1") async throws -> IPNReceiver {
        let state = State(script: script)
        let router = Router()
        // `/ipn` and any path under it: a receiver's URLs may differ by path.
        let receive: @Sendable (Request, BasicRequestContext) async throws -> Response = { request, _ in
            var request = request
            let body = Data((try? await request.collectBody(upTo: 1 << 20).readableBytesView) ?? ByteBuffer().readableBytesView)
            let attempt = request.headers.first { $0.name.canonicalName == "x-citcon-attempt" }.flatMap { Int($0.value) }
            let (status, index) = state.lock.withLock { () -> (Int, Int) in
                let status = state.script.isEmpty ? 200 : state.script.removeFirst()
                state.deliveries.append(Delivery(body: body, attempt: attempt,
                                                 answered: status))
                return (status, state.deliveries.count)
            }
            if delay > .zero, index <= (delayFirst ?? Int.max) { try? await Task.sleep(for: delay) }
            return Response(status: .init(code: status))
        }
        router.post("/ipn", use: receive)
        router.post("/ipn/**", use: receive)
        var logger = Logger(label: "chargekit.ipn-receiver")
        logger.logLevel = .warning
        let runner = try await ServiceRunner<Int>.start(logger: logger) { ready in
            Application(router: router, configuration: .init(address: .hostname(host, port: 0)),
                        onServerRunning: { ready($0.localAddress?.port ?? 0) }, logger: logger)
        }
        return IPNReceiver(state: state, runner: runner, url: "http://\(host.contains(":") ? "[\(host)]" : host):\(runner.value)/ipn")
    }

    /// Every notification received so far, in order.
    public var deliveries: [Delivery] { state.lock.withLock { state.deliveries } }

    /// Waits until `condition` holds for the deliveries, polling; `false` on timeout.
    public func wait(timeout: Duration = .seconds(20), until condition: ([Delivery]) -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if condition(deliveries) { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition(deliveries)
    }

    /// Stops the receiver.
    public func stop() async { await runner.stop() }
}
