@testable import CitconSandbox
@_spi(Tools) import CitconUPI
import Foundation
import ProcessSupport
import Synchronization
import Testing

/// The sandbox's simulated time (`/sandbox/clock`, `chargekit upi clock`): a CI job
/// sees expiry and the IPN retry schedule without waiting.
@Suite("Sandbox clock")
struct SandboxClockTests {
    @Test("advancing 31 minutes expires an unpaid charge (with its IPN) and the clock reads ahead; the wrong key is refused")
    func advanceExpiresCharges() async throws {
        try await Harness.router { harness in
            let server = try await harness.token("server")
            let (id, _) = try await harness.createCharge(server)
            #expect(try await harness.inquire(server, id).data?["status"] as? String == "initiated")

            let refused = try await harness.http.call("POST", "/sandbox/clock", token: server, body: #"{"advance_seconds":1860}"#)
            #expect(refused.status == 401, "an access token is not the merchant key: \(refused.text)")
            let backwards = try await harness.http.call("POST", "/sandbox/clock", token: harness.merchantKey, body: #"{"advance_seconds":-5}"#)
            #expect(backwards.status == 400 && backwards.message.contains("advance_seconds"), "\(backwards.text)")

            let before = Int64(Date().timeIntervalSince1970)
            let moved = try await harness.http.call("POST", "/sandbox/clock", token: harness.merchantKey, body: #"{"advance_seconds":1860}"#)
            #expect(moved.status == 200, "\(moved.text)")
            let now = try #require((moved.data?["now"] as? NSNumber)?.int64Value)
            #expect(now >= before + 1860 && (moved.data?["offset_seconds"] as? NSNumber)?.int64Value == 1860)
            // A new token: the 24-hour one still holds after 31 minutes.
            #expect(try await harness.inquire(server, id).data?["status"] as? String == "expired")
            let ipns = try await harness.sandbox.server.store.notifications(transactionID: id)
            #expect(ipns.map(\.status) == [.charge(.expired)], "\(ipns)")
            // A day later the token itself has expired.
            _ = try await harness.http.call("POST", "/sandbox/clock", token: harness.merchantKey, body: #"{"advance_seconds":86400}"#)
            let stale = try await harness.inquire(server, id)
            #expect(stale.status == 401, "a token past its lifetime still works: \(stale.text)")
        }
    }

    @Test("the IPN retry schedule walks with the clock, not with the wall")
    func retriesComeDueWithTheClock() async throws {
        let harness = try await Harness.start { $0.ipnRetrySchedule = [.seconds(3600), .seconds(3600)]; $0.ipnTimeout = .milliseconds(500) }
        try await withCleanup({ await harness.stop() }) {
            let server = try await harness.token("server")
            let (id, _) = try await harness.createCharge(server, ipn: "http://127.0.0.1:9/ipn")   // the discard port: refused
            try await harness.sandbox.server.api.expireNow(id: id)
            let store = harness.sandbox.server.store
            #expect(try await eventually(.seconds(15)) { try await store.notifications(transactionID: id).first?.attempts == 1 })
            // The outbox holds the next try an hour away (by the sandbox's clock): no waiting to see it does not come.
            let entry = try #require(try await store.notifications(transactionID: id).first)
            #expect(entry.attempts == 1 && entry.state == .pending && entry.nextAttemptAt >= harness.sandbox.server.api.clock.now + 3_500_000,
                    "the next try is not an hour away: \(entry)")
            _ = try await harness.http.call("POST", "/sandbox/clock", token: harness.merchantKey, body: #"{"advance_seconds":3601}"#)
            #expect(try await eventually(.seconds(15)) { try await store.notifications(transactionID: id).first?.attempts == 2 })
        }
    }

    /// Two `chargekit sandbox serve` processes on one database (`backend`'s) advance the
    /// clock at once, `each` times each: every move counts, as the store adds them.
    static func advancesOnTwoProcesses(_ backend: CrashBackend, each: Int = 15) async throws {
        let directory = try Harness.temporaryDirectory()
        let key = "sk_clock_0123456789abcdef"
        let arguments = ["sandbox", "serve", "--port", "0", "--db", backend.database(in: directory), "--merchant-key", key]
        var servers: [ServerProcess] = []
        try await withCleanup({
            for server in servers { server.signal(SIGTERM) }
            for server in servers { _ = await server.waitForExit() }
            try? FileManager.default.removeItem(at: directory)
        }) {
            var bases: [String] = []
            for _ in 0..<2 {
                let server = try ServerProcess(arguments: arguments)
                servers.append(server)
                bases.append(try await server.started().base)
            }
            let http = bases.map { HTTP(base: $0) }
            let base = try #require((try await http[0].call("GET", "/sandbox/clock", token: key).data?["offset_seconds"] as? NSNumber)?.int64Value)
            try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<(2 * each) {
                    let client = http[index % 2]
                    group.addTask { try await client.call("POST", "/sandbox/clock", token: key, body: #"{"advance_seconds":60}"#).status }
                }
                for try await status in group { #expect(status == 200) }
            }
            for client in http {
                let offset = (try await client.call("GET", "/sandbox/clock", token: key).data?["offset_seconds"] as? NSNumber)?.int64Value
                #expect(offset == base + Int64(2 * each * 60), "an advance made at once in the other process was lost")
            }
        }
    }

    @Test("two sandbox processes on one SQLite file advance the clock at once: every move counts")
    func advancesAcrossProcesses() async throws {
        try await Self.advancesOnTwoProcesses(.sqlite)
    }

    @Test("two sandbox processes on one PostgreSQL database advance the clock at once: every move counts",
          .enabled(if: Harness.postgresURL != nil, Harness.postgresSkipped))
    func advancesAcrossProcessesOnPostgres() async throws {
        try await Self.advancesOnTwoProcesses(.postgres)
    }

    @Test("chargekit upi clock advance 31m, and upi clock")
    func command() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            let api = harness.sandbox.info.baseURL + "/v1"
            let advanced = try await chargekit(["upi", "clock", "advance", "31m", "--base-url", api, "--key", harness.merchantKey, "--json"])
            #expect(advanced.status == 0, "\(advanced.stderr)")
            let reading = try #require(try JSONSerialization.jsonObject(with: Data(advanced.stdout.utf8)) as? [String: Any])
            #expect((reading["offset_seconds"] as? NSNumber)?.int64Value == 1860)
            let shown = try await chargekit(["upi", "clock", "--base-url", api, "--key", harness.merchantKey])
            #expect(shown.status == 0 && shown.stdout.contains("(1860 s ahead of the real time)") && shown.stdout.contains("Z"), "\(shown.stdout)")
            for bad in ["-5m", "31x", "0", "11000d", ""] {
                let refused = try await chargekit(["upi", "clock", "advance", bad, "--base-url", api, "--key", harness.merchantKey])
                #expect(refused.status == 64 && refused.stderr.contains("<duration>"), "\(bad): \(refused.status) \(refused.stderr)")
            }
        }
    }
}

extension SandboxClockTests {
    /// The part of a store the clock reads, alone: settings kept in memory, whose writes
    /// fail while `full` is set (a disk out of space).
    final class Settings: CredentialStore {
        let values = Mutex<[String: String]>([:])
        let full = Mutex(false)

        struct DiskFull: Error {}

        func setting(_ key: String) async throws -> String? { values.withLock { $0[key] } }
        func setSetting(_ key: String, to value: String) async throws {
            await Task.yield()   // a write takes a while: another advance may run meanwhile
            guard !full.withLock({ $0 }) else { throw DiskFull() }
            values.withLock { $0[key] = value }
        }
        func add(_ delta: Int64, toSetting key: String) async throws -> Int64 {
            await Task.yield()   // likewise
            guard !full.withLock({ $0 }) else { throw DiskFull() }
            return try values.withLock { values in
                let sum = try SettingSum.adding(delta, to: values[key], key: key)
                values[key] = String(sum)
                return sum
            }
        }
        func rotateMerchantKey(to key: String) async throws -> Bool { false }
        func insertToken(_ token: AccessTokenRecord) async throws {}
        func token(_ value: String) async throws -> AccessTokenRecord? { nil }
        func recordAuthenticationFailure(at time: Int64, forgettingBefore cutoff: Int64) async throws {}
        func authenticationFailures(since: Int64) async throws -> (count: Int, oldest: Int64?) { (0, nil) }
    }

    @Test("a move the store could not keep leaves the clock where it was, as a restart (or another instance) finds it")
    func advanceNotKept() async throws {
        let settings = Settings()
        let clock = SandboxClock(real: { 1_000_000 })
        #expect(try await clock.advance(seconds: 60, in: settings) == 60_000)
        settings.full.withLock { $0 = true }
        await #expect(throws: Settings.DiskFull.self) { try await clock.advance(seconds: 3600, in: settings) }
        #expect(clock.now == 1_060_000, "the clock did not move past what the store keeps")
        let restarted = SandboxClock(real: { 1_000_000 })
        await restarted.refresh(from: settings)
        #expect(restarted.now == clock.now)
    }

    @Test("two advances at once on one instance both count")
    func concurrentAdvances() async throws {
        let settings = Settings()
        let clock = SandboxClock(real: { 1_000_000 })
        async let first = clock.advance(seconds: 60, in: settings)
        async let second = clock.advance(seconds: 60, in: settings)
        _ = try await (first, second)
        #expect(clock.now == 1_120_000)
    }
}
