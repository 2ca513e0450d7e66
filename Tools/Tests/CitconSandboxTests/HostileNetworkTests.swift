import CitconSandbox
import CitconSandboxTesting
@_spi(Tools) import CitconUPI
import Foundation
import Testing

/// IPN receivers and HTTP clients that misbehave: each must cost the sandbox a
/// bounded time and a bounded amount of memory, and never its other clients.
@Suite("Hostile network peers")
struct HostileNetworkTests {
    /// Creates a charge whose IPN goes to `ipn`, cancels it (one IPN), and waits until
    /// the outbox records the first attempt's outcome.
    private func firstAttempt(_ harness: Harness, ipn: String) async throws -> OutboxEntry? {
        let server = try await harness.token("server")
        let (id, _) = try await harness.createCharge(server, ipn: ipn)
        _ = try await harness.http.call("POST", "/v1/cancels", token: server,
                                        body: #"{"transaction_id":"\#(id)","reference":"c-\#(id)"}"#)
        _ = try await eventually(.seconds(15)) {
            try await harness.sandbox.server.store.notifications(transactionID: id).first.map { $0.attempts >= 1 } == true
        }
        return try await harness.sandbox.server.store.notifications(transactionID: id).first
    }

    @Test("an IPN to [::1] is delivered, not accepted and then dropped")
    func ipv6LoopbackDelivered() async throws {
        let receiver = try await IPNReceiver.start(host: "::1")
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop(); await receiver.stop() }) {
            #expect(receiver.url.hasPrefix("http://[::1]:"))
            let entry = try await firstAttempt(harness, ipn: receiver.url)
            #expect(entry?.state == .delivered, "\(String(describing: entry?.lastError))")
            #expect(receiver.deliveries.count == 1)
        }
    }

    @Test("a receiver that streams an endless answer fails the attempt at the answer bound, at once")
    func endlessAnswer() async throws {
        let endless = try RawServer { socket in
            guard socket.send(Data("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\n".utf8)) else { return }
            let chunk = Data(repeating: UInt8(ascii: "x"), count: 16 * 1024)
            for _ in 0..<10_000 where socket.send(chunk, timeout: .seconds(2)) {}
        }
        defer { endless.stop() }
        let harness = try await Harness.start { $0.ipnTimeout = .seconds(8); $0.ipnRetrySchedule = [.seconds(60)] }
        try await withCleanup({ await harness.stop() }) {
            let entry = try await firstAttempt(harness, ipn: "http://127.0.0.1:\(endless.port)/ipn")
            #expect(entry?.state == .pending, "a failed attempt, to be retried")
            // The error names the byte bound: the 8 s deadline would have said "timed out".
            #expect(entry?.lastError?.hasPrefix("answer larger than") == true, "\(String(describing: entry?.lastError))")
        }
    }

    @Test("a receiver that trickles its answer is cut off at the total deadline")
    func tricklingAnswer() async throws {
        // How many bytes the receiver got out before the sandbox hung up: a count, not a
        // clock reading, so a loaded machine (slower trickle) only makes it smaller.
        let trickled = ClientBoundsTests.Hits()
        let slow = try RawServer { socket in
            guard socket.send(Data("HTTP/1.1 200 OK\r\nContent-Length: 100000\r\n\r\n".utf8)) else { return }
            for _ in 0..<200 {
                guard socket.send(Data("x".utf8), timeout: .seconds(1)) else { return }
                trickled.add(nil)
                Thread.sleep(forTimeInterval: 0.1)
            }
        }
        defer { slow.stop() }
        let harness = try await Harness.start { $0.ipnTimeout = .seconds(1); $0.ipnRetrySchedule = [.seconds(60)] }
        try await withCleanup({ await harness.stop() }) {
            let entry = try await firstAttempt(harness, ipn: "http://127.0.0.1:\(slow.port)/ipn")
            #expect(entry?.state == .pending)
            #expect(entry?.lastError == "timed out", "\(String(describing: entry?.lastError))")
            // The receiver trickles 200 bytes over 20 s; at most half of them got out before
            // the 1 s deadline cut it off (about 10 do).
            #expect(trickled.all.count < 100, "the 1 s deadline holds however the bytes trickle (\(trickled.all.count) bytes sent)")
        }
    }

    @Test("a half-sent request is closed after the request timeout")
    func halfSentRequest() async throws {
        let harness = try await Harness.start { $0.requestTimeout = .milliseconds(500) }
        try await withCleanup({ await harness.stop() }) {
            let port = try #require(URL(string: harness.sandbox.info.baseURL)?.port)
            let silent = try RawSocket.connect(port: port)
            let half = try RawSocket.connect(port: port)
            #expect(half.send(Data("POST /v1/charges HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{\"tra".utf8)))
            // Both are read at once, each for up to 20 s: a server without the deadline never
            // closes either, so `closed` is the proof, with no wall-clock bound to flake on a
            // loaded machine (a CI run once stalled the process for 10 s).
            async let silentClosed = offPool { silent.receive(timeout: .seconds(20)).1 }
            async let halfClosed = offPool { half.receive(timeout: .seconds(20)).1 }
            let (silentWasClosed, halfWasClosed) = await (silentClosed, halfClosed)
            #expect(silentWasClosed, "an idle connection is closed by the request deadline")
            #expect(halfWasClosed, "a half-sent request is closed by the request deadline")
        }
    }

    @Test("idle connections up to the limit do not starve a real client")
    func connectionLimit() async throws {
        let harness = try await Harness.start { $0.maximumConnections = 4; $0.requestTimeout = .milliseconds(700) }
        try await withCleanup({ await harness.stop() }) {
            let port = try #require(URL(string: harness.sandbox.info.baseURL)?.port)
            // The idle connections are another peer's (127.0.0.2): from the client's own
            // address they would be its own, which its share of the connections refuses by
            // design (a race between their deadlines and its request, not what is tested).
            let idle = try (0..<12).map { _ in try RawSocket.connect(port: port, from: "127.0.0.2") }
            let health = try await harness.http.call("GET", "/v1/health")
            #expect(health.status == 200)
            #expect(idle.count == 12)
        }
    }

    /// The head of a `POST /v1/charges` with `token`, announcing `contentLength` body bytes.
    static func chargeHead(token: String, contentLength: Int) -> String {
        "POST /v1/charges HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n"
            + "Content-Type: application/json\r\nContent-Length: \(contentLength)\r\n\r\n"
    }

    @Test("a client that writes its whole over-limit body before reading still gets the 413")
    func tooLargeWrittenWhole() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            let port = try #require(URL(string: harness.sandbox.info.baseURL)?.port)
            let socket = try RawSocket.connect(port: port)
            let body = Data(repeating: UInt8(ascii: " "), count: 2 << 20)
            let token = try await harness.token("server")
            let head = Self.chargeHead(token: token, contentLength: body.count)
            let sent = await offPool { socket.send(Data(head.utf8) + body, timeout: .seconds(30)) }
            #expect(sent, "the server reads the body it refuses")
            let (answer, closed) = await offPool { socket.receive(timeout: .seconds(20)) }
            let text = String(decoding: answer, as: UTF8.self)
            #expect(closed, "the refusal ends the connection")
            #expect(text.hasPrefix("HTTP/1.1 413"), "\(text.prefix(200))")
            #expect(text.contains("\"4130\""))
        }
    }

    @Test("a body sent in pieces is read whole: the charge is created from all of it")
    func bodyInPieces() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            let port = try #require(URL(string: harness.sandbox.info.baseURL)?.port)
            let socket = try RawSocket.connect(port: port)
            let token = try await harness.token("server")
            let body = Data(#"{"transaction":{"reference":"in-pieces-1","amount":125,"currency":"USD","country":"US","note":"split"},"payment":{"method":"wechatpay"}}"#.utf8)
            #expect(socket.send(Data(Self.chargeHead(token: token, contentLength: body.count).utf8)))
            // Three pieces, each after a pause, so that each arrives as a chunk of its own.
            for piece in [body.prefix(20), body.dropFirst(20).prefix(50), body.dropFirst(70)] {
                try await Task.sleep(for: .milliseconds(60))
                #expect(socket.send(Data(piece)))
            }
            let (answer, _) = await offPool { socket.receive(timeout: .seconds(10)) { RawSocket.isWholeRequest($0) } }
            let text = String(decoding: answer, as: UTF8.self)
            #expect(text.hasPrefix("HTTP/1.1 200"), "\(text.prefix(300))")
            #expect(text.contains(#""reference":"in-pieces-1""#))
            #expect(text.contains(#""amount":125"#))
        }
    }

    @Test("a body beyond the discard bound gets its connection closed, not drained without end")
    func endlessBody() async throws {
        let harness = try await Harness.start { $0.maximumDiscardedBytes = 256 * 1024 }
        try await withCleanup({ await harness.stop() }) {
            let port = try #require(URL(string: harness.sandbox.info.baseURL)?.port)
            let socket = try RawSocket.connect(port: port)
            let head = "POST /v1/charges HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000000000\r\n\r\n"
            #expect(socket.send(Data(head.utf8)))
            let chunk = Data(repeating: UInt8(ascii: " "), count: 64 * 1024)
            let sent = await offPool { () -> Int in
                var sent = 0
                while sent < 64 << 20, socket.send(chunk, timeout: .seconds(20)) { sent += chunk.count }
                return sent
            }
            #expect(sent < 64 << 20, "the server stopped reading and closed (\(sent) bytes sent)")
            // The send ended because the server closed, not because a loaded machine was slow.
            let closed = await offPool { socket.receive(timeout: .seconds(20)).closed }
            #expect(closed, "the connection was closed by the server")
        }
    }
}
