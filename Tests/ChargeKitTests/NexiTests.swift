@_spi(Tools) @testable import ChargeKit
import ChargeKitSimulators
import Foundation
import Testing

/// Nexi POS: its request valid when created, and its answer read with every field of
/// Nexi's documented example.
@Suite struct NexiTests {
    /// Nexi's documented example answer (protocol notes §8), its `callerTrxId` carrying
    /// `callerTrxID` and its receipt link whole.
    static func documentedAnswer(callerTrxID: String = "qwerty", amount: String = "1", result: String = "0") -> String {
        "demonexi://payment?result=\(result)&amount=\(amount)&callerTrxId=\(callerTrxID)&operationType=PAYMENT&actionCode=000"
            + "&pan=************5938&transactionType=CLI&timestamp=0912202317&resultDescription=&cardTypeCVM=2"
            + "&acquirerId=00000000003&stan=000002&operationNumber=000031"
            + "&acquirerName=NEXI%20%20%20%20%20%20%20%20%20%20%20%20&terminalId=30350039"
            + "&merchantId=0000091%20%20%20%20%20%20%20%20&authorizationNumber=012651"
            + "&urlTicket=https%3A%2F%2Freceipts.example%2Fnexi%2F000031.png"
    }

    static let euro = Money(minorUnits: 1250, currency: .eur)

    /// A payment of 12.50 EUR with the reference `ord-7`, issued by `ledger`.
    static func issuePayment(_ ledger: ChargeLedger, amount: Money = euro) async throws -> PendingCharge {
        let request = try Nexi.PaymentRequest.payment(amount, callerName: "Shop", callbackURL: "demonexi://payment", reference: "ord-7")
        return try await ledger.issue { nonce throws(ChargeKitError) in request.handoff(nonce: nonce) }.charge
    }

    @Test func theDocumentedAnswerIsReadWithEveryField() throws {
        let callback = try Nexi.Callback(url: Self.documentedAnswer())
        #expect(callback.callbackURL == "demonexi://payment")
        #expect(callback.outcome == .approved && callback.result == "0" && callback.actionCode == "000")
        #expect(callback.operationType == "PAYMENT" && callback.amountMinorUnits == 1 && callback.callerTrxID == "qwerty")
        #expect(callback.maskedCardNumber == "************5938" && callback.operationNumber == "000031")
        #expect(callback.details["acquirerName"] == "NEXI" && callback.details["merchantId"] == "0000091", "the %20 padding is trimmed")
        #expect(callback.details["transactionType"] == "CLI" && callback.details["cardTypeCVM"] == "2")
        #expect(callback.details["acquirerId"] == "00000000003" && callback.details["stan"] == "000002")
        #expect(callback.terminalID == "30350039" && callback.authorizationNumber == "012651")
        #expect(callback.resultDescription == nil && callback.details["resultDescription"] == "", "empty, kept as empty")
        #expect(callback.receiptURL == "https://receipts.example/nexi/000031.png")
        #expect(callback.timestamp == DateComponents(year: 2020, month: 12, day: 9, hour: 23, minute: 17), "ddMMyyHHmm")
        #expect(Set(callback.details.keys) == Set(Nexi.Callback.detailFields), "every documented field")
        #expect(callback.unknownFields.isEmpty)
        let parsed = try PaymentCallback.parse(Self.documentedAnswer(), provider: .nexi)
        #expect(parsed.provider == .nexi && parsed.outcome == .approved && parsed.transactionID == "000031")
        let guessed = try PaymentCallback.parse(Self.documentedAnswer())
        #expect(guessed.provider == .nexi, "told from its fields without naming the app")
    }

    @Test("result codes: 0 approved, 21 declined, 20 cancelled; 22, the app's negative codes, X-Y-Z and unconfirmed codes failed",
          arguments: [("0", ChargeOutcome.approved), ("21", .declined), ("20", .cancelled), ("22", .failed), ("-14", .failed),
                      ("-16", .failed), ("1-2-3", .failed), ("A1-0-7", .failed), ("1", .failed), ("99", .failed)])
    func resultCodes(result: String, outcome: ChargeOutcome) throws {
        #expect(try Nexi.Callback(url: Self.documentedAnswer(result: result)).outcome == outcome)
    }

