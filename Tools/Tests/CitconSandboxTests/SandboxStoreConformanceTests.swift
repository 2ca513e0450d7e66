import CitconSandbox
#if PostgreSQL
@testable import CitconSandboxPostgres
#endif
import CitconSandboxTesting
@_spi(Tools) import CitconUPI
import Foundation
import Synchronization
import Testing

/// Every sandbox store this repository ships. A new store joins by adding one case.
enum SandboxBackend: String, CaseIterable, CustomStringConvertible, Sendable {
    case inMemory, sqlite, sqliteWithoutGroupCommit

    var description: String { rawValue }

    func makeStore() async throws -> any SandboxStore {
        switch self {
        case .inMemory: return InMemorySandboxStore()
        case .sqlite, .sqliteWithoutGroupCommit:
            let directory = try Harness.temporaryDirectory()
            return try await SQLiteSandboxStore(path: directory.appendingPathComponent("s.sqlite").path, groupCommit: self == .sqlite)
        }
    }
}

@Suite("SandboxStore conformance")
struct SandboxStoreConformanceTests {
    @Test(arguments: SandboxStoreConformance.checks, SandboxBackend.allCases)
    func conforms(check: SandboxStoreConformance.Check, backend: SandboxBackend) async throws {
        let store = try await backend.makeStore()
        defer { store.close() }
        try await check.run(store)
    }
}

