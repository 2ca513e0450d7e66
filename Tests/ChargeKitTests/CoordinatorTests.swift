@_spi(Tools) @testable import ChargeKit
import ChargeKitSimulators
import Foundation
import Testing

@Suite struct CoordinatorTests {
    @Test func submitAwaitsTheVerifiedOutcome() async throws {
        let (coordinator, _, _) = await makeStack()
        let result = try await coordinator.submit(chargeRequest())
        #expect(result.outcome == .approved)
        guard let response = result.callback.creditCardTerminal else { Issue.record("wrong provider"); return }
        #expect(response.extraParams == ["record_id": "123"])
        #expect(response.amount?.formatted == "54.25")
        #expect(await coordinator.waitingCount == 0)
    }

    @Test func appNotInstalledIsReported() async throws {
        let (coordinator, device, _) = await makeStack()
        await device.uninstall(scheme: "com-innerfence-ccterminal")
        await #expect(throws: ChargeKitError.appNotInstalled(scheme: "com-innerfence-ccterminal")) { try await coordinator.submit(chargeRequest()) }
        #expect(await coordinator.waitingCount == 0)
    }

    @Test func invalidRequestOpensNothing() async throws {
        let (coordinator, device, _) = await makeStack()
        var fields = try chargeFields()
        fields.zip = String(repeating: "1", count: 21)
        let invalid = fields
        await #expect(throws: ChargeKitError.fieldTooLong("zip", limit: 20)) {
            try await coordinator.submit { nonce throws(ChargeKitError) in try CreditCardTerminal.ChargeRequest(invalid).handoff(nonce: nonce) }
        }
        #expect(await device.delivered.isEmpty)
        #expect(try await coordinator.ledger.outstanding().isEmpty)
    }

    @Test func aForgedCallbackDoesNotCompleteAWaitingCharge() async throws {
        let ledger = ChargeLedger()
        let opened = OpenedURLs()
        let coordinator = PaymentCoordinator(ledger: ledger, opener: ClosureURLOpener { url in await opened.add(url) })
        let task = Task { try await coordinator.submit(chargeRequest()) }
        let requestURL = try await opened.next()
        let nonce = try #require(try await ledger.outstanding().first?.nonce)
        let forged = "com-innerfence-ChargeDemo://chargeResponse?record_id=999&ifcc_request_nonce=\(nonce)&ifcc_responseType=approved&ifcc_amount=0.01&ifcc_redactedCardNumber=1111"
        await #expect(throws: ChargeKitError.mismatch(field: "record_id", rule: "extra parameters must come back exactly as sent")) { try await coordinator.handle(url: forged) }
        #expect(await coordinator.waitingCount == 1)
        let genuine = try CreditCardTerminalSimulator().respond(to: requestURL, outcome: .approved)
        try await coordinator.handle(url: genuine)
        #expect(try await task.value.outcome == .approved)
    }

    @Test func cancellingTheWaitLeavesTheChargeInTheLedger() async throws {
        let ledger = ChargeLedger()
        let opened = OpenedURLs()
        let coordinator = PaymentCoordinator(ledger: ledger, opener: ClosureURLOpener { url in await opened.add(url) })
        let task = Task { try await coordinator.submit(chargeRequest()) }
        let requestURL = try await opened.next()
        task.cancel()
        await #expect(throws: ChargeKitError.cancelled) { try await task.value }
        // The app restarts: a fresh coordinator on the same ledger still verifies the late callback.
        let restarted = PaymentCoordinator(ledger: ledger, opener: ClosureURLOpener { _ in })
        let late = try CreditCardTerminalSimulator().respond(to: requestURL, outcome: .approved)
        #expect(try await restarted.handle(url: late).outcome == .approved)
    }

    @Test func handleWorksAfterARestartWithAFileLedger() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("coord-\(UUID().uuidString)/ledger.json")
        defer { try? FileManager.default.removeItem(at: path.deletingLastPathComponent()) }
        let opened = OpenedURLs()
        let first = PaymentCoordinator(ledger: ChargeLedger(store: FileLedgerStore(fileURL: path)), opener: ClosureURLOpener { url in await opened.add(url) })
        let task = Task { try await first.charge(ChargeOrder(amount: Money(minorUnits: 999, currency: .usd), description: "Tea"), via: .sumUp(affiliateKey: "A", callbackURL: callbackURL)) }
        let requestURL = try await opened.next()
        task.cancel()
        let callback = try SumUpSimulator(merchantCurrency: "USD").respond(to: requestURL, outcome: .approved)
        let second = PaymentCoordinator(ledger: ChargeLedger(store: FileLedgerStore(fileURL: path)), opener: ClosureURLOpener { _ in })
        let result = try await second.handle(url: callback)
        #expect(result.provider == .sumUp && result.outcome == .approved)
        #expect(result.charge.request.amount == Money(minorUnits: 999, currency: .usd))
    }

    @Test func trickyExtrasSurviveTheRoundTripForEveryApp() async throws {
        let extras = [QueryItem("amp", "a&b"), QueryItem("eq", "x=y"), QueryItem("pct", "100%"), QueryItem("plus", "1+1"),
                      QueryItem("space", "two words"), QueryItem("utf8", "naïve 日本 €"), QueryItem("empty", "")]
        for app in allApps {
            let (coordinator, _, _) = await makeStack()
            let result = try await coordinator.charge(ChargeOrder(amount: Money(minorUnits: 1234, currency: .usd), description: "Tricky", reference: "ref-1", extras: extras), via: app)
            #expect(result.outcome == .approved, "\(app)")
            #expect(result.callback.extraItems == extras, "\(app)")
        }
    }

    @Test func sameAppCodeSameOutcomesOnAllSimulators() async throws {
        // The app-level code: one function, whatever the payment app.
        func checkout(_ coordinator: PaymentCoordinator, via app: PaymentApp) async throws(ChargeKitError) -> (ChargeOutcome, String?) {
            let order = ChargeOrder(amount: Money(minorUnits: 5000, currency: .usd), description: "Test transaction", reference: "321", extras: [QueryItem("record_id", "123")])
            let result = try await coordinator.charge(order, via: app)
            return (result.outcome, result.callback.extraItems.first { $0.name == "record_id" }?.value)
        }
        for outcome in [ChargeOutcome.approved, .failed] {
            for app in allApps {
                let (coordinator, _, _) = await makeStack(outcome: outcome)
                let (got, record) = try await checkout(coordinator, via: app)
                #expect(got == outcome, "\(app)")
                #expect(record == "123")
            }
        }
        // Declined and cancelled where the provider can say so (see PaymentCallback.outcome).
        for (app, outcome) in [(allApps[0], ChargeOutcome.declined), (allApps[1], .declined), (allApps[0], .cancelled), (allApps[2], .cancelled)] {
            let (coordinator, _, _) = await makeStack(outcome: outcome)
            #expect(try await checkout(coordinator, via: app).0 == outcome, "\(app) \(outcome)")
        }
    }

    @Test func forgedAndReplayedCallbacksPerProvider() async throws {
        for app in allApps {
            let (coordinator, device, inbox) = await makeStack()
            _ = try await coordinator.charge(ChargeOrder(amount: Money(minorUnits: 100, currency: .usd), description: "X", reference: "R"), via: app)
            let genuine = try #require(await device.delivered.last)
            await #expect(throws: ChargeKitError.replayedNonce, "\(app)") { try await coordinator.handle(url: genuine) }
            let nonceField = app.provider == .creditCardTerminal ? "ifcc_request_nonce" : "chargekit-nonce"
            let split = try QueryURL(parsing: genuine)
            var forged = split
            forged.items = split.items.map { $0.name == nonceField ? QueryItem(nonceField, Nonce.random().value) : $0 }
            await #expect(throws: ChargeKitError.unknownNonce, "\(app)") { try await coordinator.handle(url: forged.string) }
            var stripped = split
            stripped.items.removeAll { $0.name == nonceField }
            await #expect(throws: ChargeKitError.missingNonce(field: nonceField), "\(app)") { try await coordinator.handle(url: stripped.string) }
            #expect(await inbox.refused.isEmpty)
        }
    }

    @Test func echoedReferenceMustMatch() async throws {
        for app in allApps where app.provider != .creditCardTerminal {
            let ledger = ChargeLedger()
            let opened = OpenedURLs()
            let coordinator = PaymentCoordinator(ledger: ledger, opener: ClosureURLOpener { url in await opened.add(url) })
            let task = Task { try await coordinator.charge(ChargeOrder(amount: Money(minorUnits: 100, currency: .usd), description: "X", reference: "R-1"), via: app) }
            let requestURL = try await opened.next()
            let device = SimulatedDevice(apps: SimulatedApps(SumUpSimulator(merchantCurrency: "USD"), ZettleSimulator(accountCurrency: "USD"))) { _ in }
            let callback = try await device.callback(for: requestURL)
            let field = app.provider == .sumUp ? "foreign-tx-id" : "reference"
            let swapped = callback.replacingOccurrences(of: "\(field)=R-1", with: "\(field)=R-2")
            await #expect(throws: ChargeKitError.mismatch(field: field, rule: "must echo the reference sent")) { try await coordinator.handle(url: swapped) }
            try await coordinator.handle(url: callback)
            #expect(try await task.value.outcome == .approved)
        }
    }

    @Test func callbackForOneProviderCannotAnswerAnother() async throws {
        let ledger = ChargeLedger()
        let opened = OpenedURLs()
        let coordinator = PaymentCoordinator(ledger: ledger, opener: ClosureURLOpener { url in await opened.add(url) })
        let task = Task { try await coordinator.charge(ChargeOrder(amount: Money(minorUnits: 100, currency: .usd)), via: .sumUp(affiliateKey: "A", callbackURL: callbackURL)) }
        _ = try await opened.next()
        let nonce = try #require(try await ledger.outstanding().first?.nonce)
        let zettleStyle = "\(callbackURL)?chargekit-nonce=\(nonce)&chargekit-callback=success"
        // The nonce names a SumUp charge, so the URL is read by SumUp's rules, whatever its fields suggest.
        await #expect(throws: ChargeKitError.missingField("smp-status")) { try await coordinator.handle(url: zettleStyle) }
        await #expect(throws: ChargeKitError.mismatch(field: "provider", rule: "the charge went to sumup, not zettle")) {
            try await coordinator.handle(url: zettleStyle, provider: .zettle)
        }
        #expect(try await ledger.outstanding().count == 1)
        task.cancel()
    }
}