    @Test(arguments: ["", "x", "0.5", "--1", "1-2", "1-2-3-4", "1--3", String(repeating: "9", count: 40)])
    func aResultThatIsNoCodeIsRefusedNamingIt(result: String) {
        #expect(throws: ChargeKitError.invalidField("result", rule: "must be a whole number (0, 20, 21, 22, -16…) or an X-Y-Z code")) {
            try Nexi.Callback(url: Self.documentedAnswer(result: result))
        }
    }

    @Test func anAnswerWithoutItsMandatoryFieldsIsRefused() {
        #expect(throws: ChargeKitError.missingField("result")) { try Nexi.Callback(url: "demonexi://payment?operationType=PAYMENT&amount=1") }
        #expect(throws: ChargeKitError.missingField("operationType")) { try Nexi.Callback(url: "demonexi://payment?result=0&amount=1") }
        #expect(throws: ChargeKitError.invalidField("amount", rule: "must be a whole number of cents")) {
            try Nexi.Callback(url: Self.documentedAnswer(amount: "1.00"))
        }
        #expect(throws: ChargeKitError.duplicateField("result")) { try Nexi.Callback(url: Self.documentedAnswer() + "&result=0") }
    }

    @Test func paddingIsTrimmedOnEitherSideAndNothingElse() {
        #expect(Nexi.Callback.trimmingSpaces("NEXI            ") == "NEXI")
        #expect(Nexi.Callback.trimmingSpaces("  0000091 ") == "0000091")
        #expect(Nexi.Callback.trimmingSpaces("   ") == "" && Nexi.Callback.trimmingSpaces("") == "")
        #expect(Nexi.Callback.trimmingSpaces("a b") == "a b", "a space inside stays")
        #expect(Nexi.Callback.trimmingSpaces("\tNEXI") == "\tNEXI", "only spaces are padding")
    }

    @Test func aFullCardNumberIsMaskedToNexisForm() throws {
        let answer = Self.documentedAnswer().replacingOccurrences(of: "************5938", with: "4761730000005938")
        let parsed = try PaymentCallback.parse(answer, provider: .nexi)
        #expect(parsed.nexi?.maskedCardNumber == "************5938")
    }

    @Test func theRequestIsWrittenAsNexiDocumentsIt() throws {
        let request = try Nexi.PaymentRequest(
            operation: .payment, amount: Money(minorUnits: 1, currency: .eur), callerName: "Payment", callbackURL: "demonexi://payment",
            reference: "qwerty", screens: Nexi.Screens(sendTicket: true, urlTicket: true, email: "name.surname@domain.it", sms: "3344556951"),
            tags: [try Nexi.Tag(key: "table", value: "12"), try Nexi.Tag(key: "waiter", value: "Anna")]
        )
        #expect(request.requestURL() == "neximpos://payment?amount=1&callerTrxId=qwerty&callerName=Payment&uri=demonexi%3A%2F%2Fpayment"
                + "&email=name.surname%40domain.it&sms=3344556951&sendTicket=true&urlTicket=true"
                + "&addInfoKey1=table&addInfo1=12&addInfoKey2=waiter&addInfo2=Anna")
        let nonce = Nonce.random()
        let handoff = request.handoff(nonce: nonce)
        #expect(handoff.url.contains("callerTrxId=\(nonce.value).qwerty&") && handoff.operation == .charge && handoff.callbackURLs == ["demonexi://payment"])
        let reversal = try Nexi.PaymentRequest(operation: .reversal, amount: Money(minorUnits: 1, currency: .eur), callerName: "Reversal",
                                               callbackURL: "demonexi://reversal", original: try Nexi.Original(terminalID: "30350039", timestamp: "0912202317"))
        #expect(reversal.requestURL() == "neximpos://reversal?amount=1&callerName=Reversal&uri=demonexi%3A%2F%2Freversal&timestamp=0912202317&terminalId=30350039")
        #expect(reversal.handoff(nonce: nonce).operation == .refund)
    }

    @Test func everyBadFieldIsRefusedWhenTheRequestIsMade() throws {
        func payment(_ amount: Money = Self.euro, callerName: String = "Shop", uri: String = "my-app://payment", reference: String? = nil,
                     screens: Nexi.Screens = .init(), tags: [Nexi.Tag] = []) throws(ChargeKitError) {
            _ = try Nexi.PaymentRequest.payment(amount, callerName: callerName, callbackURL: uri, reference: reference, screens: screens, tags: tags)
        }
        #expect(throws: ChargeKitError.invalidField("amount", rule: "must be in euro: Nexi POS takes euro cents")) {
            try payment(Money(minorUnits: 100, currency: .usd))
        }
        #expect(throws: ChargeKitError.invalidField("amount", rule: "must be at most 2147483647 cents")) {
            try payment(Money(minorUnits: 2_147_483_648, currency: .eur))
        }
        #expect(throws: ChargeKitError.missingField("callerName")) { try payment(callerName: "") }
        #expect(throws: ChargeKitError.invalidURL("uri", rule: "must not carry a query: Nexi POS appends its own")) { try payment(uri: "my-app://p?x=1") }
        #expect(throws: ChargeKitError.fieldTooLong("callerTrxId", limit: Nexi.maximumCallerTrxIDLength - Nonce.length - 1)) {
            try payment(reference: String(repeating: "r", count: Nexi.maximumCallerTrxIDLength - Nonce.length))
        }
        for byte in ["&", "#", "%", "?", "=", "+", " ", "é", "/"] {
            #expect(throws: ChargeKitError.invalidField("callerTrxId", rule: "the reference may hold letters, digits, '.', '_' and '-' only, "
                                                        + "so that Nexi POS echoes it as sent; got '\(byte)'"), "\(byte)") {
                try payment(reference: "ord\(byte)7")
            }
        }
        #expect(throws: ChargeKitError.invalidField("sendTicket", rule: "cannot be true with autoClose: Nexi POS allows one or the other")) {
            try payment(screens: Nexi.Screens(sendTicket: true, autoClose: true))
        }
        #expect(throws: ChargeKitError.invalidField("email", rule: "must be an email address")) { try payment(screens: Nexi.Screens(email: "nobody")) }
        #expect(throws: ChargeKitError.invalidField("sms", rule: "must be a phone number: 4 to 20 digits, '+' first if any")) {
            try payment(screens: Nexi.Screens(sms: "33-44"))
        }
        let tag = try Nexi.Tag(key: "k", value: "v")
        #expect(throws: ChargeKitError.invalidField("addInfoKey", rule: "each key once: Nexi POS ignores a repeated one")) { try payment(tags: [tag, tag]) }
        #expect(throws: ChargeKitError.invalidField("addInfoKey", rule: "at most 5 tags")) {
            try payment(tags: try (1...6).map { index throws(ChargeKitError) in try Nexi.Tag(key: "k\(index)", value: "v") })
        }
        #expect(throws: ChargeKitError.invalidField("addInfo", rule: "must be 1 to 30 characters")) { try Nexi.Tag(key: "k", value: String(repeating: "v", count: 31)) }
        #expect(throws: ChargeKitError.invalidField("addInfoKey", rule: "may hold letters, digits and !$%&()*+-./:;<=>?@[]^_{} only")) {
            try Nexi.Tag(key: "a b", value: "v")
        }
        #expect(throws: ChargeKitError.missingField("terminalId")) {
            try Nexi.PaymentRequest(operation: .reversal, amount: Self.euro, callerName: "Shop", callbackURL: "my-app://r")
        }
        for timestamp in ["3102202317", "0913202317", "091220231", "0912202360", "09122023x7"] {
            #expect(throws: ChargeKitError.invalidField("timestamp", rule: "must be a date and time as ddMMyyHHmm, such as 0912202317"), "\(timestamp)") {
                try Nexi.Original(terminalID: "30350039", timestamp: timestamp)
            }
        }
    }

    @Test func theLedgerAcceptsTheAnswerOnceAndChecksNonceReferenceOperationAndAmount() async throws {
        let ledger = ChargeLedger()
        let charge = try await Self.issuePayment(ledger)
        let trx = "\(charge.nonce.value).ord-7"
        await #expect(throws: ChargeKitError.mismatch(field: "amount", rule: "approved 1 minor units, 1250 were asked")) {
            try await ledger.verify(url: Self.documentedAnswer(callerTrxID: trx))
        }
        let other = try await Self.issuePayment(ledger)
        await #expect(throws: ChargeKitError.mismatch(field: "callerTrxId", rule: "must echo the reference sent")) {
            try await ledger.verify(url: Self.documentedAnswer(callerTrxID: "\(other.nonce.value).ord-8", amount: "1250"))
        }
        let third = try await Self.issuePayment(ledger)
        await #expect(throws: ChargeKitError.mismatch(field: "operationType", rule: "must name the operation asked (PAYMENT)")) {
            try await ledger.verify(url: Self.documentedAnswer(callerTrxID: "\(third.nonce.value).ord-7", amount: "1250")
                .replacingOccurrences(of: "operationType=PAYMENT", with: "operationType=REVERSAL"))
        }
        let fourth = try await Self.issuePayment(ledger)
        let answer = Self.documentedAnswer(callerTrxID: "\(fourth.nonce.value).ord-7", amount: "1250")
        let result = try await ledger.verify(url: answer)
        #expect(result.isApprovedSale && result.callback.nexi?.details["stan"] == "000002" && result.callback.reference == "ord-7")
        await #expect(throws: ChargeKitError.replayedNonce) { try await ledger.verify(url: answer) }
    }

    @Test func theSimulatorAnswersAsTheDocumentedExample() async throws {
        let ledger = ChargeLedger()
        let request = try Nexi.PaymentRequest.payment(Self.euro, callerName: "Shop", callbackURL: "demonexi://payment", reference: "ord-7")
        let (charge, handoff) = try await ledger.issue { nonce throws(ChargeKitError) in request.handoff(nonce: nonce) }
        let answer = try NexiSimulator().respond(to: handoff.url, outcome: .approved, transactionID: "000031",
                                                 now: Date(timeIntervalSince1970: 1_607_552_220))  // 2020-12-09T22:17Z: 23:17 in Italy
        #expect(answer.hasPrefix("demonexi://payment?result=0&amount=1250&callerTrxId=\(charge.nonce.value).ord-7&operationType=PAYMENT&actionCode=000"
                                 + "&pan=************5938&transactionType=CLI&timestamp=0912202317&resultDescription=&cardTypeCVM=2"))
        #expect(answer.contains("&acquirerName=NEXI%20%20%20%20%20%20%20%20%20%20%20%20&terminalId=30350039&merchantId=0000091%20%20%20%20%20%20%20%20&"))
        let result = try await ledger.verify(url: answer)
        #expect(result.outcome == .approved && result.callback.transactionID == "000031")
        // Not logged in: the app's general error.
        let (_, again) = try await ledger.issue { nonce throws(ChargeKitError) in request.handoff(nonce: nonce) }
        let expired = try NexiSimulator(isReady: false).respond(to: again.url, outcome: .approved)
        #expect(expired.contains("result=22&") && !expired.contains("actionCode"), "only the mandatory fields")
        #expect(try await ledger.verify(url: expired).outcome == .failed)
        // No uri: nowhere to answer.
        #expect(throws: ChargeKitError.missingField("uri")) { try NexiSimulator().respond(to: "neximpos://payment?amount=1", outcome: .approved) }
    }
}
