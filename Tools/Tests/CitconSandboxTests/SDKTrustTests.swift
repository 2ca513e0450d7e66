@_spi(Tools) import ChargeKit
import CitconSandbox
import CitconSandboxTesting
@_spi(Tools) import CitconUPI
import Foundation
import Testing

/// A pending-order store that fails or blocks on demand.
final class FaultyStore: CPayPendingOrderStore, @unchecked Sendable {
    private let lock = NSLock()
    private let inner = CPayMemoryPendingOrderStore()
    var failRemove = false
    let insertEntered = DispatchSemaphore(value: 0)
    let releaseInsert = DispatchSemaphore(value: 0)
    var blockInsert = false

    func load() throws(ChargeKitError) -> [CPayPendingOrder] { inner.load() }
    func insert(_ order: CPayPendingOrder) throws(ChargeKitError) {
        if lock.withLock({ blockInsert }) {
            insertEntered.signal()
            releaseInsert.wait()
        }
        inner.insert(order)
    }
    func remove(id: String) throws(ChargeKitError) -> Bool {
        if lock.withLock({ failRemove }) { throw .storage("disk full (test)") }
        return inner.remove(id: id)
    }
}

@Suite("Citcon SDK: what a result can be trusted for")
struct SDKTrustTests {
    @Test("No wallet opener: the charge is not confirmed, so a retry with an opener still pays")
    func missingOpenerDoesNotUseTheCharge() async throws {
        let setup = try await SDKSetup.start()
        try await withCleanup({ await setup.stop() }) {
            let manager = CPayManager(notificationCenter: NotificationCenter())
            manager.callbackQueue = SDKSetup.queue
            manager.setBaseURL(setup.harness.sandbox.baseURL)
            manager.setAccessToken(setup.clientToken)
            let order = try await setup.order()
            await #expect(throws: CPayError.walletUnavailable(.openFailed("no URLOpener set on CPayManager"))) {
                try await manager.requestOrder(order)
            }
            manager.opener = HeadlessWallet(always: .pay) { url in manager.handle(url: url) }
            let result = try await manager.requestOrder(order)
            #expect(result.isPaid, "the retry was refused: \(String(describing: result.data?.message))")
        }
    }

    @Test("NTFY_ASYNC is posted once per order, however many managers resume it at once")
    func notifiedOnceAcrossManagers() async throws {
        let setup = try await SDKSetup.start()
        try await withCleanup({ await setup.stop() }) {
            let file = setup.harness.directory.appendingPathComponent("orders/pending.json")
            let opened = Events()
            let first = setup.manager(store: CPayFilePendingOrderStore(fileURL: file), events: Events()) { url in
                opened.add(url)
                return nil
            }
            let waiting = Task { try await first.requestOrder(try await setup.order()) }
            #expect(await eventually { first.pendingOrders().count == 1 })
            let id = try #require(first.pendingOrders().first?.id)
            #expect(try await setup.harness.wallet(id, "pay").status == 303)
            // Three "processes" resume at the same moment.
            let events = Events()
            let managers = (0..<3).map { _ in setup.manager(store: CPayFilePendingOrderStore(fileURL: file), events: events) { _ in nil } }
            await withTaskGroup(of: Void.self) { group in
                for manager in managers { group.addTask { _ = await manager.resumePendingOrders() } }
            }
            // Every resume has returned, so whatever each posts is queued: drained, exactly one came.
            await SDKSetup.drainCallbacks()
            #expect(events.all == ["async:succeeded"])
            // After a "restart", nothing is posted again.
            let later = Events()
            let restarted = setup.manager(store: CPayFilePendingOrderStore(fileURL: file), events: later) { _ in nil }
            #expect(await restarted.resumePendingOrders().isEmpty)
            let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
            #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
            waiting.cancel()
        }
    }

    @Test("A store that fails is reported (NTFY_STORAGE_ERROR), and the order is kept for a later resume")
    func storeErrorsAreReported() async throws {
        let setup = try await SDKSetup.start()
        try await withCleanup({ await setup.stop() }) {
            let store = FaultyStore()
            let events = Events()
            let errors = Events()
            let manager = setup.manager(store: store, events: events) { _ in .pay }
            _ = manager.notificationCenter.addObserver(forName: Notification.Name(CPayManager.NTFY_STORAGE_ERROR()), object: nil, queue: nil) { note in
                errors.add((note.object as? CPayError)?.description ?? "?")
            }
            store.failRemove = true
            let result = try await manager.requestOrder(try await setup.order())
            #expect(result.isPaid)
            #expect(await eventually { !errors.all.isEmpty })
            #expect(errors.all.first?.contains("disk full (test)") == true)
            #expect(!events.all.contains("async:succeeded"), "not removed, so not notified yet")
            store.failRemove = false
            #expect(await manager.resumePendingOrders().first?.data?.status == .succeeded)
            #expect(await eventually { events.all.filter { $0 == "async:succeeded" }.count == 1 })
        }
    }

    @Test("The manager holds no lock while its store does I/O")
    func noStoreIOUnderTheLock() async throws {
        let setup = try await SDKSetup.start()
        try await withCleanup({ await setup.stop() }) {
            let store = FaultyStore()
            store.blockInsert = true
            let manager = setup.manager(store: store, events: Events()) { _ in .pay }
            let order = try await setup.order()
            let waiting = Task { try await manager.requestOrder(order) }
            let entered = await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: store.insertEntered.wait(timeout: .now() + 20) == .success) }
            }
            #expect(entered)
            // While the store is stuck in insert, the manager still answers.
            let answered = await withCheckedContinuation { continuation in
                DispatchQueue.global().async {
                    let done = DispatchSemaphore(value: 0)
                    DispatchQueue.global().async {
                        _ = manager.baseURL
                        _ = manager.pendingOrders()
                        done.signal()
                    }
                    continuation.resume(returning: done.wait(timeout: .now() + 10) == .success)
                }
            }
            #expect(answered, "a manager call waited for the store's I/O")
            store.releaseInsert.signal()
            #expect(try await waiting.value.isPaid)
        }
    }
}

