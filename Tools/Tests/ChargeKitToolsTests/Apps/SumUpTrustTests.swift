@_spi(Tools) @testable import ChargeKit
import ChargeKitCommands
import ChargeKitSimulators
import Foundation
import Testing

/// SumUp's answers against the ledger's trust rules (the rules every app shares: TrustTests).
@Suite struct SumUpTrustTests {
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
}
