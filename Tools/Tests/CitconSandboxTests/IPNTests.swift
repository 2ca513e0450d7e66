import CitconSandbox
import CitconSandboxTesting
@_spi(Tools) import CitconUPI
import Foundation
import Testing

@Suite("IPN delivery")
struct IPNTests {
    @Test("an IPN URL's receiver origin is its scheme, host and port, whatever its path, query, user part or case")
    func origins() {
        let origin = OutboxEntry.origin(of:)
        #expect(origin("http://127.0.0.1:9/ipn") == "http://127.0.0.1:9")
        #expect(origin("HTTP://u:p@127.0.0.1:9/other/path?q=1#f") == "http://127.0.0.1:9")
        #expect(origin("http://Example.COM/ipn") == "http://example.com:80")
        #expect(origin("https://example.com/ipn") == "https://example.com:443")
        #expect(origin("https://example.com:8443/ipn") != origin("https://example.com/ipn"))
        #expect(origin("http://[::1]:9/ipn") == "http://[::1]:9")
        #expect(origin("") == "" && origin("not a url") == "not a url")
    }

    @Test("a receiver answering 500 twice then 200 gets the notification on the third attempt", arguments: CrashBackend.available)
    func retriesThenDelivers(backend: CrashBackend) async throws {
        let receiver = try await IPNReceiver.start(script: [500, 500])
        // A long attempt deadline: on a loaded machine (CI's two cores under the whole
        // suite and PostgreSQL) a 5 s deadline once cut an attempt while the receiver was
        // still reading its body, which it then recorded empty.
        let harness = try await Harness.start(backend: backend) { $0.ipnTimeout = .seconds(20) }
        try await withCleanup({ await harness.stop(); await receiver.stop() }) {
            let server = try await harness.token("server")
            let client = try await harness.token("client")
            let (id, chargeToken) = try await harness.createCharge(server, ipn: receiver.url)
            _ = try await harness.confirm(client, chargeToken: chargeToken, returnURL: "myapp://back")
            let delivered = try await eventually {
                try await harness.sandbox.server.store.notifications(transactionID: id).first?.state == .delivered
            }
            #expect(delivered)
            let deliveries = receiver.deliveries
            #expect(deliveries.map(\.answered) == [500, 500, 200])
            #expect(deliveries.map(\.attempt) == [1, 2, 3])
            #expect(deliveries.allSatisfy { $0.fields?["id"] == id && $0.fields?["status"] == "pending" })
            let secret = harness.sandbox.info.ipnSecret
            #expect(deliveries.allSatisfy { (try? $0.verified(secret: secret))?.id == id }, "every attempt is signed")
            let entry = try #require(try await harness.sandbox.server.store.notifications(transactionID: id).first)
            #expect(entry.attempts == 3 && entry.lastError == nil)
        }
    }

