@_spi(Tools) @testable import ChargeKit
import ChargeKitSimulators
import Foundation
import Testing

@Suite struct CoordinatorTests {

    @Test("An app that is not installed is reported by its scheme, for every app, and nothing waits",
          arguments: PaymentProvider.allCases)
    func appNotInstalledIsReported(provider: PaymentProvider) async throws {
        let played = try #require(everyApp.first { $0.provider == provider })
        let (coordinator, device, _) = await makeStack()
        await device.uninstall(scheme: provider.queriedScheme)
        await #expect(throws: ChargeKitError.appNotInstalled(scheme: provider.queriedScheme)) {
            try await coordinator.charge(played.order(description: "Tea", reference: "R1"), via: played.app)
        }
        #expect(await coordinator.waitingCount == 0)
    }



    @Test func cancellingTheWaitLeavesTheChargeInTheLedger() async throws {
        let ledger = ChargeLedger()
        let opened = OpenedURLs()
        let coordinator = PaymentCoordinator(ledger: ledger, opener: ClosureURLOpener { url in await opened.add(url) })
        let task = Task { try await coordinator.charge(example.order(), via: example.app) }
        let requestURL = try await opened.next()
        task.cancel()
        await #expect(throws: ChargeKitError.cancelled) { try await task.value }
        // The app restarts: a fresh coordinator on the same ledger still verifies the late callback.
        let restarted = PaymentCoordinator(ledger: ledger, opener: ClosureURLOpener { _ in })
        let late = try answer(requestURL)
        #expect(try await restarted.handle(url: late).outcome == .approved)
    }

    @Test func handleWorksAfterARestartWithAFileLedger() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("coord-\(UUID().uuidString)/ledger.json")
        defer { try? FileManager.default.removeItem(at: path.deletingLastPathComponent()) }
        let opened = OpenedURLs()
        let first = PaymentCoordinator(ledger: ChargeLedger(store: FileLedgerStore(fileURL: path)), opener: ClosureURLOpener { url in await opened.add(url) })
        let task = Task { try await first.charge(example.order(999, description: "Tea"), via: example.app) }
        let requestURL = try await opened.next()
        task.cancel()
        let callback = try answer(requestURL)
        let second = PaymentCoordinator(ledger: ChargeLedger(store: FileLedgerStore(fileURL: path)), opener: ClosureURLOpener { _ in })
        let result = try await second.handle(url: callback)
        #expect(result.provider == example.provider && result.outcome == .approved)
        #expect(result.charge.request.amount == Money(minorUnits: 999, currency: example.currency))
    }

    @Test func trickyExtrasSurviveTheRoundTripForEveryApp() async throws {
        let extras = [QueryItem("amp", "a&b"), QueryItem("eq", "x=y"), QueryItem("pct", "100%"), QueryItem("plus", "1+1"),
                      QueryItem("space", "two words"), QueryItem("utf8", "naïve 日本 €"), QueryItem("empty", "")]
        #expect(appsKeepingExtras.count >= 2, "the registry has apps that keep extras")
        for played in appsKeepingExtras {
            let (coordinator, _, _) = await makeStack()
            let result = try await coordinator.charge(played.order(1234, description: "Tricky", reference: "ref-1", extras: extras), via: played.app)
            #expect(result.outcome == .approved, "\(played)")
            #expect(result.callback.extraItems == extras, "\(played)")
        }
    }

    @Test func sameAppCodeSameOutcomesOnAllSimulators() async throws {
        // The app-level code: one function, whatever the payment app.
        func checkout(_ coordinator: PaymentCoordinator, via played: PlayedApp) async throws(ChargeKitError) -> (ChargeOutcome, String?) {
            let order = played.order(5000, description: "Test transaction", reference: "321", extras: [QueryItem("record_id", "123")])
            let result = try await coordinator.charge(order, via: played.app)
            return (result.outcome, result.callback.extraItems.first { $0.name == "record_id" }?.value)
        }
        // Declined and cancelled, where each app can say so, are the conformance suite's
        // (each app's scenarios, with the outcome the catalog states).
        for outcome in [ChargeOutcome.approved, .failed] {
            for played in appsKeepingExtras {
                let (coordinator, _, _) = await makeStack(outcome: outcome)
                let (got, record) = try await checkout(coordinator, via: played)
                #expect(got == outcome, "\(played)")
                #expect(record == "123")
            }
        }
    }

    @Test func forgedAndReplayedCallbacksPerProvider() async throws {
        var checked = 0
        for played in everyApp {
            let (coordinator, device, inbox) = await makeStack()
            let app = played.app
            _ = try await coordinator.charge(played.order(100, description: "X", reference: "R"), via: app)
            let genuine = try #require(await device.delivered.last)
            await #expect(throws: ChargeKitError.replayedNonce, "\(app)") { try await coordinator.handle(url: genuine) }
            let nonceField = app.provider.nonceField
            // The apps whose nonce is a field of its own on the callback URL (the others carry it
            // inside another value: the conformance suite forges theirs).
            guard let split = try? QueryURL(parsing: genuine), split.items.contains(where: { $0.name == nonceField }) else { continue }
            checked += 1
            var forged = split
            forged.items = split.items.map { $0.name == nonceField ? QueryItem(nonceField, Nonce.random().value) : $0 }
            await #expect(throws: ChargeKitError.unknownNonce, "\(app)") { try await coordinator.handle(url: forged.string) }
            var stripped = split
            stripped.items.removeAll { $0.name == nonceField }
            // Named by the app's field, or by ChargeKit's when nothing left on the URL says which app answers.
            await #expect("\(app)") { try await coordinator.handle(url: stripped.string) } throws: { error in
                [ChargeKitError.missingNonce(field: nonceField), .missingNonce(field: ChargeKitParameter.nonce)].contains(error as? ChargeKitError)
            }
            #expect(await inbox.refused.isEmpty)
        }
        #expect(checked >= 2, "apps whose nonce is a field of its own")
    }

    @Test func echoedReferenceMustMatch() async throws {
        var checked = 0
        for played in everyApp {
            let ledger = ChargeLedger()
            let opened = OpenedURLs()
            let coordinator = PaymentCoordinator(ledger: ledger, opener: ClosureURLOpener { url in await opened.add(url) })
            let task = Task { try await coordinator.charge(played.order(100, description: "X", reference: "R-1"), via: played.app) }
            let requestURL = try await opened.next()
            let callback = try answer(requestURL)
            // The apps that echo the reference in a field of its own (the others carry it with the nonce).
            let field = try PaymentCallback.parse(callback, provider: played.provider).referenceField
            guard callback.contains("\(field)=R-1") else { task.cancel(); continue }
            checked += 1
            let swapped = callback.replacingOccurrences(of: "\(field)=R-1", with: "\(field)=R-2")
            await #expect(throws: ChargeKitError.mismatch(field: field, rule: "must echo the reference sent")) { try await coordinator.handle(url: swapped) }
            try await coordinator.handle(url: callback)
            #expect(try await task.value.outcome == .approved)
        }
        #expect(checked >= 2, "apps that echo the reference in a field of its own")
    }

    @Test func callbackForOneProviderCannotAnswerAnother() async throws {
        let ledger = ChargeLedger()
        let opened = OpenedURLs()
        let coordinator = PaymentCoordinator(ledger: ledger, opener: ClosureURLOpener { url in await opened.add(url) })
        let task = Task { try await coordinator.charge(example.order(100), via: example.app) }
        let requestURL = try await opened.next()
        let genuine = try answer(requestURL)
        let other = anotherApp(than: example.provider).provider
        await #expect(throws: ChargeKitError.mismatch(field: "provider", rule: "the charge went to \(example.provider), not \(other)")) {
            try await coordinator.handle(url: genuine, provider: other)
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
        let app = example.app
        let first = Task { try await coordinator.charge(example.order(500, reference: "A-1"), via: app) }
        let answeredURL = try await opened.next()
        let second = Task { try await coordinator.charge(example.order(725, reference: "B-2"), via: app) }
        _ = try await opened.next()
        #expect(try await coordinator.pending().map(\.request.amount?.minorUnits) == [500, 725])
        try await coordinator.handle(url: try answer(answeredURL))
        _ = try await first.value
        // The app was killed with the second hand-off open: a new coordinator on the same ledger still sees it.
        let afterRestart = PaymentCoordinator(ledger: ChargeLedger(store: store), opener: ClosureURLOpener { _ in })
        let left = try await afterRestart.pending()
        #expect(left.count == 1 && left.first?.request.amount == Money(minorUnits: 725, currency: example.currency))
        #expect(left.first?.provider == example.provider)
        second.cancel()
    }

    @Test func aHandOffSettledByHandEndsTheWaitAndRefusesItsLateCallback() async throws {
        let store = InMemoryLedgerStore()
        let opened = OpenedURLs()
        let coordinator = PaymentCoordinator(ledger: ChargeLedger(store: store), opener: ClosureURLOpener { url in await opened.add(url) })
        let waiting = Task { try await coordinator.charge(example.order(500, reference: "C-3"), via: example.app) }
        let request = try await opened.next()
        let nonce = try #require(try await coordinator.pending().first?.nonce)
        // The merchant found the payment in the app's history, from another coordinator (after a restart, say).
        let other = PaymentCoordinator(ledger: ChargeLedger(store: store), opener: ClosureURLOpener { _ in })
        let settled = try await other.resolve(nonce, as: .approved, note: "the app's history: TX 4711")
        #expect(settled.resolution?.outcome == .approved && settled.resolution?.note == "the app's history: TX 4711")
        #expect(try await coordinator.pending().isEmpty)
        await #expect(throws: ChargeKitError.settledByHand(outcome: .approved, note: "the app's history: TX 4711")) { try await waiting.value }
        let late = try answer(request)
        await #expect(throws: ChargeKitError.settledByHand(outcome: .approved, note: "the app's history: TX 4711")) {
            try await coordinator.handle(url: late)
        }
        #expect(ChargeKitError.settledByHand(outcome: .approved, note: "x").description.contains("settled by hand as approved (x)"))
    }

    @Test func aHandOffPastItsTimeToLiveIsStillListedAndCanBeSettled() async throws {
        let clock = TestClock()
        let store = InMemoryLedgerStore()
        let coordinator = PaymentCoordinator(ledger: ChargeLedger(store: store, timeToLive: 60, now: { clock.now }),
                                             opener: ClosureURLOpener { _ in })
        let waiting = Task { try await coordinator.charge(example.order(300, reference: "D-4"), via: example.app) }
        let open = try await waitForPending(coordinator, count: 1)
        waiting.cancel()
        // The app comes back an hour later: the hand-off expired unanswered, and is still listed.
        clock.advance(3600)
        let later = PaymentCoordinator(ledger: ChargeLedger(store: store, timeToLive: 60, now: { clock.now }), opener: ClosureURLOpener { _ in })
        let listed = try await later.pending()
        #expect(listed.map(\.nonce) == open.map(\.nonce) && listed.first.map { clock.now >= $0.expiresAt } == true)
        #expect(try await later.ledger.outstanding().isEmpty, "no longer waiting for its callback")
        try await later.resolve(try #require(listed.first).nonce, as: .approved, note: "found in the app's history")
        #expect(try await later.pending().isEmpty)
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
            try example.app.handoff(for: example.order(100), nonce: nonce)
        }
        await #expect(throws: error) { try await ledger.resolve(charge.nonce, as: outcome, note: note) }
        #expect(try await ledger.outstanding().count == 1, "nothing settled")
    }
}
