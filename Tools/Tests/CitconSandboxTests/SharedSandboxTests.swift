@testable import CitconSandbox
import CitconSandboxTesting
@_spi(Tools) import CitconUPI
import Foundation
import Testing
import ToolsHTTP

/// Listener streams and secrets when a sandbox is shared: many streams, several
/// instances on one database, a rotation.
@Suite("A shared sandbox: listener streams and rotations")
struct SharedSandboxTests {
    /// Opens `GET /v1/ipn-events` with `key` and returns its events.
    static func stream(_ harness: Harness, key: String) async throws -> ServerSentEvents {
        let url = try #require(URL(string: harness.sandbox.info.baseURL + "/v1/ipn-events"))
        return try await ToolsHTTPClient.shared.events(.init("GET", url, headers: [("Authorization", "Bearer " + key)], deadline: .seconds(30)))
    }

    /// Reads events of `events` in a task, collecting their names, until it ends.
    final class Reader: @unchecked Sendable {
        private let lock = NSLock()
        private var names: [String] = []
        private var ended = false
        private var task: Task<Void, Never>?

        init(_ events: ServerSentEvents) {
            task = Task { [self] in
                do { for try await event in events { lock.withLock { names.append(event.name) } } } catch {}
                lock.withLock { ended = true }
            }
        }

        var seen: [String] { lock.withLock { names } }
        var hasEnded: Bool { lock.withLock { ended } }
        func cancel() { task?.cancel() }
    }