@Suite("Sandbox wallet page: cross-site posts, framing and unsafe redirects")
struct WalletSafetyTests {
    @Test func crossSitePostsAndUnsafeRedirectsAreRefused() async throws {
        let harness = try await Harness.start()
        let server = try await harness.token("server")
        let client = try await harness.token("client")
        let (id, chargeToken) = try await harness.createCharge(server)
        #expect(try await harness.confirm(client, chargeToken: chargeToken, returnURL: "app://back").status == 200)
        let page = try await harness.http.call("GET", harness.walletPath(id))
        #expect(page.status == 200)
        let token = try #require(HeadlessWallet.formToken(in: page.text))
        // No token, a wrong token, another site's Origin: refused, and the charge is still pending.
        let form = "application/x-www-form-urlencoded"
        #expect(try await harness.http.call("POST", harness.walletPath(id), data: Data("action=pay".utf8), contentType: form).status == 403)
        #expect(try await harness.http.call("POST", harness.walletPath(id), data: Data("form_token=\(String(repeating: "0", count: token.count))&action=pay".utf8), contentType: form).status == 403)
        let crossSite = try await harness.http.call("POST", harness.walletPath(id), data: Data("form_token=\(token)&action=pay".utf8),
                                                    contentType: form, headers: ["Origin": "https://evil.example"])
        #expect(crossSite.status == 403)
        let fetchSite = try await harness.http.call("POST", harness.walletPath(id), data: Data("form_token=\(token)&action=pay".utf8),
                                                    contentType: form, headers: ["Sec-Fetch-Site": "cross-site"])
        #expect(fetchSite.status == 403)
        #expect(try await harness.inquire(server, id).data?["status"] as? String == "pending")
        // The page cannot be framed.
        #expect(page.headers["X-Frame-Options"] == "DENY")
        #expect(page.headers["Content-Security-Policy"]?.contains("frame-ancestors 'none'") == true)
        // The genuine post, from the page with its own Origin, pays and redirects to the app.
        let host = try #require(URL(string: harness.sandbox.info.baseURL)?.host).appending(":\(try #require(URL(string: harness.sandbox.info.baseURL)?.port))")
        let paid = try await harness.http.call("POST", harness.walletPath(id), data: Data("form_token=\(token)&action=pay".utf8),
                                               contentType: form, headers: ["Origin": "http://\(host)"])
        #expect(paid.status == 303)
        #expect(paid.location?.hasPrefix("app://back?") == true)
        // javascript: and data: never become a redirect.
        for url in ["javascript:alert(1)", "JavaScript://%0Aalert(1)", "data:text/html,<script>x</script>", "vbscript:x"] {
            let (_, other) = try await harness.createCharge(server)
            let answer = try await harness.confirm(client, chargeToken: other, returnURL: url)
            #expect(answer.status == 400, "\(url) accepted as return_url")
            let body = #"{"transaction":{"reference":"r-\#(UUID().uuidString)","amount":1,"currency":"USD","country":"US"},"urls":{"success":"\#(url)"}}"#
            #expect(try await harness.http.call("POST", "/v1/charges", token: server, body: body).status == 400, "\(url) accepted as urls.success")
        }
        await harness.stop()
    }
}

@Suite("Sandbox merchant key rotation")
struct KeyRotationTests {
    @Test func rotatingTheMerchantKeyRevokesTokensIssuedUnderTheOldOne() async throws {
        let first = try await Harness.start { $0.merchantKey = "sk_old_0123456789" }
        let old = try await first.token("server")
        #expect(try await first.http.call("GET", "/v1/transactions/0123456789abcdef", token: old).status == 404)
        await first.stop(removing: false)
        // Same key again: tokens survive a restart.
        let same = try await Harness.start(directory: first.directory) { $0.merchantKey = "sk_old_0123456789" }
        #expect(try await same.http.call("GET", "/v1/transactions/0123456789abcdef", token: old).status == 404)
        await same.stop(removing: false)
        let rotated = try await Harness.start(directory: first.directory) { $0.merchantKey = "sk_new_0123456789" }
        let refused = try await rotated.http.call("GET", "/v1/transactions/0123456789abcdef", token: old)
        #expect(refused.status == 401 && refused.code == "4010")
        let oldKey = try await rotated.http.call("POST", "/v1/access-tokens", token: "sk_old_0123456789", body: #"{"token_type":"server"}"#)
        #expect(oldKey.status == 401)
        #expect(try await rotated.token("server").isEmpty == false)
        await rotated.stop()
    }
}