    @Test("a dead receiver ends in the dead-letter state after the last scheduled attempt", arguments: CrashBackend.available)
    func deadLetter(backend: CrashBackend) async throws {
        let gone = try await IPNReceiver.start()
        let url = gone.url
        await gone.stop()
        let harness = try await Harness.start(backend: backend) { $0.ipnRetrySchedule = [.milliseconds(30), .milliseconds(60)] }
        try await withCleanup({ await harness.stop() }) {
            let server = try await harness.token("server")
            let (id, _) = try await harness.createCharge(server, ipn: url)
            _ = try await harness.http.call("POST", "/v1/cancels", token: server,
                                            body: #"{"transaction_id":"\#(id)","reference":"c-\#(id)"}"#)
            let dead = try await eventually {
                try await harness.sandbox.server.store.notifications(transactionID: id).first?.state == .dead
            }
            #expect(dead)
            let entry = try #require(try await harness.sandbox.server.store.notifications(transactionID: id).first)
            #expect(entry.attempts == 3, "first attempt plus two retries")
            #expect(entry.lastError != nil)
            #expect(entry.status == .charge(.canceled))
        }
    }

    @Test("every status change writes one IPN, and every refund one of its own; no change, no IPN", arguments: CrashBackend.available)
    func oneNotificationPerChange(backend: CrashBackend) async throws {
        let receiver = try await IPNReceiver.start()
        let harness = try await Harness.start(backend: backend)
        try await withCleanup({ await harness.stop(); await receiver.stop() }) {
            let server = try await harness.token("server")
            let client = try await harness.token("client")
            let (id, chargeToken) = try await harness.createCharge(server, amount: 700, method: "card", ipn: receiver.url)
            _ = try await harness.confirm(client, chargeToken: chargeToken, method: "card", returnURL: "myapp://back")
            _ = try await harness.wallet(id, "pay")
            _ = try await harness.wallet(id, "decline")
            let captured = try await harness.http.call("POST", "/v1/captures", token: server,
                                                       body: #"{"transaction_id":"\#(id)","reference":"cap-\#(id)"}"#)
            let refunded = try await harness.http.call("POST", "/v1/refunds", token: server,
                                                       body: #"{"transaction_id":"\#(id)","reference":"ref-\#(id)","amount":100}"#)
            #expect(await receiver.wait { $0.count >= 4 })
            // Every IPN of the charge delivered: the worker sends nothing more (not a wait).
            #expect(try await eventually {
                try await harness.sandbox.server.store.notifications(transactionID: id).allSatisfy { $0.state == .delivered }
            })
            let secret = harness.sandbox.info.ipnSecret
            let notifications = try receiver.deliveries.map { delivery throws(CPayIPNError) in try delivery.verified(secret: secret) }
            #expect(notifications.map(\.status) == ["pending", "authorized", "captured", "success"], "status words as IPNs use them")
            let inquiry = try await harness.inquire(server, id)
            let charge = try #require(notifications.dropLast().last)
            let answer = try JSONDecoder().decode(CPayCheck.self, from: captured.body)
            #expect(charge.fields["amount_captured"] == "700" && charge.id == answer.data?.id)
            #expect(charge.fields["amount_refunded"] == "", "empty string when none")
            #expect(charge.transactionType == "charge" && charge.paymentMethod == "card" && charge.unsignedKeys.isEmpty)
            #expect(charge.fields["time_created"]?.hasSuffix("Z") == true, "ISO-8601")
            #expect(inquiry.data?["amount_refunded"] as? Int == 100, "refunds change amounts, not the status")
            // The refund's own IPN: its id and reference, its amount, and the charge's amounts so far.
            let refund = try #require(notifications.last)
            let refundAnswer = try JSONDecoder().decode(CPayCheck.self, from: refunded.body)
            #expect(refund.transactionType == "refund" && refund.id == refundAnswer.data?.id && refund.reference == "ref-\(id)")
            #expect(refund.fields["amount"] == "100" && refund.fields["amount_refunded"] == "100" && refund.fields["amount_captured"] == "700")
            #expect(refund.unsignedKeys.isEmpty)
        }
    }

    @Test("a receiver that never answers times out and is retried, then dead-lettered", arguments: CrashBackend.available)
    func hangingReceiver(backend: CrashBackend) async throws {
        let receiver = try await IPNReceiver.start(script: [], delay: .seconds(5))
        let harness = try await Harness.start(backend: backend) {
            $0.ipnTimeout = .milliseconds(200)
            $0.ipnRetrySchedule = [.milliseconds(20)]
        }
        try await withCleanup({ await harness.stop(); await receiver.stop() }) {
            let server = try await harness.token("server")
            let (id, _) = try await harness.createCharge(server, ipn: receiver.url)
            _ = try await harness.http.call("POST", "/v1/cancels", token: server, body: #"{"transaction_id":"\#(id)","reference":"h-\#(id)"}"#)
            #expect(try await eventually(.seconds(20)) {
                try await harness.sandbox.server.store.notifications(transactionID: id).first?.state == .dead
            })
            let entry = try #require(try await harness.sandbox.server.store.notifications(transactionID: id).first)
            #expect(entry.attempts == 2 && entry.lastError == "timed out")
        }
    }