    @Test("idle listener streams cost no query: one poll serves them all, and they read the outbox only when it changed")
    func idleStreamsCostNothing() async throws {
        let harness = try await Harness.start()
        let feed = harness.sandbox.server.listenerFeed
        var readers: [Reader] = []
        try await withCleanup({ readers.forEach { $0.cancel() }; await harness.stop() }) {
            for _ in 0..<8 { readers.append(Reader(try await Self.stream(harness, key: harness.merchantKey))) }
            #expect(await eventually { readers.allSatisfy { $0.seen == ["hello"] } })
            // Each stream's first read is made before its hello is flushed or soon after: wait for all eight.
            #expect(await eventually { feed.counts.reads >= 8 })
            let before = feed.counts
            // Twenty polls of the feed (20 ms apart here) with nothing new: no stream reads again.
            #expect(await eventually { feed.counts.polls >= before.polls + 20 })
            #expect(feed.counts.reads == before.reads, "idle streams read the outbox \(feed.counts.reads - before.reads) times in 20 polls")
            // A new IPN wakes them: each stream reads and sends it.
            let server = try await harness.token("server")
            let (id, _) = try await harness.createCharge(server)
            _ = try await harness.http.call("POST", "/v1/cancels", token: server, body: #"{"transaction_id":"\#(id)","reference":"c-\#(id)"}"#)
            #expect(await eventually { readers.allSatisfy { $0.seen == ["hello", "charge.canceled"] } })
            #expect(feed.counts.reads > before.reads)
        }
    }

    @Test("one merchant key opens a bounded number of listener streams on an instance; the next is refused 429, naming Authorization")
    func streamsAreBoundedPerKey() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            let port = try #require(URL(string: harness.sandbox.info.baseURL)?.port)
            let request = Data("GET /v1/ipn-events HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(harness.merchantKey)\r\n\r\n".utf8)
            /// Opens a stream on a socket of its own, and returns it with what came first.
            func open() async throws -> (RawSocket, String) {
                let socket = try RawSocket.connect(port: port)
                let head = await offPool {
                    socket.send(request)
                    let answer = socket.receive(timeout: .seconds(20)) { data in
                        data.range(of: Data("event: hello".utf8)) != nil || RawSocket.isWholeRequest(data) && !data.starts(with: Data("HTTP/1.1 200".utf8))
                    }
                    return String(decoding: answer.data, as: UTF8.self)
                }
                return (socket, head)
            }
            var sockets: [RawSocket] = []
            for _ in 0..<ListenerFeed.maximumStreams {
                let (socket, head) = try await open()
                #expect(head.hasPrefix("HTTP/1.1 200") && head.contains("event: hello"), "\(head)")
                sockets.append(socket)
            }
            #expect(harness.sandbox.server.listenerFeed.openStreams == ListenerFeed.maximumStreams)
            let (_, refused) = try await open()
            #expect(refused.hasPrefix("HTTP/1.1 429") && refused.contains("4290") && refused.contains("Authorization"), "\(refused)")
            // The refused connection is not kept: the place it would hold is the connection's.
            #expect(refused.lowercased().contains("connection: close"), "\(refused)")
            // Other requests with the key still work.
            #expect(try await harness.http.call("POST", "/v1/access-tokens", token: harness.merchantKey, body: #"{"token_type":"server"}"#).status == 200)
            // A listener that goes frees its place: its stream's next keep-alive fails (a
            // second or two here; the whole suite on CI's two cores once took over 10 s).
            let gone = sockets.removeLast()
            shutdown(gone.descriptor, Int32(SHUT_RDWR))
            #expect(await eventually(.seconds(60)) { harness.sandbox.server.listenerFeed.openStreams == ListenerFeed.maximumStreams - 1 },
                    "a closed stream still holds its place")
            let (_, again) = try await open()
            #expect(again.hasPrefix("HTTP/1.1 200"), "\(again)")
        }
    }

    @Test("a stream's place is freed once: when its stream ends, or with its response when the body never runs")
    func aPlaceIsFreedWithAnUnwrittenResponse() async throws {
        try await Harness.router { harness in
            let feed = harness.sandbox.server.listenerFeed
            do {
                // A response built and dropped before its body ran (a connection gone between head and body).
                let unwritten = try feed.open()
                #expect(feed.openStreams == 1)
                _ = unwritten
            }
            #expect(feed.openStreams == 0, "a response dropped unwritten kept its place")
            let place = try feed.open()
            place.free()
            place.free()
            #expect(feed.openStreams == 0, "a place freed twice was counted twice")
        }
    }

    @Test("GET /v1/ipns reads only what it shows: the newest 500 IPNs and their attempts in one store call, not the outbox and a query per charge")
    func ipnListReadsWhatItShows() async throws {
        let store = CountingStore()
        try await Harness.router(store: store) { harness in
            for index in 0..<600 {
                let id = String(70_000 + index)
                try await store.insertCharge(SandboxStoreConformance.charge(id, reference: "list-\(index)", ipn: "http://127.0.0.1:9/ipn",
                                                                            expiresAt: 4_000_000_000_000))
                _ = try await store.updateCharge(id: id, reference: nil, now: 10) { $0.status = .pending }
            }
            let listed = try await harness.http.call("GET", "/v1/ipns", token: harness.merchantKey)
            #expect(listed.status == 200, "\(listed.text.prefix(200))")
            let entries = try #require(listed.json?["data"] as? [[String: Any]])
            #expect(entries.count == 500 && entries.last?["charge"] as? String == "70599" && entries.first?["charge"] as? String == "70100",
                    "\(entries.count) IPNs, from \(entries.first?["charge"] ?? "-") to \(entries.last?["charge"] ?? "-")")
            #expect(store.count("latestNotifications") == 1, "the listing was not read in one store call")
            #expect(store.count("notifications(all)") == 0, "the whole outbox was read to list 500 IPNs")
            #expect(store.count("notificationLog") == 0, "attempts were read apart from their IPNs (\(store.count("notificationLog")) times)")
        }
    }

    @Test("the dashboard reads its charges, then their IPNs and attempts in one store call, not two calls per charge")
    func dashboardReadsInTwoCalls() async throws {
        let store = CountingStore()
        try await Harness.router(store: store) { harness in
            for index in 0..<(SandboxAPI.dashboardLimit + 10) {
                let id = String(80_000 + index)
                try await store.insertCharge(SandboxStoreConformance.charge(id, reference: "dash-\(index)", ipn: "http://127.0.0.1:9/ipn",
                                                                            expiresAt: 4_000_000_000_000))
                _ = try await store.updateCharge(id: id, reference: nil, now: 10) { $0.status = .pending }
            }
            let page = try await harness.http.call("GET", DashboardPage.path, token: harness.merchantKey)
            #expect(page.status == 200, "\(page.text.prefix(200))")
            // The newest charges are shown, each with its IPN.
            let shown = (80_000..<80_000 + SandboxAPI.dashboardLimit + 10).filter { page.text.contains("id=\"charge-\($0)\"") }
            #expect(shown == Array(80_010..<80_000 + SandboxAPI.dashboardLimit + 10), "the dashboard shows \(shown), not the newest charges")
            // Each charge with its own IPN.
            #expect(page.text.components(separatedBy: "data-label=\"IPN\"").count - 1 == SandboxAPI.dashboardLimit, "not one IPN per charge")
            #expect(store.count("notificationLog") == 1, "the charges' IPNs were read in \(store.count("notificationLog")) calls")
            #expect(store.count("notifications(transaction)") == 0, "IPNs were read once per charge (\(store.count("notifications(transaction)")) times)")
        }
    }

    @Test("a rotation on one instance reaches another within a second: its IPNs are signed with the new secret, its streams of the old key end")
    func rotationReachesEveryInstance() async throws {
        let old = ("sk_shared_old_0123456789", "ipn_shared_old_0123456789")
        let new = ("sk_shared_new_0123456789", "ipn_shared_new_0123456789")
        let receiver = try await IPNReceiver.start()
        let a = try await Harness.start { $0.merchantKey = old.0; $0.ipnSecret = old.1 }
        var b: Harness?
        try await withCleanup({ await b?.stop(removing: false); await a.stop(); await receiver.stop() }) {
            let reader = Reader(try await Self.stream(a, key: old.0))
            #expect(await eventually { reader.seen == ["hello"] })
            // A second instance on the same database, started with a new key and secret.
            b = try await Harness.start(directory: a.directory, database: a.database) { $0.merchantKey = new.0; $0.ipnSecret = new.1 }
            await b?.stop(removing: false)
            #expect(await eventually(.seconds(10)) { reader.hasEnded }, "a stream of the rotated key is still open")
            #expect(await eventually(.seconds(10)) { a.sandbox.server.listenerFeed.openStreams == 0 })
            // A (the only instance left) delivers an IPN: signed with the new secret.
            let issued = try await a.http.call("POST", "/v1/access-tokens", token: new.0, body: #"{"token_type":"server"}"#)
            let server = try #require(issued.data?["access_token"] as? String)
            let (id, _) = try await a.createCharge(server, ipn: receiver.url)
            _ = try await a.http.call("POST", "/v1/cancels", token: server, body: #"{"transaction_id":"\#(id)","reference":"c-\#(id)"}"#)
            #expect(await receiver.wait { $0.count == 1 })
            let delivery = try #require(receiver.deliveries.first)
            #expect((try? delivery.verified(secret: new.1))?.id == id, "signed with the old secret after a rotation")
            // And a new stream with the new key is greeted with the new secret.
            let events = try await Self.stream(a, key: new.0)
            var iterator = events.makeAsyncIterator()
            let hello = try #require(try await iterator.next())
            #expect(hello.name == "hello" && hello.data.contains(new.1) && !hello.data.contains(old.1))
        }
    }
}
