@_spi(Tools) import ChargeKit
import ChargeKitSimulators
import CitconSandbox
import CitconSandboxTesting
import Foundation
import Testing

/// SumUp's page of `/apps/open` (the pages every app shares: AppSimulatorTests).
@Suite("SumUp in the browser")
struct SumUpWebSimulatorTests {
    @Test("a request SumUp refuses: a page naming the field, or SumUp's error as the way back")
    func refusals() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            let twice = try await AppSimulatorTests.page(harness, "sumupmerchant://pay/1.0?amount=1.00&amount=2.00&currency=EUR")
            #expect(twice.status == 400 && twice.text.contains("amount"), "\(twice.text)")
            // SumUp answers a request without a currency with its own error: the page shows it, and offers only the way back.
            let noCurrency = try await AppSimulatorTests.page(harness, "sumupmerchant://pay/1.0?amount=1.00&affiliate-key=K&callback=my-app://done")
            #expect(noCurrency.status == 200 && noCurrency.text.contains("id=\"refusal\"") && noCurrency.text.contains("currency"))
            #expect(noCurrency.text.components(separatedBy: "name=\"scenario\"").count == 2, "one button")
            #expect(noCurrency.text.contains("Sends SumUp&#39;s refusal back") || noCurrency.text.contains("Sends SumUp's refusal back"), "the button says what it sends")
            #expect(!noCurrency.text.contains("The payment succeeds"), "not the approval's text on a refusal")
            let token = try #require(HeadlessWallet.formToken(in: noCurrency.text))
            let back = try await AppSimulatorTests.post(harness, [("form_token", token), ("url", "sumupmerchant://pay/1.0?amount=1.00&affiliate-key=K&callback=my-app://done"), ("scenario", "approved")])
            #expect(AppSimulatorTests.location(back)?.contains("smp-status=failed") == true, "\(back)")
        }
    }
}