    @Test("a hanging receiver delays only its own IPNs, not another merchant URL's", arguments: CrashBackend.available)
    func slowReceiverDoesNotBlockOthers(backend: CrashBackend) async throws {
        // The slow receiver holds its answer for 21 s, beyond the 20 s IPN timeout: its
        // first attempt ends (as a timeout) only after 20 s. The fast receiver's IPN must
        // arrive while that attempt is still open, which the outbox shows as no attempt
        // recorded yet for the stuck charge. Causal, not a wall-clock bound (20 s leaves a
        // loaded machine room: with 8 s, one under a parallel build took longer).
        let slow = try await IPNReceiver.start(script: [], delay: .seconds(21))
        let fast = try await IPNReceiver.start()
        let harness = try await Harness.start(backend: backend) { $0.ipnTimeout = .seconds(20) }
        try await withCleanup({ await harness.stop(); await slow.stop(); await fast.stop() }) {
            let server = try await harness.token("server")
            let (stuck, _) = try await harness.createCharge(server, ipn: slow.url)
            _ = try await harness.http.call("POST", "/v1/cancels", token: server, body: #"{"transaction_id":"\#(stuck)","reference":"s-\#(stuck)"}"#)
            #expect(await slow.wait { $0.count == 1 }, "the slow receiver has the first IPN in hand")
            let (id, _) = try await harness.createCharge(server, ipn: fast.url)
            _ = try await harness.http.call("POST", "/v1/cancels", token: server, body: #"{"transaction_id":"\#(id)","reference":"f-\#(id)"}"#)
            #expect(await fast.wait(timeout: .seconds(15)) { $0.count == 1 })
            let stuckEntry = try await harness.sandbox.server.store.notifications(transactionID: stuck).first
            #expect(stuckEntry?.attempts == 0, "delivered while the other receiver still hangs")
        }
    }

    @Test("a hanging receiver's backlog, over many paths, holds at most four delivery slots; another origin's IPN goes out at once",
          arguments: CrashBackend.available)
    func slowBacklogDoesNotBlockOthers(backend: CrashBackend) async throws {
        // Forty IPNs to a receiver that hangs beyond the IPN timeout, each to its own
        // path and query, then one to a fast one. Without a per-origin bound, the
        // worker's 32 slots all go to the backlog and the fast IPN waits a whole timeout
        // per round of it. Causal, not a wall-clock bound: the fast IPN must arrive while
        // no slow attempt has ended (20 s, as above: with 8 s, the whole suite on
        // PostgreSQL on two cores once took longer to write the backlog).
        let slow = try await IPNReceiver.start(script: [], delay: .seconds(21))
        let fast = try await IPNReceiver.start()
        let harness = try await Harness.start(backend: backend) { $0.ipnTimeout = .seconds(20) }
        try await withCleanup({ await harness.stop(); await slow.stop(); await fast.stop() }) {
            let server = try await harness.token("server")
            // The charges first (an IPN goes out only on a status change), then their
            // cancels back to back, then the fast one's: the backlog forms at once.
            var stuck: [String] = []
            for index in 0..<40 {
                stuck.append(try await harness.createCharge(server, reference: "backlog-\(index)-\(UUID().uuidString)",
                                                          ipn: "\(slow.url)/p\(index)?n=\(index)").id)
            }
            let (id, _) = try await harness.createCharge(server, ipn: fast.url)
            for charge in stuck {
                _ = try await harness.http.call("POST", "/v1/cancels", token: server, body: #"{"transaction_id":"\#(charge)","reference":"s-\#(charge)"}"#)
            }
            _ = try await harness.http.call("POST", "/v1/cancels", token: server, body: #"{"transaction_id":"\#(id)","reference":"f-\#(id)"}"#)
            #expect(await fast.wait(timeout: .seconds(20)) { $0.count == 1 })
            var attempted = 0
            for charge in stuck {
                attempted += try await harness.sandbox.server.store.notifications(transactionID: charge).first?.attempts ?? 0
            }
            #expect(attempted == 0, "delivered while every slow attempt was still open")
        }
    }

    @Test("IPN to a non-loopback host is refused unless allowed", arguments: CrashBackend.available)
    func loopbackOnly(backend: CrashBackend) async throws {
        let harness = try await Harness.start(backend: backend)
        try await withCleanup({ await harness.stop() }) {
            let server = try await harness.token("server")
            let remote = try await harness.http.call("POST", "/v1/charges", token: server,
                                                     body: Harness.chargeBody(reference: "r1", ipn: "http://203.0.113.9/ipn"))
            #expect(remote.status == 400 && remote.message.hasPrefix("urls.ipn:"))
            let open = try await Harness.start(backend: backend) { $0.allowNonLoopbackIPN = true }
            try await withCleanup({ await open.stop() }) {
                let openServer = try await open.token("server")
                let allowed = try await open.http.call("POST", "/v1/charges", token: openServer,
                                                       body: Harness.chargeBody(reference: "r1", ipn: "http://203.0.113.9/ipn"))
                #expect(allowed.status == 200)
            }
        }
    }

    @Test("pending deliveries resume after a restart", arguments: CrashBackend.available)
    func resumeAfterRestart(backend: CrashBackend) async throws {
        let receiver = try await IPNReceiver.start(script: [503])
        let first = try await Harness.start(backend: backend) { $0.ipnRetrySchedule = [.seconds(1)] }
        let server = try await first.token("server")
        let (id, _) = try await first.createCharge(server, ipn: receiver.url)
        _ = try await first.http.call("POST", "/v1/cancels", token: server, body: #"{"transaction_id":"\#(id)","reference":"x-\#(id)"}"#)
        #expect(await receiver.wait { $0.count == 1 })
        await first.stop(removing: false)
        let second = try await Harness.start(directory: first.directory, database: first.database) { $0.ipnRetrySchedule = [.seconds(1)] }
        try await withCleanup({ await second.stop(); await receiver.stop() }) { () async throws in
            #expect(await receiver.wait { $0.count == 2 })
            #expect(receiver.deliveries.last?.answered == 200)
            #expect(try await eventually { try await second.sandbox.server.store.notifications(transactionID: id).first?.state == .delivered })
        }
    }
}

/// The status an IPN reports, as the outbox stores it: every value read back as written,
/// one this version does not know kept as read.
@Suite("IPN statuses")
struct NotificationStatusTests {
    @Test func storedValuesReadBackAndUnknownOnesAreKept() {
        for status in NotificationStatus.documented {
            #expect(NotificationStatus(rawValue: status.rawValue) == status)
        }
        #expect(NotificationStatus(rawValue: "refunded") == .refunded && NotificationStatus.refunded.event == "refund.succeeded")
        #expect(NotificationStatus(rawValue: "canceled").event == "charge.canceled")
        let future = NotificationStatus(rawValue: "disputed")
        #expect(future == .charge(.unknown("disputed")) && future.rawValue == "disputed" && !future.isDocumented)
    }
}
