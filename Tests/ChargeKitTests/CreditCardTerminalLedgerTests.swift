@_spi(Tools) @testable import ChargeKit
import ChargeKitSimulators
import Foundation
import Testing

/// Credit Card Terminal's answers through the ledger: its extras, currency, FileMaker
/// names and subtotal (what every app shares is the conformance suites').
@Suite struct CreditCardTerminalLedgerTests {
    let simulator = CreditCardTerminalSimulator()

    func issue(_ ledger: ChargeLedger, _ request: CreditCardTerminal.ChargeRequest) async throws -> (PendingCharge, String) {
        let (charge, handoff) = try await ledger.issue { nonce throws(ChargeKitError) in try request.handoff(nonce: nonce) }
        return (charge, handoff.url)
    }

    @Test func forgedCallbacksAreRefused() async throws {
        let ledger = ChargeLedger()
        let (_, url) = try await issue(ledger, chargeRequest())
        let genuine = try simulator.respond(to: url, outcome: .approved)
        let noNonce = "com-innerfence-ChargeDemo://chargeResponse?record_id=123&ifcc_responseType=approved&ifcc_amount=50.00&ifcc_redactedCardNumber=1111"
        await #expect(throws: ChargeKitError.missingNonce(field: "ifcc_request_nonce")) { try await ledger.verify(url: noNonce) }
        let otherNonce = noNonce + "&ifcc_request_nonce=\(Nonce.random())"
        await #expect(throws: ChargeKitError.unknownNonce) { try await ledger.verify(url: otherNonce) }
        let tamperedExtra = genuine.replacingOccurrences(of: "record_id=123", with: "record_id=124")
        await #expect(throws: ChargeKitError.mismatch(field: "record_id", rule: "extra parameters must come back exactly as sent")) {
            try await ledger.verify(url: tamperedExtra)
        }
        let wrongApp = genuine.replacingOccurrences(of: "com-innerfence-ChargeDemo://chargeResponse", with: "evil://chargeResponse")
        await #expect(throws: ChargeKitError.self) { try await ledger.verify(url: wrongApp) }
        let euro = genuine.replacingOccurrences(of: "ifcc_currency=USD", with: "ifcc_currency=EUR")
        await #expect(throws: ChargeKitError.mismatch(field: "ifcc_currency", rule: "charged in EUR, asked in USD")) { try await ledger.verify(url: euro) }
        // None of the refusals consumed the nonce: the genuine answer still goes through.
        #expect(try await ledger.verify(url: genuine).outcome == .approved)
    }

    @Test func crossedCallbacksAreRefused() async throws {
        let ledger = ChargeLedger()
        let (_, firstURL) = try await issue(ledger, chargeRequest("10.00", extras: [QueryItem("record_id", "1")]))
        let (_, secondURL) = try await issue(ledger, chargeRequest("20.00", extras: [QueryItem("record_id", "2")]))
        let first = try simulator.respond(to: firstURL, outcome: .approved)
        let second = try simulator.respond(to: secondURL, outcome: .approved)
        // First's nonce grafted onto second's record: the extras no longer match the snapshot.
        let nonceOfFirst = try #require(try CreditCardTerminal.ChargeResponse(url: first).nonce)
        let nonceOfSecond = try #require(try CreditCardTerminal.ChargeResponse(url: second).nonce)
        let crossed = second.replacingOccurrences(of: nonceOfSecond.value, with: nonceOfFirst.value)
        await #expect(throws: ChargeKitError.mismatch(field: "record_id", rule: "extra parameters must come back exactly as sent")) {
            try await ledger.verify(url: crossed)
        }
    }

    @Test func amountBelowRequestedIsFlagged() async throws {
        let ledger = ChargeLedger()
        let (_, url) = try await issue(ledger, chargeRequest("50.00"))
        let returnURL = try #require(try QueryURL(parsing: url).items.first { $0.name == "returnURL" }?.value)
        let nonce = try #require(try QueryURL(parsing: returnURL).items.last?.value)
        let lower = "com-innerfence-ChargeDemo://chargeResponse?record_id=123&ifcc_request_nonce=\(nonce)&ifcc_responseType=approved&ifcc_amount=43.40&ifcc_taxAmount=3.40&ifcc_taxRate=8.5&ifcc_redactedCardNumber=1111"
        let result = try await ledger.verify(url: lower)
        #expect(result.flags == [.amountBelowRequested(requested: Money(minorUnits: 5000, currency: .usd), approved: Money(minorUnits: 4000, currency: .usd))])
    }

    @Test func tipAndTaxDoNotHideALowerSubtotal() async throws {
        let ledger = ChargeLedger()
        let (_, url) = try await issue(ledger, chargeRequest("50.00"))
        let result = try await ledger.verify(url: simulator.respond(to: url, outcome: .approved, tip: "5.00"))
        #expect(result.flags.isEmpty)
        guard let response = result.callback.creditCardTerminal else { Issue.record("wrong provider"); return }
        #expect(response.amount?.formatted == "59.25")
        #expect(response.subtotal?.formatted == "50.00")
    }

    @Test func fileMakerAnswerMustMatchTheRequest() async throws {
        let ledger = ChargeLedger()
        var fields = try chargeFields()
        fields.fileMakerFormat = true
        let (_, url) = try await issue(ledger, CreditCardTerminal.ChargeRequest(fields))
        let callback = try simulator.respond(to: url, outcome: .approved)
        #expect(callback.contains("&$ifcc_responseType=approved"))
        let plain = callback.replacingOccurrences(of: "$ifcc_", with: "ifcc_")
        await #expect(throws: ChargeKitError.mismatch(field: "ifcc_responseType", rule: "FileMaker ($) names were asked")) { try await ledger.verify(url: plain) }
        #expect(try await ledger.verify(url: callback).outcome == .approved)
    }

    @Test func anEntryWithCreditCardTerminalsFactsAtTheTopReadsThemAsTheAppsFacts() async throws {
        // Ledgers before 0.6 kept the fixed amount, the tax rate and the FileMaker format
        // as typed fields of the request; they read as Credit Card Terminal's facts.
        var fields = try chargeFields()
        fields.amountFixed = true
        fields.fileMakerFormat = true
        let asked = try CreditCardTerminal.ChargeRequest(fields)
        let ledger = ChargeLedger()
        let (charge, request) = try await ledger.issue { nonce throws(ChargeKitError) in try asked.handoff(nonce: nonce) }
        #expect(request.appFacts == ["amountFixed": "1", "taxRate": "8.5", "fileMakerFormat": "1"])
        var object = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(charge)) as? [String: Any])
        var inner = try #require(object["request"] as? [String: Any])
        inner.removeValue(forKey: "appFacts")
        inner["amountFixed"] = true
        inner["taxRate"] = "8.5"
        inner["fileMakerFormat"] = true
        object["request"] = inner
        let earlier = try JSONDecoder().decode(PendingCharge.self, from: try JSONSerialization.data(withJSONObject: object))
        #expect(earlier.request == charge.request)
        let store = InMemoryLedgerStore()
        try await store.insert(earlier, now: earlier.createdAt, retention: 60)
        let callback = try CreditCardTerminalSimulator().respond(to: request.url, outcome: .approved)
        #expect(callback.contains("$ifcc_"))
        #expect(try await ChargeLedger(store: store).verify(url: callback).outcome == .approved)
    }
}

