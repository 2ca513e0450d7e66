@_spi(Tools) @testable import ChargeKit
import ChargeKitCommands
import ChargeKitSimulators
import Foundation
import Testing

/// SumUp: what the real app sends beyond the seeds (protocol notes §5): a genuine input accepted with the right values, a tampered one refused where it should be.
@Suite struct SumUpRealSystemCallbackTests {
    @Test func sumUpReceiptSentAndTagsAreRead() throws {
        let url = "app://cb?smp-status=success&smp-tx-code=TEENSK4W2K&smp-receipt-sent=true&smpprtag-register=3"
        guard let callback = try PaymentCallback.parse(url).sumUp else { Issue.record("not SumUp"); return }
        #expect(callback.receiptSent == true)
        #expect(callback.tags == [QueryItem("smpprtag-register", "3")])
        #expect(callback.extraItems.isEmpty)
        let json = CallbackReport(PaymentCallback(callback)).json
        #expect(json.contains(#""receiptSent":true"#) && json.contains(#""smpprtag-register":"3""#))
        #expect(throws: ChargeKitError.self) { try PaymentCallback.parse(url.replacingOccurrences(of: "=true", with: "=yes")) }
    }

    @Test(arguments: ["transaction-failed", "geolocation-required", "invalid-param", "invalid-token"])
    func sumUpFailureWithTransactionCodeStaysAFailure(cause: String) throws {
        let url = "app://cb?smp-status=failed&smp-tx-code=TX99&smp-failure-cause=\(cause)&smp-message=Declined"
        guard let callback = try PaymentCallback.parse(url).sumUp else { Issue.record("not SumUp"); return }
        #expect(PaymentCallback(callback).outcome == .declined)
        #expect(callback.failureCause?.rawValue == cause)
        #expect(callback.transactionCode == "TX99")
        #expect(CallbackReport(PaymentCallback(callback)).fields["failureCause"] == cause)
    }

    @Test func sumUpUnknownSmpFieldIsKept() throws {
        let callback = try PaymentCallback.parse("app://cb?smp-status=success&smp-tx-code=T1&smp-card-type=VISA")
        #expect(callback.unknownFields == [QueryItem("smp-card-type", "VISA")])
    }

    @Test func sumUpParametersBeforeAFragmentOnAnHTTPSPage() throws {
        let url = "https://shop.example/done?order=5&smp-status=success&smp-tx-code=TX1#receipt"
        guard let callback = try PaymentCallback.parse(url).sumUp else { Issue.record("not SumUp"); return }
        #expect(callback.callbackURL == "https://shop.example/done")
        #expect(callback.fragment == "receipt")
        #expect(callback.extraItems == [QueryItem("order", "5")])
    }

    @Test func sumUpThroughTheLedgerWithAnHTTPSCallbackAndAFragment() async throws {
        let ledger = ChargeLedger()
        let request = try SumUp.PaymentRequest(
            amount: Money(minorUnits: 1250, currency: try Currency(code: "EUR")), affiliateKey: "AK",
            callbackSuccess: "https://shop.example/paid#thanks", callbackFailure: "https://shop.example/failed#sorry"
        )
        let sent = request
        let (_, handoff) = try await ledger.issue { nonce throws(ChargeKitError) in try sent.handoff(nonce: nonce) }
        let callback = try SumUpSimulator(sendsReceipt: true).respond(to: handoff.url, outcome: .approved)
        #expect(callback.hasSuffix("#thanks"), "the fragment stays the merchant's: \(callback)")
        #expect(callback.contains("smp-receipt-sent=true"))
        let result = try await ledger.verify(url: callback)
        #expect(result.isApprovedSale)
        guard let parsed = result.callback.sumUp else { Issue.record("not SumUp"); return }
        #expect(parsed.receiptSent == true)
    }

    @Test func sumUpDeclineThroughTheLedgerCarriesACodeAndIsNoSale() async throws {
        let ledger = ChargeLedger()
        let request = try SumUp.PaymentRequest(
            amount: Money(minorUnits: 1250, currency: try Currency(code: "EUR")), affiliateKey: "AK", callbackSuccess: "shop://paid",
            callbackFailure: "shop://failed"
        )
        let sent = request
        let (_, handoff) = try await ledger.issue { nonce throws(ChargeKitError) in try sent.handoff(nonce: nonce) }
        let callback = try SumUpSimulator().respond(to: handoff.url, outcome: .declined)
        #expect(callback.contains("smp-tx-code=") && callback.contains("smp-failure-cause=transaction-failed"))
        let result = try await ledger.verify(url: callback)
        #expect(result.outcome == .declined && !result.isApprovedSale)
    }
}

/// SumUp: its simulator accepts what the vendor's own samples send (§5), judged by its own reading of the rules.
@Suite struct SumUpRealSystemSimulatorTests {
    @Test func sumUpAndroidDialect() throws {
        let url = "sumupmerchant://pay/1.0?app-id=com.shop.pos&total=12.50&currency=EUR&title=Tea&callback=https%3A%2F%2Fshop.example%2Fr"
        let answer = try SumUpSimulator().respond(to: url, outcome: .approved)
        #expect(answer.hasPrefix("https://shop.example/r?smp-status=success&smp-tx-code="))
        #expect(answer.contains("smp-receipt-sent=false"))
        let failed = try SumUpSimulator().respond(to: url, outcome: .cancelled)
        #expect(failed.hasPrefix("https://shop.example/r?smp-status=failed"), "one callback serves both outcomes")
    }

    @Test func sumUpBothDialectsInOneURL() throws {
        let url = "sumupmerchant://pay/1.0?affiliate-key=AK&app-id=com.shop&amount=3.00&total=3.00&currency=EUR"
            + "&callbacksuccess=shop%3A%2F%2Fok&callbackfail=shop%3A%2F%2Ffail&callback=shop%3A%2F%2Fany"
        #expect(try SumUpSimulator().respond(to: url, outcome: .approved).hasPrefix("shop://ok?smp-status=success"))
        #expect(try SumUpSimulator().respond(to: url, outcome: .declined).hasPrefix("shop://fail?smp-status=failed"))
    }

    @Test func sumUpMissingKeyIsAnInvalidParam() throws {
        let url = "sumupmerchant://pay/1.0?total=3.00&currency=EUR&callback=shop%3A%2F%2Fr"
        let answer = try SumUpSimulator().respond(to: url, outcome: .approved)
        #expect(answer.contains("smp-status=failed") && answer.contains("smp-failure-cause=invalid-param"))
    }
}
