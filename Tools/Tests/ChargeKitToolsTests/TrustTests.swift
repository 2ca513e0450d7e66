@_spi(Tools) @testable import ChargeKit
import ChargeKitCommands
import ChargeKitSimulators
import Foundation
import Testing

/// Each test here failed before the ledger looked the nonce up first, recorded the
/// operation, matched callback URLs exactly and shared its store safely.
@Suite struct TrustTests {
    let simulator = CreditCardTerminalSimulator()

    func temporaryFile() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("trust-\(UUID().uuidString)/ledger.json")
    }

    @Test(arguments: ["errorCode", "reference", "smp-status", "errorMessage", "referenceNumber", "chargekit-callback-x"])
    func creditCardTerminalExtraNamedLikeAnotherProvidersField(name: String) async throws {
        let ledger = ChargeLedger()
        let request = try chargeRequest(extras: [QueryItem(name, "mine")])
        let (_, handoff) = try await ledger.issue { nonce throws(ChargeKitError) in try request.handoff(nonce: nonce) }
        let callback = try simulator.respond(to: handoff.url, outcome: .approved)
        let result = try await ledger.verify(url: callback)
        #expect(result.provider == .creditCardTerminal)
        #expect(result.outcome == .approved)
        #expect(result.callback.extraItems.contains(QueryItem(name, "mine")))
        // Without a ledger the guess still says Credit Card Terminal: ifcc_ fields win.
        #expect(try PaymentCallback.parse(callback).provider == .creditCardTerminal)
    }

    @Test func zettleApprovalOnTheFailureURLIsRefused() async throws {
        let ledger = ChargeLedger()
        let request = try Zettle.PaymentRequest(
            source: "Shop", successURL: "shop://paid", failureURL: "shop://failed", apiKey: "K",
            price: Money(minorUnits: 500, currency: try Currency(code: "SEK")), title: "T"
        )
        let (charge, _) = try await ledger.issue { nonce throws(ChargeKitError) in try request.handoff(nonce: nonce) }
        let nonce = charge.nonce.value
        // A "success" arriving on the failure URL, with either marker or none.
        for marker in ["success", "failure"] {
            let forged = "shop://failed?chargekit-nonce=\(nonce)&chargekit-callback=\(marker)"
            await #expect(throws: ChargeKitError.self) { try await ledger.verify(url: forged) }
        }
        await #expect(throws: ChargeKitError.self) { try await ledger.verify(url: "shop://failed?chargekit-nonce=\(nonce)") }
        #expect(try await ledger.outstanding().count == 1)
        let cancel = "shop://failed?chargekit-nonce=\(nonce)&chargekit-callback=failure&errorCode=CancelledByUser"
        #expect(try await ledger.verify(url: cancel).outcome == .cancelled)
    }

    @Test func zettleCancelOnASharedBaseIsAcceptedAndApprovalNeedsTheSuccessMarker() async throws {
        let ledger = ChargeLedger()
        let request = try Zettle.APIRequest(
            operation: .charge(amount: Money(minorUnits: 500, currency: try Currency(code: "SEK")), reference: "R-1"),
            successURL: "shop://zettle", failureURL: "shop://zettle"
        )
        let (charge, _) = try await ledger.issue { nonce throws(ChargeKitError) in try request.handoff(nonce: nonce) }
        let nonce = charge.nonce.value
        // No marker: which URL was opened cannot be told, so it is not approved.
        await #expect(throws: ChargeKitError.self) { try await ledger.verify(url: "shop://zettle?chargekit-nonce=\(nonce)&reference=R-1") }
        let cancel = "shop://zettle?chargekit-nonce=\(nonce)&chargekit-callback=failure&errorMessage=Cancelled&reference=R-1"
        let result = try await ledger.verify(url: cancel)
        #expect(result.outcome == .failed)
        #expect(!result.isApprovedSale)
    }

    @Test func sumUpSuccessOnTheFailureCallbackIsRefused() async throws {
        let ledger = ChargeLedger()
        let frozen = try SumUp.PaymentRequest(
            amount: Money(minorUnits: 1000, currency: .eur), affiliateKey: "K", callbackSuccess: "shop://ok", callbackFailure: "shop://ko"
        )
        let (charge, _) = try await ledger.issue { nonce throws(ChargeKitError) in try frozen.handoff(nonce: nonce) }
        let forged = "shop://ko?chargekit-nonce=\(charge.nonce.value)&smp-status=success&smp-tx-code=T1"
        await #expect(throws: ChargeKitError.mismatch(field: "url", rule: "an approval arrived on the failure callback URL")) {
            try await ledger.verify(url: forged)
        }
        let failed = "shop://ko?chargekit-nonce=\(charge.nonce.value)&smp-status=failed"
        #expect(try await ledger.verify(url: failed).outcome == .declined)
    }

    @Test func fixedAmountApprovalForAnotherAmountIsRefused() async throws {
        let ledger = ChargeLedger()
        var fields = try chargeFields("10.00")
        fields.amountFixed = true
        fields.taxRate = .percent("8.5")
        let frozen = try CreditCardTerminal.ChargeRequest(fields)
        let (_, handoff) = try await ledger.issue { nonce throws(ChargeKitError) in try frozen.handoff(nonce: nonce) }
        let genuine = try simulator.respond(to: handoff.url, outcome: .approved, tip: "1.00")
        #expect(genuine.contains("ifcc_amount=11.85"))
        let lower = genuine.replacingOccurrences(of: "ifcc_amount=11.85", with: "ifcc_amount=1.85")
        await #expect(throws: ChargeKitError.mismatch(field: "ifcc_amount", rule: "the amount was fixed at 10.00 USD; the approval is for 0.00 USD before tax and tip")) {
            try await ledger.verify(url: lower)
        }
        // Subtotal kept, tax inflated: the tax does not follow from the rate sent.
        let taxed = genuine.replacingOccurrences(of: "ifcc_amount=11.85", with: "ifcc_amount=12.85")
            .replacingOccurrences(of: "ifcc_taxAmount=0.85", with: "ifcc_taxAmount=1.85")
        await #expect(throws: ChargeKitError.self) { try await ledger.verify(url: taxed) }
        let result = try await ledger.verify(url: genuine)
        #expect(result.flags.isEmpty)
    }

    @Test func unfixedAmountDifferencesAreFlaggedBothWays() async throws {
        let ledger = ChargeLedger()
        let request = try chargeRequest("10.00", extras: [])
        for (changed, flag) in [
            ("ifcc_amount=12.00", VerificationFlag.amountAboveRequested(requested: Money(minorUnits: 1000, currency: .usd), approved: Money(minorUnits: 1115, currency: .usd))),
            ("ifcc_amount=9.00", VerificationFlag.amountBelowRequested(requested: Money(minorUnits: 1000, currency: .usd), approved: Money(minorUnits: 815, currency: .usd))),
        ] {
            let (_, handoff) = try await ledger.issue { nonce throws(ChargeKitError) in try request.handoff(nonce: nonce) }
            let callback = try simulator.respond(to: handoff.url, outcome: .approved)
                .replacingOccurrences(of: "ifcc_amount=10.85", with: changed)
            #expect(try await ledger.verify(url: callback).flags == [flag])
        }
    }

    @Test func aRefundIsNotASale() async throws {
        let ledger = ChargeLedger()
        let opened = OpenedURLs()
        let coordinator = PaymentCoordinator(ledger: ledger, opener: ClosureURLOpener { url in await opened.add(url) })
        let refund = try Zettle.APIRequest(
            operation: .refund(originalReference: "R-1", reference: "R-2", amount: nil), successURL: "shop://z", failureURL: "shop://z"
        )
        var zettle = ZettleSimulator()
        let sale = try Zettle.APIRequest(
            operation: .charge(amount: Money(minorUnits: 500, currency: try Currency(code: "SEK")), reference: "R-1"),
            successURL: "shop://z", failureURL: "shop://z"
        )
        _ = try zettle.respond(to: try sale.requestURL(), outcome: .approved)
        let task = Task { try await coordinator.submit(refund) }
        let callback = try zettle.respond(to: try await opened.next(), outcome: .approved)
        try await coordinator.handle(url: callback)
        let result = try await task.value
        #expect(result.operation == .refund)
        #expect(result.outcome == .approved)
        #expect(!result.isApprovedSale)
        #expect(CallbackReport(result.callback, result: result).operation == "refund")
    }

    @Test func aWaitingChargeEndsWithATypedExpiry() async throws {
        let ledger = ChargeLedger(timeToLive: 0.3, pollInterval: 0.05)
        let coordinator = PaymentCoordinator(ledger: ledger, opener: ClosureURLOpener { _ in })
        await #expect(throws: ChargeKitError.expiredNonce) {
            try await coordinator.charge(ChargeOrder(amount: Money(minorUnits: 100, currency: .usd)), via: .creditCardTerminal(returnURL: "shop://cct"))
        }
    }

    @Test func aCallbackHandledByAnotherCoordinatorCompletesTheWaitingCharge() async throws {
        let ledger = ChargeLedger()
        let opened = OpenedURLs()
        let app = PaymentCoordinator(ledger: ledger, opener: ClosureURLOpener { url in await opened.add(url) })
        let sceneDelegate = PaymentCoordinator(ledger: ledger, opener: ClosureURLOpener { _ in })
        let task = Task { try await app.charge(ChargeOrder(amount: Money(minorUnits: 100, currency: .usd)), via: .creditCardTerminal(returnURL: "shop://cct")) }
        let callback = try simulator.respond(to: try await opened.next(), outcome: .approved)
        try await sceneDelegate.handle(url: callback)
        #expect(try await task.value.outcome == .approved)
    }

    @Test func aCallbackVerifiedByAnotherLedgerOnTheSameFileCompletesTheWait() async throws {
        let file = temporaryFile()
        let first = ChargeLedger(store: FileLedgerStore(fileURL: file), pollInterval: 0.05)
        let second = ChargeLedger(store: FileLedgerStore(fileURL: file))
        let opened = OpenedURLs()
        let app = PaymentCoordinator(ledger: first, opener: ClosureURLOpener { url in await opened.add(url) })
        let task = Task { try await app.charge(ChargeOrder(amount: Money(minorUnits: 100, currency: .usd)), via: .creditCardTerminal(returnURL: "shop://cct")) }
        let callback = try simulator.respond(to: try await opened.next(), outcome: .declined)
        _ = try await second.verify(url: callback)
        #expect(try await task.value.outcome == .declined)
        await #expect(throws: ChargeKitError.replayedNonce) { try await first.verify(url: callback) }
    }

    @Test func aFullLedgerRefusesNewChargesWhileOutstandingOnesKeepVerifying() async throws {
        let file = temporaryFile()
        let store = FileLedgerStore(fileURL: file, maximumFileSize: 16 * 1024)
        let ledger = ChargeLedger(store: store)
        let request = try chargeRequest(extras: [QueryItem("note", String(repeating: "x", count: 900))])
        var urls: [String] = []
        var refusal: ChargeKitError?
        for _ in 0..<100 {
            do throws(ChargeKitError) {
                urls.append(try await ledger.issue { nonce throws(ChargeKitError) in try request.handoff(nonce: nonce) }.request.url)
            } catch {
                refusal = error
                break
            }
        }
        guard case .storageFull = try #require(refusal) else { Issue.record("expected storageFull, got \(String(describing: refusal))"); return }
        #expect(urls.count > 3)
        let before = try Data(contentsOf: file)
        await #expect(throws: ChargeKitError.self) { _ = try await ledger.issue { nonce throws(ChargeKitError) in try request.handoff(nonce: nonce) } }
        #expect(try Data(contentsOf: file) == before, "a refused charge changed the file")
        // Every outstanding charge still verifies, and answered ones make room again.
        for url in urls { _ = try await ledger.verify(url: try simulator.respond(to: url, outcome: .approved)) }
        _ = try await ledger.issue { nonce throws(ChargeKitError) in try request.handoff(nonce: nonce) }
        #expect(try Data(contentsOf: file).count <= 16 * 1024)
    }

    @Test func extrasAreBoundedAtRequestTime() throws {
        // Refused when the request is made: no request holds them.
        #expect(throws: ChargeKitError.fieldTooLong("extraParams", limit: 4096)) {
            try chargeRequest(extras: (0..<200).map { QueryItem("k\($0)", String(repeating: "v", count: 30)) })
        }
    }

    @Test func aReturnURLOverTheAppsLimitOnceTheNonceIsOnIsRefused() throws {
        var fields = try chargeFields(extras: [])
        fields.returnURL = "shop://" + String(repeating: "a", count: 2048 - 7 - 10)
        let request = try CreditCardTerminal.ChargeRequest(fields)
        #expect(throws: Never.self) { try request.requestURL() }
        #expect(throws: ChargeKitError.fieldTooLong("returnURL", limit: 2048)) { try request.handoff(nonce: Nonce.random()) }
    }

    @Test func aLedgerFileOfTheEarlierFormatStillLoads() async throws {
        let file = temporaryFile()
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        let nonce = Nonce.random().value
        let old = """
        {"contents":[{"amount":{"amount":"50.00","currency":"USD"},"callbackURLs":["shop://cct"],"createdAt":"2030-01-01T00:00:00Z",\
        "currency":"USD","expiresAt":"2030-01-01T00:30:00Z","extras":[],"fileMakerFormat":false,"nonce":"\(nonce)","provider":"ccterminal"}],"version":1}
        """
        try Data(old.utf8).write(to: file)
        let charges = try await FileLedgerStore(fileURL: file).charges()
        #expect(charges.count == 1)
        #expect(charges.first?.operation == .charge)
    }

    @Test func aLedgerFileOfTheLastDocumentFormatMigratesToTheJournalOnFirstUse() async throws {
        let file = temporaryFile()
        // Written as the version before the journal wrote it: one JSON document.
        let document = AtomicJSONFile<[PendingCharge]>(fileURL: file, kind: "ledger")
        let old = ChargeLedger(store: InMemoryLedgerStore())
        let request = try chargeRequest(extras: [])
        var urls: [String] = []
        for _ in 0..<3 { urls.append(try await old.issue { nonce throws(ChargeKitError) in try request.handoff(nonce: nonce) }.request.url) }
        try document.save(try await old.unanswered())
        #expect(try Data(contentsOf: file).starts(with: Data(#"{"contents":["#.utf8)))

        let ledger = ChargeLedger(store: FileLedgerStore(fileURL: file))
        #expect(try await ledger.unanswered().count == 3, "the earlier file's entries are not read")
        _ = try await ledger.verify(url: try simulator.respond(to: urls[0], outcome: .approved))
        let migrated = try Data(contentsOf: file)
        #expect(migrated.starts(with: Data(#"{"chargekit":"ledger-journal","generation":""#.utf8))
                && String(decoding: migrated.prefix(80), as: UTF8.self).contains(#""version":3}"#), "not rewritten as a journal")
        // Another instance, as another process would, reads the journal: one consumed, two still to answer.
        let reopened = FileLedgerStore(fileURL: file)
        #expect(try await reopened.charges().count == 3)
        for url in urls.dropFirst() { _ = try await ChargeLedger(store: reopened).verify(url: try simulator.respond(to: url, outcome: .declined)) }
        await #expect(throws: ChargeKitError.replayedNonce) { try await ledger.verify(url: try simulator.respond(to: urls[0], outcome: .approved)) }
    }

    @Test func aJournalCutMidRecordLoadsWithoutItAndTheNextStepCutsItOff() async throws {
        let file = temporaryFile()
        let ledger = ChargeLedger(store: FileLedgerStore(fileURL: file))
        let request = try chargeRequest(extras: [])
        let first = try await ledger.issue { nonce throws(ChargeKitError) in try request.handoff(nonce: nonce) }.request.url
        let whole = try Data(contentsOf: file)
        // A writer killed half-way through its record (never acknowledged): the first half
        // of a record as this version frames it.
        let lastRecord = try #require(whole.dropLast().split(separator: 0x0A).last)
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(lastRecord.prefix(lastRecord.count / 2)))
        try handle.close()
        let other = FileLedgerStore(fileURL: file)
        #expect(try await other.charges().count == 1)
        #expect(try await other.damage().isEmpty, "a torn append is not damage")
        _ = try await ChargeLedger(store: other).verify(url: try simulator.respond(to: first, outcome: .approved))
        let after = try Data(contentsOf: file)
        #expect(after.starts(with: whole) && after.count > whole.count && after.last == 0x0A
                && after.split(separator: 0x0A).count == 3, "the half record was not cut off")
        #expect(try await FileLedgerStore(fileURL: file).charges().first?.consumedAt != nil)
    }
}
