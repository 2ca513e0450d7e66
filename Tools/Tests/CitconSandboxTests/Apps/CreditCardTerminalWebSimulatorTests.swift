@_spi(Tools) import ChargeKit
import ChargeKitSimulators
import CitconSandbox
import CitconSandboxTesting
import Foundation
import Testing

/// Credit Card Terminal's page of `/apps/open` (the pages every app shares: AppSimulatorTests).
@Suite("Credit Card Terminal in the browser")
struct CreditCardTerminalWebSimulatorTests {
    @Test("a request whose callback is javascript:, data:, file: or an OS handler is never redirected to; https and an app's scheme are")
    func redirectRule() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            let token = try #require(HeadlessWallet.formToken(in: try await AppSimulatorTests.page(
                harness, "com-innerfence-ccterminal://charge/1.0.0/?amount=1.00&returnURL=my-app%3A%2F%2Fdone").text))
            for (returnURL, allowed) in [("javascript:alert(1)//", false), ("data:text/html,x", false), ("file:///etc/passwd", false),
                                         ("ms-msdt:/id", false), ("JavaScript:alert(1)//", false), ("vbscript:x", false),
                                         ("https://shop.example/paid", true), ("my-app://done", true)] {
                let url = "com-innerfence-ccterminal://charge/1.0.0/?amount=1.00&returnURL=" + PercentEncoding.encode(returnURL)
                let answer = try await AppSimulatorTests.post(harness, [("form_token", token), ("url", url), ("scenario", "approved")])
                if allowed {
                    #expect(answer.hasPrefix("HTTP/1.1 303") && AppSimulatorTests.location(answer)?.hasPrefix(returnURL) == true, "\(returnURL): \(answer.prefix(200))")
                } else {
                    #expect(!answer.hasPrefix("HTTP/1.1 303") && AppSimulatorTests.location(answer) == nil && !answer.contains("href=\"\(returnURL)"),
                            "\(returnURL) was redirected to: \(answer.prefix(300))")
                }
            }
        }
    }
}