@Suite struct PendingHandOffTests {
    @Test func pendingListsTheHandOffsThatNeverCameBack() async throws {
        let store = InMemoryLedgerStore()
        let opened = OpenedURLs()
        let coordinator = PaymentCoordinator(ledger: ChargeLedger(store: store), opener: ClosureURLOpener { url in await opened.add(url) })
        #expect(try await coordinator.pending().isEmpty)
        let app = PaymentApp.sumUp(affiliateKey: "K", callbackURL: "my-shop://paid")
        let first = Task { try await coordinator.charge(ChargeOrder(amount: Money(minorUnits: 500, currency: .usd), reference: "A-1"), via: app) }
        let answeredURL = try await opened.next()
        let second = Task { try await coordinator.charge(ChargeOrder(amount: Money(minorUnits: 725, currency: .usd), reference: "B-2"), via: app) }
        _ = try await opened.next()
        #expect(try await coordinator.pending().map(\.request.reference) == ["A-1", "B-2"])
        try await coordinator.handle(url: try SumUpSimulator(merchantCurrency: "USD").respond(to: answeredURL, outcome: .approved))
        _ = try await first.value
        // The app was killed with the second hand-off open: a new coordinator on the same ledger still sees it.
        let afterRestart = PaymentCoordinator(ledger: ChargeLedger(store: store), opener: ClosureURLOpener { _ in })
        let left = try await afterRestart.pending()
        #expect(left.map(\.request.reference) == ["B-2"] && left.first?.request.amount == Money(minorUnits: 725, currency: .usd))
        #expect(left.first?.provider == .sumUp)
        second.cancel()
    }

