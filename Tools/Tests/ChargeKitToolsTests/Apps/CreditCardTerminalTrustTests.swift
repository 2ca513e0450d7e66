@_spi(Tools) @testable import ChargeKit
import ChargeKitCommands
import ChargeKitSimulators
import Foundation
import Testing

/// CreditCardTerminal's answers against the ledger's trust rules (the rules every app shares: TrustTests).
@Suite struct CreditCardTerminalTrustTests {
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

    @Test func extrasAreBoundedAtRequestTime() throws {
        // Refused when the request is made: no request holds them.
        #expect(throws: ChargeKitError.fieldTooLong("extraParams", limit: 4096)) {
            try chargeRequest(extras: (0..<200).map { QueryItem("k\($0)", String(repeating: "v", count: 30)) })
        }
    }
}
