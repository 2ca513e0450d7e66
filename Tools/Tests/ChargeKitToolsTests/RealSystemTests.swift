@_spi(Tools) @testable import ChargeKit
import ChargeKitCommands
import ChargeKitSimulators
import Foundation
import Testing

/// Protocol notes §5: what the real apps send beyond the seeds. For each fact a
/// genuine input (written here from the fact) is accepted with the right values, and
/// a tampered one is refused where it should be.
@Suite struct RealSystemCallbackTests {
    // MARK: Credit Card Terminal

    @Test func creditCardTerminalErrorMessageIsRead() throws {
        let url = "app://x?ifcc_responseType=error&ifcc_errorMessage=Card%20reader%20not%20connected"
        let callback = try PaymentCallback.parse(url)
        #expect(callback.outcome == .failed)
        #expect(callback.message == "Card reader not connected")
        #expect(CallbackReport(callback).fields["message"] == "Card reader not connected")
        // Tampered: a control character in the message is still refused.
        #expect(throws: ChargeKitError.self) { try PaymentCallback.parse(url + "%0A") }
    }

    @Test func creditCardTerminalApprovalWithoutTransactionIdAndFreeTextCardType() throws {
        let url = "app://x?ifcc_responseType=approved&ifcc_amount=10.99&ifcc_currency=USD"
            + "&ifcc_redactedCardNumber=XXXXXXXXXXX0005&ifcc_cardType=American%20Express"
        let response = try CreditCardTerminal.ChargeResponse(url: url)
        #expect(response.transactionId == nil)
        #expect(response.cardType?.rawValue == "American Express")
        #expect(response.amount == Money(minorUnits: 1099, currency: .usd))
        // Tampered: a card type outside ^[A-Za-z ]{0,20}$ is refused.
        #expect(throws: ChargeKitError.self) {
            try CreditCardTerminal.ChargeResponse(url: url.replacingOccurrences(of: "American%20Express", with: "Amex%3B1"))
        }
    }

    @Test func creditCardTerminalUnknownIfccFieldIsKeptAndReported() throws {
        let url = "app://x?ifcc_responseType=declined&ifcc_declineReason=05&record_id=7"
        let callback = try PaymentCallback.parse(url)
        #expect(callback.unknownFields == [QueryItem("ifcc_declineReason", "05")])
        #expect(callback.extraItems == [QueryItem("record_id", "7")])
        #expect(CallbackReport(callback).json.contains(#""unknownFields":{"ifcc_declineReason":"05"}"#))
        // A repeated unknown field is still a duplicate.
        #expect(throws: ChargeKitError.duplicateField("ifcc_declineReason")) { try PaymentCallback.parse(url + "&ifcc_declineReason=06") }
    }

    // MARK: SumUp

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

    // MARK: Zettle

    @Test func zettleAuthorizationCode() throws {
        let url = "app://ok?chargekit-callback=success&reference=R1&referenceNumber=1234567890&entryMode=EMV&authorizationCode=A1B2C3"
        guard let callback = try PaymentCallback.parse(url, provider: .zettle).zettle else { Issue.record("not Zettle"); return }
        #expect(callback.paymentInfo.authorizationCode == "A1B2C3")
        #expect(CallbackReport(PaymentCallback(callback)).fields["authorizationCode"] == "A1B2C3")
    }

    @Test func zettleStructuredErrorMessage() throws {
        let message = "com.izettle.session.error(10) - An operation is already in progress <UnderlyingError>: busy"
        let url = "app://fail?chargekit-callback=failure&errorMessage=" + QueryItem("m", message).encoded.dropFirst(2)
        guard let callback = try PaymentCallback.parse(url, provider: .zettle).zettle else { Issue.record("not Zettle"); return }
        let structured = try #require(callback.structuredError)
        #expect(structured.domain == "com.izettle.session.error" && structured.code == 10)
        #expect(structured.message == "An operation is already in progress" && structured.underlying == "busy")
        let report = CallbackReport(PaymentCallback(callback))
        #expect(report.fields["errorDomain"] == "com.izettle.session.error" && report.fields["errorCode"] == "10")
        #expect(report.fields["message"] == "An operation is already in progress")
        #expect(report.fields["errorMessage"] == message, "the raw message is kept")
        // Free text without the shape stays free text.
        #expect(Zettle.StructuredError("Payment cancelled") == nil)
    }

    @Test func zettleWrapperOperationUUIDThroughTheLedger() async throws {
        let ledger = ChargeLedger()
        let request = try Zettle.APIRequest(
            operation: .charge(amount: Money(minorUnits: 500, currency: try Currency(code: "SEK")), reference: "R-9"),
            successURL: "shop://callback-url/success?operationUUID=6F1C", failureURL: "shop://callback-url/failure?operationUUID=6F1C"
        )
        let (_, handoff) = try await ledger.issue { nonce throws(ChargeKitError) in try request.handoff(nonce: nonce) }
        var simulator = ZettleSimulator()
        let callback = try simulator.respond(to: handoff.url + "&urlWrapper=true", outcome: .approved)
        let result = try await ledger.verify(url: callback)
        guard let parsed = result.callback.zettle else { Issue.record("not Zettle"); return }
        #expect(parsed.operationUUID == "6F1C")
        #expect(parsed.paymentInfo.authorizationCode != nil, "the simulator answers like the app")
        #expect(result.isApprovedSale)
    }
}

