@_spi(Tools) import ChargeKit
import CitconSandbox
import CitconSandboxTesting
@_spi(Tools) import CitconUPI
import Foundation
import Testing

/// Notifications and callbacks in the order they arrived.
final class Events: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    private var checks: [CPayCheck] = []
    func add(_ event: String, _ check: CPayCheck? = nil) {
        lock.withLock {
            list.append(event)
            if let check { checks.append(check) }
        }
    }
    var all: [String] { lock.withLock { list } }
    var asyncChecks: [CPayCheck] { lock.withLock { checks } }
}

/// The sandbox, a merchant server and an app with the SDK.
struct SDKSetup: Sendable {
    let harness: Harness
    let receiver: IPNReceiver
    let merchant: UPIClient
    let serverToken: String
    let clientToken: String

    static func start(_ tweak: (inout SandboxConfiguration) -> Void = { _ in }) async throws -> SDKSetup {
        let harness = try await Harness.start(tweak)
        let receiver = try await IPNReceiver.start()
        let merchant = UPIClient(baseURL: harness.sandbox.baseURL)
        let server = try await merchant.accessToken(merchantKey: harness.merchantKey, type: "server")
        let client = try await merchant.accessToken(merchantKey: harness.merchantKey, type: "client")
        return SDKSetup(harness: harness, receiver: receiver, merchant: merchant, serverToken: server.accessToken,
                        clientToken: client.accessToken)
    }

    func stop() async {
        await receiver.stop()
        await harness.stop()
    }

    /// The merchant server creates the charge; the app gets an order with its charge token.
    func order(method: String = "alipay", amount: Int = 100) async throws -> CPayRequest {
        var order = CPayRequest()
        order.transaction.reference = "sdk_\(method)_\(UUID().uuidString.prefix(8))"
        order.transaction.amount = amount
        order.transaction.currency = "USD"
        order.transaction.country = "US"
        order.payment = CPayPayment()
        order.payment.method = method
        order.urls.ipn = receiver.url
        order.urls.success = "https://success.merchants.com/"
        order.urls.cancel = "https://cancel.merchants.com/"
        order.urls.fail = "https://fail.merchants.com/"
        order.scheme = "com.citcon.citconpay"
        order.universalLink = "https://universallink.example/apps"
        let created = try await merchant.createCharge(UPIWire.ChargeRequest(order: order), token: serverToken)
        order.chargeToken = created.chargeToken
        return order
    }

    /// An app's manager with its own notification center, a callback queue, and a
    /// headless wallet that makes `choice`.
    func manager(store: any CPayPendingOrderStore = CPayMemoryPendingOrderStore(), events: Events,
                 choice: @escaping @Sendable (String) async -> SandboxAPI.WalletAction?) -> CPayManager {
        let center = NotificationCenter()
        let manager = CPayManager(store: store, notificationCenter: center)
        manager.callbackQueue = SDKSetup.queue
        manager.setBaseURL(harness.sandbox.baseURL)
        manager.setAccessToken(clientToken)
        manager.opener = HeadlessWallet(choose: choice) { url in manager.handle(url: url) }
        for name in [CPayManager.NTFY_ASYNC(), CPayManager.ORDER_CONFIRMED()] {
            _ = center.addObserver(forName: Notification.Name(name), object: nil, queue: nil) { note in
                guard let check = note.object as? CPayCheck else { return }
                let onQueue = DispatchQueue.getSpecific(key: SDKSetup.key) == true
                let kind = name == CPayManager.NTFY_ASYNC() ? "async" : "confirmed"
                events.add("\(kind):\(check.data?.status?.rawValue ?? "?")\(onQueue ? "" : "(wrong queue)")",
                           kind == "async" ? check : nil)
            }
        }
        return manager
    }

    /// Returns once every notification the managers queued so far has been posted: the
    /// callback queue is serial, so a block queued now runs after them (a barrier, not a wait).
    static func drainCallbacks() async {
        await withCheckedContinuation { continuation in queue.async { continuation.resume() } }
    }

    static let key = DispatchSpecificKey<Bool>()
    static let queue: DispatchQueue = {
        let queue = DispatchQueue(label: "app.callbacks")
        queue.setSpecific(key: key, value: true)
        return queue
    }()
}

