@_spi(Tools) @testable import ChargeKit
import ChargeKitCommands
import ChargeKitSimulators
import Foundation
import Testing

/// CreditCardTerminal: what the real app sends beyond the seeds (protocol notes §5): a genuine input accepted with the right values, a tampered one refused where it should be.
@Suite struct CreditCardTerminalRealSystemCallbackTests {
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
}

/// CreditCardTerminal: its simulator accepts what the vendor's own samples send (§5), judged by its own reading of the rules.
@Suite struct CreditCardTerminalRealSystemSimulatorTests {
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
