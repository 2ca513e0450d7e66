import Foundation
import Testing

/// Credit Card Terminal through `chargekit`: the seed's response, and a return URL the app would refuse.
@Suite("chargekit and Credit Card Terminal")
struct CreditCardTerminalCommandTests {
    @Test("parse --json of the seed's response, read without a ledger, reports the charge it answers")
    func operationOfTheSeedResponse() async throws {
        let seed = "com-your-app://action/?ifcc_responseType=approved&ifcc_transactionId=100001&ifcc_amount=10.99&ifcc_currency=USD&ifcc_redactedCardNumber=XXXXXXXXXXXX1111&ifcc_cardType=Visa"
        let plain = try await CLI.run(["parse", "--json", seed])
        let plainJSON = try #require(try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [String: Any])
        #expect(plainJSON["operation"] as? String == "charge")
    }

    @Test("request refuses a return URL the app would refuse (an invalid value, 64): over 2048 bytes once extras and nonce are on it")
    func longReturnURL() async throws {
        let folder = try CLI.temporaryFolder()
        let ledger = folder.appendingPathComponent("l.json").path
        let returnURL = "my-app://done/" + String(repeating: "a", count: 2000)
        let outcome = try await CLI.run(["request", "ccterminal", "--amount", "1.00", "--return-url", returnURL, "--extra", "k=v", "--ledger", ledger])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("returnURL: longer than 2048"))
        #expect(outcome.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: ledger))
    }
}