/// A consumed entry keeps the result its callback produced.
@Suite struct AcceptedCallbackTests {
    @Test func aWaitingCallGetsTheKeptResultWithoutParsingOrCheckingAgain() async throws {
        let ledger = ChargeLedger()
        let asked = try chargeRequest("50.00")
        let (charge, _) = try await ledger.issue { nonce throws(ChargeKitError) in try asked.handoff(nonce: nonce) }
        // The customer lowered the amount: the ledger flags it once, when it accepts.
        let callback = "com-innerfence-ChargeDemo://chargeResponse?record_id=123&ifcc_request_nonce=\(charge.nonce.value)&ifcc_responseType=approved&ifcc_amount=43.40&ifcc_taxAmount=3.40&ifcc_taxRate=8.5&ifcc_redactedCardNumber=1111"
        let accepted = try await ledger.verify(url: callback)
        #expect(accepted.flags.count == 1)
        let entry = try #require(try await ledger.charge(for: accepted.charge.nonce))
        let kept = try #require(entry.accepted)
        #expect(kept.callback == accepted.callback && kept.flags == accepted.flags && kept.url == callback)

        // Another process's ledger on a copy of the entry whose URL no parser would
        // take: the result comes from what was kept.
        var copy = entry
        copy.accepted?.url = "not a callback"
        let store = InMemoryLedgerStore()
        try await store.insert(copy, now: entry.createdAt, retention: 3600)
        let other = ChargeLedger(store: store, now: { entry.createdAt })
        let result = try await other.result(for: entry.nonce)
        #expect(result.callback == accepted.callback && result.flags == accepted.flags && result.outcome == .approved)

        // Kept through the file ledger's JSON too.
        let decoded = try JSONDecoder().decode(PendingCharge.self, from: JSONEncoder().encode(entry))
        #expect(decoded.accepted == entry.accepted)
    }
}
