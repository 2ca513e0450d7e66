@_spi(Tools) @testable import ChargeKit
import ChargeKitCommands
import ChargeKitSimulators
import Foundation
import Testing

/// Zettle's answers against the ledger's trust rules (the rules every app shares: TrustTests).
@Suite struct ZettleTrustTests {
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
}