    @Test func aHandOffSettledByHandEndsTheWaitAndRefusesItsLateCallback() async throws {
        let store = InMemoryLedgerStore()
        let opened = OpenedURLs()
        let coordinator = PaymentCoordinator(ledger: ChargeLedger(store: store), opener: ClosureURLOpener { url in await opened.add(url) })
        let app = PaymentApp.sumUp(affiliateKey: "K", callbackURL: "my-shop://paid")
        let waiting = Task { try await coordinator.charge(ChargeOrder(amount: Money(minorUnits: 500, currency: .usd), reference: "C-3"), via: app) }
        let request = try await opened.next()
        let nonce = try #require(try await coordinator.pending().first?.nonce)
        // The merchant found the payment in SumUp's history, from another coordinator (after a restart, say).
        let other = PaymentCoordinator(ledger: ChargeLedger(store: store), opener: ClosureURLOpener { _ in })
        let settled = try await other.resolve(nonce, as: .approved, note: "SumUp history: TX 4711")
        #expect(settled.resolution?.outcome == .approved && settled.resolution?.note == "SumUp history: TX 4711")
        #expect(try await coordinator.pending().isEmpty)
        await #expect(throws: ChargeKitError.settledByHand(outcome: .approved, note: "SumUp history: TX 4711")) { try await waiting.value }
        let late = try SumUpSimulator(merchantCurrency: "USD").respond(to: request, outcome: .approved)
        await #expect(throws: ChargeKitError.settledByHand(outcome: .approved, note: "SumUp history: TX 4711")) {
            try await coordinator.handle(url: late)
        }
        #expect(ChargeKitError.settledByHand(outcome: .approved, note: "x").description.contains("settled by hand as approved (x)"))
    }

    @Test func aHandOffPastItsTimeToLiveIsStillListedAndCanBeSettled() async throws {
        let clock = TestClock()
        let store = InMemoryLedgerStore()
        let coordinator = PaymentCoordinator(ledger: ChargeLedger(store: store, timeToLive: 60, now: { clock.now }),
                                             opener: ClosureURLOpener { _ in })
        let waiting = Task { try await coordinator.charge(ChargeOrder(amount: Money(minorUnits: 300, currency: .eur), reference: "D-4"),
                                                          via: .sumUp(affiliateKey: "K", callbackURL: "my-shop://paid")) }
        let open = try await waitForPending(coordinator, count: 1)
        waiting.cancel()
        // The app comes back an hour later: the hand-off expired unanswered, and is still listed.
        clock.advance(3600)
        let later = PaymentCoordinator(ledger: ChargeLedger(store: store, timeToLive: 60, now: { clock.now }), opener: ClosureURLOpener { _ in })
        let listed = try await later.pending()
        #expect(listed.map(\.nonce) == open.map(\.nonce) && listed.first.map { clock.now >= $0.expiresAt } == true)
        #expect(try await later.ledger.outstanding().isEmpty, "no longer waiting for its callback")
        try await later.resolve(try #require(listed.first).nonce, as: .approved, note: "found in SumUp's history")
        #expect(try await later.pending().isEmpty)
    }

    /// The hand-offs of `coordinator` still open, once there are `count`.
    func waitForPending(_ coordinator: PaymentCoordinator, count: Int) async throws -> [PendingCharge] {
        for _ in 0..<500 {
            let pending = try await coordinator.pending()
            if pending.count >= count { return pending }
            try await Task.sleep(nanoseconds: 2_000_000)
        }
        throw ChargeKitError.cancelled
    }

    @Test func aLostZettleChargeIsSettledByAskingZettle() async throws {
        let store = InMemoryLedgerStore()
        let inbox = Inbox()
        let device = SimulatedDevice(apps: SimulatedApps(ZettleSimulator(accountCurrency: "SEK"))) { url in await inbox.deliver(url) }
        let sek = try Currency(code: "SEK")
        let app = PaymentApp.zettleAPI(callbackURL: "my-app://zettle")
        // Zettle takes the first payment, but the app is killed before the callback; the second never reaches Zettle.
        let paidOpener = ClosureURLOpener { (url: String) async throws(ChargeKitError) in _ = try await device.callback(for: url) }
        let paid = PaymentCoordinator(ledger: ChargeLedger(store: store), opener: paidOpener)
        let first = Task { try await paid.charge(ChargeOrder(amount: Money(minorUnits: 1250, currency: sek), reference: "order-5"), via: app) }
        let lost = PaymentCoordinator(ledger: ChargeLedger(store: store), opener: ClosureURLOpener { _ in })
        let second = Task { try await lost.charge(ChargeOrder(amount: Money(minorUnits: 990, currency: sek), reference: "order-6"), via: app) }
        let open = try await waitForPending(paid, count: 2)

        let coordinator = PaymentCoordinator(ledger: ChargeLedger(store: store), opener: device)
        await inbox.set(coordinator)
        let paidCharge = try #require(open.first { $0.request.reference == "order-5" })
        let settled = try await coordinator.resolveByQuery(paidCharge, callbackURL: "my-app://zettle")
        #expect(settled.resolution?.outcome == .approved && settled.resolution?.note.hasPrefix("Zettle payment/query: paid, referenceNumber ") == true)
        let neverPaid = try #require(open.first { $0.request.reference == "order-6" })
        let cancelled = try await coordinator.resolveByQuery(neverPaid, callbackURL: "my-app://zettle")
        #expect(cancelled.resolution?.outcome == .cancelled && cancelled.resolution?.note.contains("No payment with that reference") == true)
        #expect(try await coordinator.pending().isEmpty)
        await #expect(throws: ChargeKitError.self) { try await first.value }
        await #expect(throws: ChargeKitError.self) { try await second.value }

        // A Zettle 1.0 payment cannot be asked about over the scheme.
        let old = PaymentCoordinator(ledger: ChargeLedger(store: store), opener: ClosureURLOpener { _ in })
        let third = Task { try await old.charge(ChargeOrder(amount: Money(minorUnits: 100, currency: sek), description: "Tea", reference: "R"),
                                                 via: .zettle(apiKey: "K", source: "Shop", callbackURL: "my-app://zettle")) }
        let legacy = try #require(try await waitForPending(old, count: 1).first)
        await #expect(throws: ChargeKitError.invalidField("charge", rule: "only a Zettle izettle://api/payment/charge hand-off can be asked about")) {
            try await coordinator.resolveByQuery(legacy, callbackURL: "my-app://zettle")
        }
        third.cancel()
    }

    @Test(arguments: [
        (ChargeOutcome.failed, "note", ChargeKitError.invalidField("outcome", rule: "must be approved, declined or cancelled: what the payment app's history shows")),
        (.approved, "  ", .invalidField("note", rule: "must say how the outcome was checked")),
        (.approved, "a\u{1B}[31m", .invalidField("note", rule: "must not contain control characters")),
        (.approved, String(repeating: "n", count: 1001), .fieldTooLong("note", limit: 1000)),
    ])
    func aSettlementIsCheckedBeforeItIsKept(outcome: ChargeOutcome, note: String, error: ChargeKitError) async throws {
        let ledger = ChargeLedger()
        let (charge, _) = try await ledger.issue { nonce throws(ChargeKitError) in
            try PaymentApp.sumUp(affiliateKey: "K", callbackURL: "my-shop://paid").handoff(for: ChargeOrder(amount: Money(minorUnits: 100, currency: .eur)), nonce: nonce)
        }
        await #expect(throws: error) { try await ledger.resolve(charge.nonce, as: outcome, note: note) }
        #expect(try await ledger.outstanding().count == 1, "nothing settled")
    }
}
