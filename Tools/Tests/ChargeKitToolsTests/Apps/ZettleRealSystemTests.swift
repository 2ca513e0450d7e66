@_spi(Tools) @testable import ChargeKit
import ChargeKitCommands
import ChargeKitSimulators
import Foundation
import Testing

/// Zettle: what the real app sends beyond the seeds (protocol notes §5): a genuine input accepted with the right values, a tampered one refused where it should be.
@Suite struct ZettleRealSystemCallbackTests {
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

/// Zettle: its simulator accepts what the vendor's own samples send (§5), judged by its own reading of the rules.
@Suite struct ZettleRealSystemSimulatorTests {
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
}