@Suite("Citcon SDK end to end against the running sandbox")
struct SDKEndToEndTests {
    @Test("approved: CPayResult success, ORDER_CONFIRMED then NTFY_ASYNC on the app's queue, IPN to the merchant")
    func approved() async throws {
        let setup = try await SDKSetup.start()
        try await withCleanup({ await setup.stop() }) {
            let events = Events()
            let manager = setup.manager(events: events) { _ in .pay }
            let order = try await setup.order()
            let result = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<CPayResult?, any Error>) in
                let accepted = manager.requestOrder(order) { result in
                    events.add("callback\(DispatchQueue.getSpecific(key: SDKSetup.key) == true ? "" : "(wrong queue)")")
                    continuation.resume(returning: result)
                }
                #expect(accepted)
            }
            let paid = try #require(result)
            #expect(paid.isPaid)
            #expect(paid.status == "success" && paid.data?.status == .succeeded)
            #expect(paid.data?.reference == order.transaction.reference && paid.data?.amount == 100)
            #expect(paid.data?.payment?.method == "alipay" && paid.data?.code == nil)
            #expect(await eventually { events.all.count >= 3 })
            #expect(events.all == ["confirmed:pending", "callback", "async:succeeded"])
            #expect(events.asyncChecks.first?.data?.id == paid.data?.id)
            #expect(await setup.receiver.wait { $0.contains { $0.fields?["status"] == "success" } })
            #expect(manager.pendingOrders().isEmpty)
        }
    }

    @Test("declined: a fail result with data.status failed and code -1")
    func declined() async throws {
        let setup = try await SDKSetup.start()
        try await withCleanup({ await setup.stop() }) {
            let events = Events()
            let manager = setup.manager(events: events) { _ in .decline }
            let result = try await manager.requestOrder(try await setup.order(method: "wechatpay"))
            #expect(result.status == "fail" && result.data?.status == .failed)
            #expect(result.data?.clientCode == .commonError)
            #expect(!result.isPaid)
            #expect(await eventually { events.all.contains("async:failed") })
        }
    }

    @Test("cancelled by the user: the documented cancellation code -2")
    func cancelled() async throws {
        let setup = try await SDKSetup.start()
        try await withCleanup({ await setup.stop() }) {
            let manager = setup.manager(events: Events()) { _ in .cancel }
            let result = try await manager.requestOrder(try await setup.order())
            #expect(result.data?.status == .canceled)
            #expect(result.data?.code == "-2" && result.data?.clientCode?.isCancellation == true)
            #expect(result.status == "fail")
        }
    }

    @Test("expired: the consumer pays too late; the result says expired")
    func expired() async throws {
        // The charge's time runs out while the wallet is open: the sandbox expires it (as
        // its expiry worker does when the lifetime passes) before the consumer pays. A
        // short lifetime and a sleep raced a loaded machine, which could take longer than
        // the lifetime to confirm; expiry by time is tested in SandboxAPITests.
        let setup = try await SDKSetup.start()
        try await withCleanup({ await setup.stop() }) {
            let manager = setup.manager(events: Events()) { walletURL in
                let id = URL(string: walletURL)?.lastPathComponent ?? ""
                do { _ = try await setup.harness.sandbox.server.api.expireNow(id: id) } catch { Issue.record(error) }
                return .pay
            }
            let result = try await manager.requestOrder(try await setup.order())
            #expect(result.data?.status == .expired)
            #expect(result.data?.clientCode == .commonError && result.status == "fail")
            #expect(result.data?.message?.contains("expired") == true)
        }
    }

    @Test("a card with 3-D Secure and auto capture settles; without auto capture it is authorized")
    func cards() async throws {
        let setup = try await SDKSetup.start()
        try await withCleanup({ await setup.stop() }) {
            let manager = setup.manager(events: Events()) { _ in .pay }
            var order = try await setup.order(method: "card")
            order.request3DSecureVerification = true
            var consumer = CPayConsumer()
            consumer.firstName = "John"; consumer.lastName = "Doe"; consumer.phone = "5551234567"; consumer.email = "j@d.com"
            order.consumer = consumer
            var address = CPayBillingAddr()
            address.street = "555 Smith St"; address.city = "Chicago"; address.state = "IL"; address.zip = "12345"; address.country = "US"
            order.payment.billingAddress = address
            let result = try await manager.requestOrder(order)
            #expect(result.data?.status == .authorized && result.status == "success")
            let capture = try await setup.merchant.capture(
                UPIWire.OperationRequest(transactionID: try #require(result.data?.id), reference: "cap-\(order.transaction.reference)"),
                token: setup.serverToken)
            #expect(capture.status == .succeeded && capture.amountCaptured == 100)
            let refund = try await setup.merchant.refund(
                UPIWire.OperationRequest(transactionID: try #require(result.data?.id), reference: "ref-\(order.transaction.reference)",
                                         amount: 40, reason: "partial"), token: setup.serverToken)
            #expect(refund.object == "refund" && refund.amountRefunded == 40 && refund.status == .succeeded && refund.timeCompleted != nil)
            let after = try await setup.merchant.inquire(transactionID: try #require(result.data?.id), token: setup.serverToken)
            #expect(after.data?.refunds?.data.first?.amount == 40 && after.data?.amountRefunded == 40)
        }
    }

    @Test("inquireOrder: async and callback forms; unknown and invalid ids")
    func inquire() async throws {
        let setup = try await SDKSetup.start()
        try await withCleanup({ await setup.stop() }) {
            let manager = setup.manager(events: Events()) { _ in .pay }
            let result = try await manager.requestOrder(try await setup.order())
            let id = try #require(result.data?.id)
            let check = try await manager.inquireOrder(id)
            #expect(check.status == "success" && check.data?.status == .succeeded && check.data?.captures == CPayList())
            let viaCallback = await withCheckedContinuation { continuation in
                #expect(manager.inquireOrder(id) { continuation.resume(returning: $0) })
            }
            #expect(viaCallback == check)
            await #expect(throws: CPayError.server(code: "4004", message: "id: no transaction '0123456789abcdef0123456789abcdef'", httpStatus: 404)) {
                try await manager.inquireOrder("0123456789abcdef0123456789abcdef")
            }
            let invalid = await withCheckedContinuation { continuation in
                #expect(!manager.inquireOrder("../etc") { continuation.resume(returning: $0) })
            }
            #expect(invalid?.status == "fail" && invalid?.data?.message?.contains("transId") == true)
        }
    }

    @Test("4010 is surfaced so the app can refresh its token; a fresh token works again")
    func unauthorized() async throws {
        let setup = try await SDKSetup.start()
        try await withCleanup({ await setup.stop() }) {
            let manager = setup.manager(events: Events()) { _ in .pay }
            manager.setAccessToken("ct_revoked")
            let order = try await setup.order()
            await #expect(throws: CPayError.unauthorized(message: "Authorization: unknown access token")) {
                try await manager.requestOrder(order)
            }
            let viaCallback = await withCheckedContinuation { continuation in
                manager.requestOrder(order) { continuation.resume(returning: $0) }
            }
            #expect(viaCallback?.data?.code == "4010")
            let fresh = try await manager.getAccessToken(setup.harness.merchantKey)
            #expect(fresh.hasPrefix("ct_"))
            #expect(try await manager.requestOrder(order).isPaid)
        }
    }

    @Test("resumePendingOrders after a restart: the wallet was killed, the payment went through, nothing is lost")
    func resumeAfterRestart() async throws {
        let setup = try await SDKSetup.start()
        try await withCleanup({ await setup.stop() }) {
            let file = setup.harness.directory.appendingPathComponent("pending-orders.json")
            let opened = Events()
            let first = setup.manager(store: CPayFilePendingOrderStore(fileURL: file), events: Events()) { url in
                opened.add(url)
                return nil   // the consumer switches apps by hand: the app is never reopened
            }
            let paid = try await setup.order()
            let unpaid = try await setup.order()
            let waiting = Task { try await first.requestOrder(paid) }
            let waitingToo = Task { try await first.requestOrder(unpaid) }
            #expect(await eventually { opened.all.count == 2 && first.pendingOrders().count == 2 })
            // The consumer pays the first one in the wallet; the app is killed meanwhile.
            let paidID = try #require(first.pendingOrders().first { $0.reference == paid.transaction.reference }?.id)
            #expect(try await setup.harness.wallet(paidID, "pay").status == 303)

            // A new process: a new manager on the same file.
            let events = Events()
            let second = setup.manager(store: CPayFilePendingOrderStore(fileURL: file), events: events) { _ in nil }
            #expect(second.pendingOrders().map(\.reference).sorted() == [paid.transaction.reference, unpaid.transaction.reference].sorted())
            let checks = await second.resumePendingOrders()
            #expect(checks.count == 2)
            #expect(checks.first { $0.data?.id == paidID }?.data?.status == .succeeded)
            #expect(await eventually { events.all == ["async:succeeded"] })
            #expect(second.pendingOrders().map(\.reference) == [unpaid.transaction.reference], "still pending: kept")
            #expect(await second.resumePendingOrders().allSatisfy { $0.data?.status == .pending })
            #expect(events.all == ["async:succeeded"], "a second resume posts nothing new")
            let stored = try CPayFilePendingOrderStore(fileURL: file).load()
            #expect(stored.map(\.reference) == [unpaid.transaction.reference])
            let text = try String(contentsOf: file, encoding: .utf8)
            #expect(!text.contains(setup.clientToken) && !text.contains(paid.chargeToken), "no secrets on disk")
            waiting.cancel()
            waitingToo.cancel()
            await #expect(throws: CPayError.cancelled) { try await waiting.value }
            await #expect(throws: CPayError.cancelled) { try await waitingToo.value }
        }
    }

    @Test("cancelling the wait: requestOrder throws .cancelled, the order stays pending and resumes later")
    func cancelledWait() async throws {
        let setup = try await SDKSetup.start()
        try await withCleanup({ await setup.stop() }) {
            let opened = Events()
            let events = Events()
            let manager = setup.manager(events: events) { url in
                opened.add(url)
                return nil
            }
            let order = try await setup.order()
            let waiting = Task { try await manager.requestOrder(order) }
            #expect(await eventually { opened.all.count == 1 })
            waiting.cancel()
            await #expect(throws: CPayError.cancelled) { try await waiting.value }
            let pending = try #require(manager.pendingOrders().first)
            #expect(pending.reference == order.transaction.reference)
            #expect(try await setup.harness.wallet(pending.id, "pay").status == 303)
            let checks = await manager.resumePendingOrders()
            #expect(checks.first?.data?.status == .succeeded)
            #expect(await eventually { events.all.contains("async:succeeded") })
            #expect(manager.pendingOrders().isEmpty)
        }
    }

    @Test("a second return for the same order, or one for an order never started, changes nothing")
    func duplicateAndForeignReturns() async throws {
        let setup = try await SDKSetup.start()
        try await withCleanup({ await setup.stop() }) {
            let returns = Events()
            let events = Events()
            let center = NotificationCenter()
            let manager = CPayManager(notificationCenter: center)
            manager.callbackQueue = SDKSetup.queue
            manager.setBaseURL(setup.harness.sandbox.baseURL)
            manager.setAccessToken(setup.clientToken)
            manager.opener = HeadlessWallet(always: .pay) { url in
                returns.add(url.absoluteString)
                manager.handle(url: url)
            }
            _ = center.addObserver(forName: Notification.Name(CPayManager.NTFY_ASYNC()), object: nil, queue: nil) { _ in
                events.add("async")
            }
            let result = try await manager.requestOrder(try await setup.order())
            #expect(result.isPaid)
            let back = try #require(returns.all.first.flatMap(URL.init(string:)))
            #expect(await eventually { events.all.count == 1 })
            #expect(!manager.handle(url: back), "second return for the same order")
            #expect(await manager.handleAndWait(url: back) == nil)
            let id = try #require(result.data?.id)
            #expect(!manager.handle(url: try #require(URL(string: "com.citcon.citconpay://cpay/return?charge_id=ffffffffffffffffffffffffffffffff&status=succeeded"))))
            #expect(!manager.handle(url: try #require(URL(string: "evil://cpay/return?charge_id=\(id)&status=succeeded"))))
            #expect(!manager.handle(url: try #require(URL(string: "com.citcon.citconpay://cpay/return"))))
            // handle(url:) queues any notification before it returns: drained, none more came.
            await SDKSetup.drainCallbacks()
            #expect(events.all.count == 1, "no second notification")
        }
    }

    @Test("wechatpay returns through the universal link; no token or charge token ever reaches the log")
    func universalLinkAndLogs() async throws {
        let setup = try await SDKSetup.start()
        try await withCleanup({ await setup.stop() }) {
            let returns = Events()
            let lines = Events()
            let manager = setup.manager(events: Events()) { _ in .pay }
            manager.log = { lines.add($0) }
            manager.opener = HeadlessWallet(always: .pay) { url in
                returns.add(url.absoluteString)
                manager.handle(url: url)
            }
            let order = try await setup.order(method: "wechatpay")
            let result = try await manager.requestOrder(order)
            #expect(result.isPaid)
            #expect(returns.all.count == 1)
            #expect(returns.all.first?.hasPrefix("https://universallink.example/apps?charge_id=") == true)
            #expect(lines.all.count >= 2)
            for line in lines.all {
                #expect(!line.contains(setup.clientToken) && !line.contains(order.chargeToken), "secret in log: \(line)")
            }
            #expect(lines.all.contains { $0.contains("/v1/charges/<charge-token>") })
        }
    }

    @Test("generateOrder creates the charge with a server token (the published SDK's helper)")
    func generateOrder() async throws {
        let setup = try await SDKSetup.start()
        try await withCleanup({ await setup.stop() }) {
            let manager = setup.manager(events: Events()) { _ in .pay }
            var order = try await setup.order()
            order.transaction.reference = "generated-\(UUID().uuidString.prefix(8))"
            manager.setAccessToken(setup.serverToken)
            let generated = await withCheckedContinuation { continuation in
                manager.generateOrder(order) { continuation.resume(returning: $0) }
            }
            let token = try #require(generated?.data?.chargeToken)
            #expect(generated?.data?.status == .initiated)
            let again = try? await manager.generateOrder(order)
            #expect(again == nil, "the same reference twice is 4100")
            manager.setAccessToken(setup.clientToken)
            order.chargeToken = token
            #expect(try await manager.requestOrder(order).isPaid)
        }
    }
}