/// The simulators accept what the vendors' own samples send (§5), judged by their own
/// reading of the rules.
@Suite struct RealSystemSimulatorTests {
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

    @Test func zettleVersion1SampleWithWholePriceAndLightlyEscapedCallbacks() throws {
        let url = "izettle://x-callback-url/payment/1.0?x-source=iZorn&x-success=izorn://paid?painting%3D7%26size%3Dbig"
            + "&x-failure=izorn://failed&api-key=K&price=42&currency=SEK&title=Painting&reference=P7"
        var simulator = ZettleSimulator()
        #expect(try simulator.respond(to: url, outcome: .approved) == "izorn://paid?painting=7&size=big&reference=P7")
        #expect(try simulator.respond(to: url, outcome: .cancelled) == "izorn://failed?reference=P7&errorCode=CancelledByUser")
    }

    @Test func zettle3WithoutCurrencyAndTheWrapper() throws {
        let url = "izettle://api/payment/charge?amount=10.00&reference=R1&urlWrapper=true"
            + "&successURL=shop%3A%2F%2Fcallback-url%2Fsuccess%3FoperationUUID%3DU1"
            + "&failureURL=shop%3A%2F%2Fcallback-url%2Ffailure%3FoperationUUID%3DU1"
        var simulator = ZettleSimulator()
        let answer = try simulator.respond(to: url, outcome: .approved)
        #expect(answer.hasPrefix("shop://callback-url/success?operationUUID=U1&reference=R1&referenceNumber="))
        #expect(answer.contains("authorizationCode="))
        let declined = try simulator.respond(to: url.replacingOccurrences(of: "R1", with: "R2"), outcome: .declined)
        let parsed = try Zettle.Callback(url: declined)
        #expect(parsed.structuredError?.domain == "com.izettle.payment.error")
    }

    @Test func creditCardTerminalErrorCarriesAMessageThatChargeKitReads() async throws {
        let ledger = ChargeLedger()
        let request = try chargeRequest()
        let (_, handoff) = try await ledger.issue { nonce throws(ChargeKitError) in try request.handoff(nonce: nonce) }
        let callback = try CreditCardTerminalSimulator().respond(to: handoff.url, outcome: .failed)
        let result = try await ledger.verify(url: callback)
        #expect(result.outcome == .failed && result.callback.message != nil)
    }

    @Test func simulatorsJudgeByTheirOwnRules() throws {
        // The app's own limit on returnURL, whatever ChargeKit's request builder says.
        let long = "app://r/" + String(repeating: "a", count: 2100)
        let url = "com-innerfence-ccterminal://charge/1.0.0/?amount=1.00&returnURL=" + QueryItem("v", long).encoded.dropFirst(2)
        #expect(throws: ChargeKitError.fieldTooLong("returnURL", limit: 2048)) {
            try CreditCardTerminalSimulator().respond(to: url, outcome: .approved)
        }
        // A broken % escape, a repeated field, an amount with too many decimals.
        for bad in ["amount=1.00&returnURL=app%3A%2F%2Fr&email=a%4", "amount=1.00&amount=2.00&returnURL=app%3A%2F%2Fr",
                    "amount=1.001&returnURL=app%3A%2F%2Fr", "amount=1.00&returnURL=app%3A%2F%2Fr&taxRate=100"] {
            #expect(throws: ChargeKitError.self) {
                try CreditCardTerminalSimulator().respond(to: "com-innerfence-ccterminal://charge/1.0.0/?" + bad, outcome: .approved)
            }
        }
    }
}