@Suite("Sandbox rules without HTTP, on the in-memory store")
struct SandboxRulesInMemoryTests {
    @Test func aChargeIsPaidAndRefundedWithoutHTTP() async throws {
        var configuration = SandboxConfiguration()
        configuration.merchantKey = "sk_memory_0123456789"
        let server = try await SandboxServer(configuration: configuration, store: InMemorySandboxStore())
        let api = server.api
        // The API without HTTP takes typed requests, as the routes hand them over.
        func body<T: Decodable>(_ type: T.Type, _ json: String) throws -> T { try JSONDecoder().decode(type, from: Data(json.utf8)) }
        try await api.requireMerchantKey(authorization: "Bearer sk_memory_0123456789")
        await #expect(throws: APIError.self) { try await api.requireMerchantKey(authorization: "Bearer sk_wrong_0123456789") }
        let serverToken = try await api.issueToken(body(AccessTokenBody.self, #"{"token_type":"server"}"#))
        let clientToken = try await api.issueToken(body(AccessTokenBody.self, #"{"token_type":"client"}"#))
        #expect(try await api.authenticate("Bearer " + serverToken.accessToken).permissions.contains("charge"))
        let created = try await api.createCharge(NewCharge(body(ChargeBody.self, Harness.chargeBody(reference: "mem-1", amount: 500, method: "alipay")),
                                                           remoteIPN: false))
        #expect(created.autoCapture == false, "sent as false by the body")
        // Who may call what is the operations' table (OperationPermissions); the rules take checked values.
        #expect(try await api.authenticate("Bearer " + clientToken.accessToken).permissions.contains("confirm"))
        _ = try await api.confirm(ChargeConfirmation(body(ConfirmBody.self, #"{"payment":{"method":"alipay"},"return_url":"app://r"}"#),
                                                     chargeToken: created.chargeToken))
        let (paid, redirect) = try await api.walletAction(id: created.id, action: .pay)
        #expect(paid.status == .succeeded && redirect?.hasPrefix("app://r") == true)
        let refund = try await api.refund(ChargeOperation(body(OperationBody.self, #"{"id":"\#(created.id)","reference":"mem-rf","amount":200}"#)))
        #expect(refund.object == "refund" && refund.amountRefunded == 200)
        await #expect(throws: APIError.self) {
            _ = try await api.createCharge(NewCharge(body(ChargeBody.self, Harness.chargeBody(reference: "mem-1")), remoteIPN: false))
        }
    }
}

#if PostgreSQL
/// The same suite on PostgreSQL (`scripts/postgres.sh start`, then export
/// CHARGEKIT_POSTGRES_URL); skipped with that reason when it is not set. CI sets it.
@Suite("SandboxStore conformance on PostgreSQL",
       .enabled(if: Harness.postgresURL != nil,
                Harness.postgresSkipped))
struct PostgresSandboxStoreConformanceTests {
    static func freshStore() throws -> PostgresSandboxStore {
        let url = try #require(Harness.postgresURL)
        let prefix = "s" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12) + "_"
        return try PostgresSandboxStore(url: url, tablePrefix: prefix, connectTimeout: .seconds(60))
    }

    @Test(arguments: SandboxStoreConformance.checks)
    func conforms(check: SandboxStoreConformance.Check) async throws {
        let store = try Self.freshStore()
        defer { store.close() }
        try await check.run(store)
    }

    @Test("the sandbox runs on PostgreSQL: a charge paid through the wallet over HTTP, its IPN delivered")
    func sandboxOverHTTP() async throws {
        let receiver = try await IPNReceiver.start()
        let store = try Self.freshStore()
        var configuration = SandboxConfiguration()
        configuration.port = 0
        configuration.workerInterval = .milliseconds(20)
        let sandbox = try await RunningSandbox.start(configuration, store: store)
        try await withCleanup({ await sandbox.stop(); await receiver.stop(); store.close() }) {
            let http = HTTP(base: sandbox.info.baseURL)
            let key = sandbox.info.merchantKey
            let token = try await http.call("POST", "/v1/access-tokens", token: key, body: #"{"token_type":"server"}"#)
            let server = try #require(token.data?["access_token"] as? String)
            let created = try await http.call("POST", "/v1/charges", token: server,
                                              body: Harness.chargeBody(reference: "pg-1", ipn: receiver.url))
            #expect(created.status == 200, "\(created.text)")
            let id = try #require(created.data?["id"] as? String)
            let duplicate = try await http.call("POST", "/v1/charges", token: server, body: Harness.chargeBody(reference: "pg-1"))
            #expect(duplicate.status == 400 && duplicate.code == "4100")
            _ = try await http.call("POST", "/v1/cancels", token: server, body: #"{"id":"\#(id)","reference":"pg-c"}"#)
            #expect(await receiver.wait { $0.contains { $0.fields?["status"] == "cancelled" } })
        }
    }

    /// How many writers have started (read by the test that closes the store under them).
    final class QueuedCount: Sendable {
        let count = Mutex(0)
    }

    @Test("close() writes the charges queued before it, then refuses new ones; every charge acknowledged is stored")
    func closeFinishesQueuedCharges() async throws {
        let url = try #require(Harness.postgresURL)
        let prefix = "c" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(12) + "_"
        let store = try PostgresSandboxStore(url: url, tablePrefix: prefix, connectTimeout: .seconds(60))
        _ = try await store.migrate()
        func record(_ index: Int) -> ChargeRecord {
            ChargeRecord(id: "9\(index)", chargeToken: "ct-9\(index)", reference: "close-\(index)", amount: 100, currency: "USD",
                         country: "US", autoCapture: false, note: "", method: "alipay", status: .initiated, urls: CPayUrls(),
                         returnURL: nil, timeCreated: 1000, expiresAt: 10_000)
        }
        // 64 writers queue their charges; close() comes while half of them have started,
        // so that some charges are queued or being written and others come after it.
        let queued = QueuedCount()
        let outcomes = try await withThrowingTaskGroup(of: (Int, (any Error)?).self) { group in
            for index in 0..<64 {
                group.addTask {
                    queued.count.withLock { $0 += 1 }
                    do {
                        try await store.insertCharge(record(index))
                        return (index, nil)
                    } catch {
                        return (index, error)
                    }
                }
            }
            while queued.count.withLock({ $0 }) < 32 { try await Task.sleep(for: .milliseconds(1)) }
            store.close()
            return try await group.reduce(into: [Int: (any Error)?]()) { $0[$1.0] = $1.1 }
        }
        let stored = outcomes.filter { $0.value == nil }.map(\.key)
        #expect(!stored.isEmpty, "some charges were queued before close()")
        for (index, error) in outcomes {
            if let error { #expect(error is PostgresStoreClosed, "charge 9\(index) failed otherwise than as refused after close(): \(error)") }
        }
        await #expect(throws: (any Error).self) { try await store.insertCharge(record(64)) }
        let reopened = try PostgresSandboxStore(url: url, tablePrefix: prefix, connectTimeout: .seconds(60))
        defer { reopened.close() }
        _ = try await reopened.migrate()
        for index in stored {
            #expect(try await reopened.charge(id: "9\(index)") == record(index), "acknowledged charge 9\(index) is stored")
        }
        #expect(try await reopened.chargeCount() == stored.count)
    }

    @Test("two instances on one database: one merchant, unique references, a charge paid through the other's wallet, each IPN once; a dead claimer's IPN is taken over")
    func twoInstances() async throws {
        let url = try #require(Harness.postgresURL)
        let prefix = "two" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased().prefix(10) + "_"
        let receiver = try await IPNReceiver.start()
        var configuration = SandboxConfiguration()
        configuration.port = 0
        configuration.merchantKey = "sk_shared_0123456789"
        configuration.workerInterval = .milliseconds(20)
        // Long enough that a loaded machine's receiver answers in time: an attempt that
        // times out is retried (delivery is at least once), which is not what this checks.
        // (3 s was once too short on a machine loaded four times over.)
        configuration.ipnTimeout = .seconds(15)
        let storeA = try PostgresSandboxStore(url: url, tablePrefix: prefix, connectTimeout: .seconds(60))
        let storeB = try PostgresSandboxStore(url: url, tablePrefix: prefix, connectTimeout: .seconds(60))
        let a = try await RunningSandbox.start(configuration, store: storeA)
        let b = try await RunningSandbox.start(configuration, store: storeB)
        try await withCleanup({ await a.stop(); await b.stop(); await receiver.stop(); storeA.close(); storeB.close() }) {
            #expect(a.info.ipnSecret == b.info.ipnSecret, "one merchant: one IPN secret")
            let httpA = HTTP(base: a.info.baseURL), httpB = HTTP(base: b.info.baseURL)
            func token(_ http: HTTP, _ type: String) async throws -> String {
                let answer = try await http.call("POST", "/v1/access-tokens", token: "sk_shared_0123456789", body: #"{"token_type":"\#(type)"}"#)
                return try #require(answer.data?["access_token"] as? String)
            }
            let serverA = try await token(httpA, "server"), clientB = try await token(httpB, "client")
            let created = try await httpA.call("POST", "/v1/charges", token: serverA,
                                               body: Harness.chargeBody(reference: "two-1", ipn: receiver.url))
            let id = try #require(created.data?["id"] as? String)
            let chargeToken = try #require(created.data?["charge_token"] as? String)
            // A token issued by A works on B; a reference used on A is taken on B.
            let duplicate = try await httpB.call("POST", "/v1/charges", token: serverA, body: Harness.chargeBody(reference: "two-1"))
            #expect(duplicate.status == 400 && duplicate.code == "4100")
            let confirmed = try await httpB.call("POST", "/v1/charges/\(chargeToken)", token: clientB,
                                                 body: #"{"payment":{"method":"wechatpay"},"return_url":"app://r"}"#)
            #expect(confirmed.status == 200, "\(confirmed.text)")
            // Behind a load balancer: the page from one instance, the post to the other.
            let page = try await httpA.call("GET", a.server.api.walletPath(for: id))
            let form = HeadlessWallet.formToken(in: page.text) ?? ""
            let paid = try await httpB.call("POST", a.server.api.walletPath(for: id), data: Data("form_token=\(form)&action=pay".utf8),
                                            contentType: "application/x-www-form-urlencoded")
            #expect(paid.status == 303)
            #expect(await receiver.wait { $0.contains { $0.fields?["status"] == "success" } })
            // Every IPN of the charge delivered: neither instance sends anything more (not a wait).
            #expect(try await eventually { try await a.server.store.notifications(transactionID: id).allSatisfy { $0.state == .delivered } })
            // Each attempt is made by one instance: a claimed IPN is never sent twice as the
            // same attempt. (A retry after a failed attempt carries the next attempt number.)
            let attempts = receiver.deliveries.map { "\($0.fields?["status"] ?? "?")#\($0.attempt ?? 0)" }
            #expect(attempts.filter { $0.hasSuffix("#1") } == ["pending#1", "success#1"],
                    "each IPN's first attempt delivered once, in order, though two instances deliver")
            #expect(Set(attempts).count == attempts.count, "no attempt of an IPN sent twice: \(attempts)")

            _ = try await httpA.call("POST", "/v1/refunds", token: serverA, body: #"{"id":"\#(id)","reference":"two-rf","amount":50}"#)
            let created2 = try await httpA.call("POST", "/v1/charges", token: serverA,
                                                body: Harness.chargeBody(reference: "two-2", ipn: receiver.url))
            let id2 = try #require(created2.data?["id"] as? String)
            // A claimer that dies holding an IPN: no instance runs while it claims, then a
            // new instance starts and delivers the IPN once the lease has passed.
            await a.stop()
            await b.stop()
            _ = try await storeA.updateCharge(id: id2, reference: "two-c", now: Int64(Date().timeIntervalSince1970 * 1000)) {
                $0.status = .canceled
            }
            let dead = try PostgresSandboxStore(url: url, tablePrefix: prefix, connectTimeout: .seconds(60))
            defer { dead.close() }
            let claimedAt = Date()
            let claimed = try await dead.dueNotifications(now: Int64(claimedAt.timeIntervalSince1970 * 1000), limit: 10,
                                                          leaseUntil: Int64(claimedAt.timeIntervalSince1970 * 1000) + 1500)
            #expect(claimed.map(\.transactionID) == [id2], "the dead claimer holds the IPN")
            let storeC = try PostgresSandboxStore(url: url, tablePrefix: prefix, connectTimeout: .seconds(60))
            let c = try await RunningSandbox.start(configuration, store: storeC)
            let delivered = await receiver.wait(timeout: .seconds(20)) { $0.contains { $0.fields?["id"] == id2 } }
            let waited = Date().timeIntervalSince(claimedAt)
            await c.stop()
            storeC.close()
            #expect(delivered, "the IPN a dead instance held was delivered by another once its lease passed")
            #expect(waited >= 1.4, "not before the lease ended (\(waited) s)")
        }
    }
}
#endif
