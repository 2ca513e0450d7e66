import CitconSandbox
import CitconSandboxTesting
import Foundation
import Hummingbird
import NIOCore
import ProcessSupport
import Testing
import ToolsHTTP
import ToolsPlatform

/// The tools' one HTTP client, and the commands that once bypassed it (the third round
/// of attacks): no redirect followed with the merchant key, nothing unbounded, server
/// text escaped, fixtures that cannot inject, and a listener that sleeps when idle.
@Suite("The tools' one HTTP client", .serialized)
struct ToolsClientTests {
    static let key = "sk_live_looking_merchant_key_0123"

    /// Records what reached a host, and whether it carried the key.
    typealias Hits = ClientBoundsTests.Hits

    // MARK: The client itself

    @Test("a redirect is an error naming its status; the other host never sees the request")
    func redirectsAreRefused() async throws {
        let elsewhere = Hits()
        try await serveRouter({ router in
            router.get("/stolen") { request, _ -> Response in
                elsewhere.add(request.headers[.authorization] ?? "")
                return Response(status: .ok)
            }
        }) { other in
            try await serveRouter({ router in
                router.get("/start") { _, _ -> Response in
                    Response(status: .temporaryRedirect, headers: [.location: other.absoluteString + "stolen"])
                }
            }) { base in
                let url = try #require(URL(string: base.absoluteString + "start"))
                await #expect(throws: ToolsHTTPClient.Failure.redirect(status: 307, url: url.absoluteString)) {
                    _ = try await ToolsHTTPClient.shared.send(.init("GET", url, headers: [("Authorization", "Bearer " + Self.key)]))
                }
                // Read, when asked, but still not followed.
                let read = try await ToolsHTTPClient.shared.send(.init("GET", url, readsRedirects: true))
                #expect(read.status == 307 && read.header("location") == other.absoluteString + "stolen")
            }
        }
        #expect(elsewhere.all.isEmpty, "the other host got \(elsewhere.all)")
    }

    @Test("an endless answer ends at the limit; a trickle at the deadline")
    func answersAreBounded() async throws {
        let written = Hits()
        let server = try RawServer.endless(head: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n") { written.add(nil) }
        defer { server.stop() }
        let endless = try #require(URL(string: "http://127.0.0.1:\(server.port)/"))
        await #expect(throws: ToolsHTTPClient.Failure.tooLarge(limit: 65536)) {
            _ = try await ToolsHTTPClient.shared.send(.init("GET", endless, limit: 65536))
        }
        #expect(written.all.count < 64, "\(written.all.count) MiB were read")

        try await serveRouter({ router in
            router.get("/slow") { _, _ -> Response in
                Response(status: .ok, body: ResponseBody { writer in
                    for _ in 0..<600 {
                        try await writer.write(ByteBuffer(string: " "))
                        try await Task.sleep(for: .milliseconds(100))
                    }
                    try await writer.finish(nil)
                })
            }
        }) { base in
            let started = ContinuousClock.now
            await #expect(throws: ToolsHTTPClient.Failure.deadline(.seconds(1))) {
                _ = try await ToolsHTTPClient.shared.send(.init("GET", try #require(URL(string: base.absoluteString + "slow")), deadline: .seconds(1)))
            }
            #expect(ContinuousClock.now - started < .seconds(10))
        }
    }

    @Test("an event stream: events in order, each bounded, the backlog left in the socket")
    func eventsAreBounded() async throws {
        var parser = ServerSentEventParser(limit: 64)
        try parser.append(Array("id: 1\r\nevent: a\ndata: x\ndata: y\n\n: comment\n\ndata:z\r\rid: 2\n".utf8))
        #expect(parser.next() == ServerSentEvent(id: "1", name: "a", data: "x\ny"))
        #expect(parser.next() == ServerSentEvent(id: nil, name: "message", data: "z"))
        #expect(parser.next() == nil)
        #expect(throws: ToolsHTTPClient.Failure.eventTooLarge(limit: 64)) { try parser.append(Array(repeating: UInt8(ascii: "d"), count: 65)) }

        // A server that never ends its first event: the reader stops at the bound, having read
        // little more than it (a reader that buffers takes in all that is sent).
        let written = Hits()
        let server = try RawServer.endless(head: "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\ndata: ") { written.add(nil) }
        defer { server.stop() }
        let events = try await ToolsHTTPClient.shared.events(.init("GET", try #require(URL(string: "http://127.0.0.1:\(server.port)/"))),
                                                             maximumEventBytes: 256 * 1024)
        await #expect(throws: ToolsHTTPClient.Failure.eventTooLarge(limit: 256 * 1024)) {
            for try await _ in events {}
        }
        #expect(written.all.count < 64, "\(written.all.count) MiB were read")
    }

    // MARK: The commands

    /// A host that redirects every route the commands use to `other`.
    static func redirecting(_ router: Router<BasicRequestContext>, to other: URL) {
        for path in ["/v1/ipn-events", "/sandbox/dashboard", "/v1/ipns"] {
            router.get(RouterPath(stringLiteral: path)) { _, _ -> Response in
                Response(status: .temporaryRedirect, headers: [.location: other.absoluteString + "stolen"])
            }
        }
        for path in ["/v1/access-tokens", "/sandbox/dashboard", "/v1/charges"] {
            router.post(RouterPath(stringLiteral: path)) { _, _ -> Response in
                Response(status: .temporaryRedirect, headers: [.location: other.absoluteString + "stolen"])
            }
        }
    }

    @Test("no command follows a redirect with the merchant key")
    func commandsRefuseRedirects() async throws {
        let elsewhere = Hits()
        try await serveRouter({ router in
            for method in [HTTPRequest.Method.get, .post] {
                router.on("/stolen", method: method) { request, _ -> Response in
                    elsewhere.add(request.headers[.authorization] ?? "")
                    return Response(status: .ok)
                }
            }
        }) { other in
            try await serveRouter({ router in Self.redirecting(router, to: other) }) { base in
                let api = base.absoluteString + "v1"
                for command in [["upi", "listen", "--forward-to", "http://127.0.0.1:1/x"], ["upi", "pay", "123"], ["upi", "decline", "123"],
                                ["upi", "trigger", "charge.succeeded"], ["upi", "ipn", "resend", "1"], ["upi", "ipn", "list"], ["upi", "token"]] {
                    let run = try await chargekit(command + ["--base-url", api, "--key", Self.key])
                    #expect(run.status != 0, "\(command) succeeded against a redirect")
                    #expect(run.stderr.contains("307") && run.stderr.contains("not followed"), "\(command): \(run.stderr)")
                }
            }
        }
        #expect(elsewhere.all.isEmpty, "the key followed a redirect: \(elsewhere.all)")
    }

    @Test("upi listen escapes what the server sent, and its memory stays bounded under an endless event")
    func listenerAgainstAHostileStream() async throws {
        let received = Hits()
        try await serveRouter({ router in
            router.post("/ipn") { _, _ -> Response in
                received.add("ipn")
                return Response(status: .ok)
            }
        }) { receiver in
            // The hello, then an IPN whose charge id would forge a line and recolour the terminal.
            let forged = #"{"id":"12\u001b[31m\n2026-01-01T00:00:00Z  ipn 9  forged\u202e"}"#
            try await serveRouter({ router in
                router.get("/v1/ipn-events") { _, _ -> Response in
                    Response(status: .ok, headers: [.contentType: "text/event-stream"], body: ResponseBody { writer in
                        try await writer.write(ByteBuffer(string: "event: hello\ndata: {\"merchant\":\"M\\u001b]0;x\\u0007\",\"latest\":\"0\"}\n\n"))
                        try await writer.write(ByteBuffer(string: "id: 1\nevent: charge.succeeded\ndata: \(forged)\n\n"))
                        // Then one event without end.
                        try await writer.write(ByteBuffer(string: "id: 2\nevent: charge.succeeded\ndata: "))
                        let chunk = ByteBuffer(repeating: UInt8(ascii: "x"), count: 1 << 16)
                        for _ in 0..<40_000 { try await writer.write(chunk) }
                        try await writer.finish(nil)
                    })
                }
            }) { base in
                let child = try Child(ServerProcess.executable.path, ["upi", "listen", "--base-url", base.absoluteString + "v1", "--key", Self.key,
                                                                       "--forward-to", receiver.absoluteString + "ipn"])
                defer { child.signal(SIGKILL); _ = child.wait() }
                #expect(await eventually(.seconds(20)) { child.stdout.contains("charge.succeeded") })
                var peak = 0
                for _ in 0..<20 {
                    peak = max(peak, Self.residentKiB(child.pid))
                    try await Task.sleep(for: .milliseconds(250))
                }
                #expect(peak < 150_000, "upi listen grew to \(peak) KiB")
                let out = child.stdout + child.stderr
                #expect(!out.utf8.contains(0x1B) && !out.contains("\u{202E}") && !out.contains("\n2026-01-01T00:00:00Z  ipn 9"), "\(out)")
                #expect(out.contains("\\u{1B}[31m\\n2026") && out.contains("\\u{202E}"), "\(out)")
                #expect(child.stderr.contains("larger than 262144 bytes"), "\(child.stderr)")
            }
        }
        #expect(received.all.count >= 1)
    }

    @Test("a fixture's method cannot add members to the body; a long --override path is refused, not a crash")
    func fixturesAndOverrides() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fixture-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let fixture = folder.appendingPathComponent("steps.json")
        try Data(#"{"steps":[{"step":"charge"},{"step":"confirm","method":"alipay\",\"return_url\":\"https://evil.example/"}]}"#.utf8).write(to: fixture)
        let injected = try await chargekit(["upi", "trigger", "--fixture", fixture.path, "--base-url", "http://127.0.0.1:1/v1", "--key", Self.key])
        #expect(injected.status == 64 && injected.stderr.contains("method"), "\(injected.stderr)")

        let long = String(repeating: "a.", count: 10_000) + "a=1"
        let overlong = try await chargekit(["upi", "trigger", "charge.succeeded", "--override", long, "--base-url", "http://127.0.0.1:1/v1", "--key", Self.key])
        #expect(overlong.status == 64 && overlong.stderr.contains("--override"), "\(overlong.status) \(overlong.stderr.prefix(300))")
    }

    @Test("upi listen: connected to what, IPN numbers on its lines, a missed IPN sent again, --after beyond the newest exits 65")
    func listenerFlow() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            let api = harness.sandbox.info.baseURL + "/v1"
            let key = harness.merchantKey
            let child = try Child(ServerProcess.executable.path, ["upi", "listen", "--base-url", api, "--key", key,
                                                                   "--forward-to", "http://127.0.0.1:1/x"])
            defer { child.signal(SIGKILL); _ = child.wait() }
            #expect(await eventually(.seconds(20)) { child.stderr.contains("forwarding IPNs of") }, "\(child.stderr)")
            #expect(child.stderr.contains("connected to \(api)/ipn-events: forwarding IPNs of \(harness.configuration.merchantName) to http://127.0.0.1:1/x"),
                    "\(child.stderr)")

            // A charge that named no IPN URL: its IPN is for the listeners only.
            let (id, _) = try await harness.createCharge(try await harness.token("server"))
            try await harness.sandbox.server.api.expireNow(id: id)
            #expect(await eventually(.seconds(20)) { child.stdout.contains("charge.expired") }, "\(child.stdout)")
            let first = try #require(child.stdout.split(separator: "\n").first { $0.contains("charge.expired") })
            let number = try #require(first.split(separator: " ", omittingEmptySubsequences: true).dropFirst(2).first)
            #expect(first.contains("  ipn \(number)  \(id)  charge.expired  not delivered"), "\(first)")

            // Sent again: the running listener gets it again, under the next number.
            let resend = try await chargekit(["upi", "ipn", "resend", String(number), "--base-url", api, "--key", key])
            #expect(resend.status == 0, "\(resend.stderr)")
            #expect(await eventually(.seconds(20)) { child.stdout.components(separatedBy: "charge.expired").count == 3 }, "\(child.stdout)")

            let beyond = try await chargekit(["upi", "listen", "--after", "99999", "--base-url", api, "--key", key, "--forward-to", "http://127.0.0.1:1/x"])
            #expect(beyond.status == 65, "\(beyond.stderr)")
            #expect(beyond.stderr.contains("--after 99999") && beyond.stderr.contains("newest is \((Int(number) ?? 0) + 1)"), "\(beyond.stderr)")
        }
    }

    @Test("upi listen sleeps when idle: at most 1 % of a core over 20 seconds")
    func listenerIdlesCheaply() async throws {
        // Both as real processes: the sandbox's own stream polling stays out of this test
        // process, whose other tests run servers of their own.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("idle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let sandbox = try Child(ServerProcess.executable.path, ["sandbox", "serve", "--port", "0", "--merchant-key", Self.key,
                                                                 "--db", folder.appendingPathComponent("s.sqlite").path])
        defer { sandbox.signal(SIGKILL); _ = sandbox.wait() }
        #expect(await eventually(.seconds(30)) { sandbox.stdout.contains("merchant key: ") }, "\(sandbox.stderr)")
        let base = try #require(sandbox.stdout.split(separator: "\n").first { $0.hasPrefix("Citcon UPI sandbox listening on ") })
            .dropFirst("Citcon UPI sandbox listening on ".count)
        do {
            let child = try Child(ServerProcess.executable.path, ["upi", "listen", "--base-url", base + "/v1",
                                                                   "--key", Self.key, "--forward-to", "http://127.0.0.1:1/x"])
            defer { child.signal(SIGKILL); _ = child.wait() }
            #expect(await eventually(.seconds(20)) { child.stderr.contains("forwarding IPNs of") }, "\(child.stderr)")
            try await Task.sleep(for: .seconds(1))
            let before = try Self.cpuTicks(child.pid)
            let started = ContinuousClock.now
            try await Task.sleep(for: .seconds(20))
            let used = Double(try Self.cpuTicks(child.pid) - before) / Double(sysconf(Int32(_SC_CLK_TCK)))
            let elapsed = Double((ContinuousClock.now - started).components.seconds)
            #expect(used / elapsed <= 0.01, "upi listen used \(used) s of CPU in \(elapsed) s idle")
        }
    }

    /// User and system time of `pid`, in clock ticks (`/proc/PID/stat`, fields 14 and 15).
    static func cpuTicks(_ pid: pid_t) throws -> Int {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let fields = try #require(stat.split(separator: ")").last).split(separator: " ")
        return (Int(fields[11]) ?? 0) + (Int(fields[12]) ?? 0)
    }

    /// The resident set of `pid` in KiB (`VmRSS` of `/proc/PID/status`), 0 once it is gone.
    static func residentKiB(_ pid: pid_t) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }
}
