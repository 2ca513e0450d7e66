@_spi(Tools) @testable import ChargeKit
import ChargeKitSimulators
import Foundation
import Testing

/// Viva.com Terminal: its request valid when created, and its answer read from the raw
/// string the app was opened with, as the real app writes it.
@Suite struct VivaTests {
    /// A real answer's shape (protocol notes §7): values unencoded, raw spaces and `*`,
    /// a literal `+` and seven fractional digits in `transactionDate`.
    static func realAnswer(nonce: Nonce, reference: String = "ord-7", amount: String = "1000") -> String {
        "instoreapp://result?status=success&message=Transaction successful&action=sale&clientTransactionId=\(nonce.value).\(reference)"
            + "&amount=\(amount)&tipAmount=0&verificationMethod=CONTACTLESS - NO CVM&rrn=432100012345&cardType=Debit Mastercard"
            + "&accountNumber=535686******1364&referenceNumber=123456&authorisationCode=654321&tid=16007513"
            + "&orderCode=4321000123456789&shortOrderCode=4321000123&transactionDate=2024-11-17T00:16:11.4043324+02:00"
            + "&transactionId=0b1e5c8a-3c1f-4a0e-9a42-6f2d9d1b7e55&installments=0&aid=A0000000041010&paymentMethod=CARD_PRESENT"
            + "&aadeTransactionId=116402_116402_1000_1"
    }

    /// A sale of 10.00 EUR with the reference `ord-7`, issued by `ledger`.
    static func issueSale(_ ledger: ChargeLedger) async throws -> PendingCharge {
        let request = try Viva.PaymentRequest.sale(Money(minorUnits: 1000, currency: .eur), appID: "com.example.shop",
                                                   callbackURL: "instoreapp://result", reference: "ord-7")
        return try await ledger.issue { nonce throws(ChargeKitError) in request.handoff(nonce: nonce) }.charge
    }

    @Test func aRealAnswerIsReadAsSent() throws {
        let nonce = Nonce.random()
        let callback = try Viva.Callback(url: Self.realAnswer(nonce: nonce))
        #expect(callback.callbackURL == "instoreapp://result")
        #expect(callback.message == "Transaction successful" && callback.details["verificationMethod"] == "CONTACTLESS - NO CVM")
        #expect(callback.details["cardType"] == "Debit Mastercard" && callback.maskedCardNumber == "535686******1364")
        #expect(callback.details["transactionDate"] == "2024-11-17T00:16:11.4043324+02:00", "the + is a plus, not a space")
        // 2024-11-16T22:16:11.4043324Z
        let date = try #require(callback.transactionDate)
        #expect(abs(date.timeIntervalSince1970 - 1_731_795_371.4043324) < 0.001)
        #expect(callback.nonce == nonce && callback.reference == "ord-7" && callback.amountMinorUnits == 1000)
        #expect(callback.unknownFields == [QueryItem("aadeTransactionId", "116402_116402_1000_1")], "a fiscal field is kept, not refused")
        let parsed = try PaymentCallback.parse(Self.realAnswer(nonce: nonce))
        #expect(parsed.provider == .viva && parsed.outcome == .approved, "told from its fields without naming the app")
    }

    @Test func theLedgerAcceptsTheRealAnswerOnceAndChecksTheAmount() async throws {
        let ledger = ChargeLedger()
        let charge = try await Self.issueSale(ledger)
        let other = try Viva.PaymentRequest.sale(Money(minorUnits: 2500, currency: .eur), appID: "com.example.shop",
                                                 callbackURL: "instoreapp://result", reference: "ord-7")
        let (second, _) = try await ledger.issue { nonce throws(ChargeKitError) in other.handoff(nonce: nonce) }
        await #expect(throws: ChargeKitError.mismatch(field: "amount", rule: "approved 1000 minor units, 2500 were asked")) {
            try await ledger.verify(url: Self.realAnswer(nonce: second.nonce))
        }
        let result = try await ledger.verify(url: Self.realAnswer(nonce: charge.nonce))
        #expect(result.isApprovedSale && result.callback.viva?.details["rrn"] == "432100012345")
        await #expect(throws: ChargeKitError.replayedNonce) { try await ledger.verify(url: Self.realAnswer(nonce: charge.nonce)) }
    }

    @Test func aRawSpaceInAnotherAppsCallbackIsStillRefused() async throws {
        let ledger = ChargeLedger()
        let other = try #require(everyApp.first { $0.provider != .viva && !$0.provider.definition.answersUnencoded })
        let (_, request) = try await ledger.issue { nonce throws(ChargeKitError) in
            try other.app.handoff(for: other.order(100, description: "Tea", reference: "R1"), nonce: nonce)
        }
        let genuine = try answer(request.url)
        await #expect(throws: ChargeKitError.invalidURL("url", rule: "contains a space or control character")) {
            try await ledger.verify(url: genuine + "&note=raw space")
        }
        #expect(try await ledger.verify(url: genuine).outcome == .approved, "the genuine answer still verifies")
    }

    @Test func failIsFailedAndUserCancelIsCancelled() throws {
        let nonce = Nonce.random()
        let fail = try PaymentCallback.parse("my-app://r?status=fail&message=Transaction declined&action=sale&clientTransactionId=\(nonce.value)", provider: .viva)
        #expect(fail.outcome == .failed && fail.providerStatus == "fail" && fail.message == "Transaction declined")
        let cancel = try PaymentCallback.parse("my-app://r?status=fail&message=Canceled&action=User_cancel&clientTransactionId=\(nonce.value)", provider: .viva)
        #expect(cancel.outcome == .cancelled && cancel.providerStatus == "User_cancel")
        #expect(throws: ChargeKitError.missingField("status")) { try Viva.Callback(url: "my-app://r?message=x") }
        #expect(throws: ChargeKitError.duplicateField("status")) { try Viva.Callback(url: "my-app://r?status=success&status=fail") }
        #expect(throws: ChargeKitError.invalidField("amount", rule: "must be a whole number of minor units")) {
            try Viva.Callback(url: "my-app://r?status=success&amount=10.00")
        }
        // A % that starts no escape is a percent sign.
        #expect(try Viva.Callback(url: "my-app://r?status=fail&message=100% sure").message == "100% sure")
    }

    @Test func aRequestIsValidWhenCreated() throws {
        let eur = { (minor: Int64) in Money(minorUnits: minor, currency: .eur) }
        let sale = try Viva.PaymentRequest.sale(eur(100), appID: "com.example.shop", callbackURL: "my-app://result", tipAmount: eur(20),
                                                paymentMethod: .cardPresent, screens: .init(receipt: false))
        let url = sale.requestURL(nonce: try Nonce("abcdefghijklmnopqrstuvwxyz0", field: "n"))
        #expect(url == "vivapayclient://pay/v1?action=sale&appId=com.example.shop&callback=my-app%3A%2F%2Fresult&amount=100&tipAmount=20"
                + "&clientTransactionId=abcdefghijklmnopqrstuvwxyz0&paymentMethod=CardPresent&show_receipt=false")
        let refusals: [(ChargeKitError, () throws(ChargeKitError) -> Viva.PaymentRequest)] = [
            (.missingField("appId"), { () throws(ChargeKitError) in try .sale(eur(100), appID: "", callbackURL: "my-app://r") }),
            (.missingField("amount"), { () throws(ChargeKitError) in try .init(action: .sale, appID: "a", callbackURL: "my-app://r") }),
            (.invalidField("amount", rule: "must be greater than zero"), { () throws(ChargeKitError) in try .sale(eur(0), appID: "a", callbackURL: "my-app://r") }),
            (.invalidField("amount", rule: "must have at most 10 digits in minor units"),
             { () throws(ChargeKitError) in try .sale(eur(12_345_678_901), appID: "a", callbackURL: "my-app://r") }),
            (.invalidField("tipAmount", rule: "must be between zero and the amount"),
             { () throws(ChargeKitError) in try .sale(eur(100), appID: "a", callbackURL: "my-app://r", tipAmount: eur(101)) }),
            (.invalidURL("callback", rule: "must not carry a query: Viva does not document keeping one"),
             { () throws(ChargeKitError) in try .sale(eur(100), appID: "a", callbackURL: "my-app://r?x=1") }),
            (.fieldTooLong("clientTransactionId", limit: 2048 - Nonce.length - 1),
             { () throws(ChargeKitError) in try .sale(eur(100), appID: "a", callbackURL: "my-app://r", reference: String(repeating: "r", count: 2021)) }),
            (.unexpectedField("paymentMethod", rule: "only a sale takes a payment method"),
             { () throws(ChargeKitError) in try .init(action: .cancel, appID: "a", callbackURL: "my-app://r", paymentMethod: .moto) }),
            (.unexpectedField("amount", rule: "an abort names no amount"),
             { () throws(ChargeKitError) in try .init(action: .abort, appID: "a", callbackURL: "my-app://r", amount: eur(1)) }),
        ]
        for (expected, make) in refusals {
            #expect(throws: expected) { try make() }
        }
        let cancel = try Viva.PaymentRequest(action: .cancel, appID: "a", callbackURL: "my-app://r", amount: eur(50),
                                             original: .init(referenceNumber: "123456"))
        #expect(cancel.handoff(nonce: Nonce.random()).operation == .refund)
    }

    @Test func theSimulatorWritesTheAnswerAsTheRealAppDoes() throws {
        let request = try Viva.PaymentRequest.sale(Money(minorUnits: 1000, currency: .eur), appID: "a", callbackURL: "my-app://result")
        let answer = try VivaSimulator().respond(to: request.requestURL(nonce: Nonce.random()), outcome: .approved)
        #expect(answer.contains("message=Transaction successful&") && answer.contains("verificationMethod=CONTACTLESS - NO CVM"))
        #expect(answer.contains("******") && answer.range(of: #"transactionDate=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{7}\+02:00&"#, options: .regularExpression) != nil)
        #expect(!answer.contains("%20") && !answer.contains("%2B"), "written unencoded, as the real app writes it")
        #expect(try PaymentCallback.parse(answer, provider: .viva).viva?.transactionDate != nil)
    }

    @Test("A reference Viva could not echo unchanged (& # % ? = +) is refused when the request is made, naming the byte")
    func referencesVivaCannotEchoAreRefused() throws {
        for reference in ["Fish & Chips", "Order #42", "100%41", "a?b", "k=v", "1+1"] {
            do {
                _ = try Viva.PaymentRequest.sale(Money(minorUnits: 1000, currency: .eur), appID: "com.example.shop",
                                                 callbackURL: "instoreapp://result", reference: reference)
                Issue.record("\(reference) was accepted")
            } catch {
                guard case .invalidField("clientTransactionId", let rule) = error else { Issue.record("\(error)"); continue }
                let byte = reference.first { "&#%?=+".contains($0) }.map(String.init) ?? "?"
                #expect(rule.contains("'\(byte)'"), "\(rule)")
            }
            // Through the app, from an order's reference, too.
            #expect(throws: ChargeKitError.self) {
                try PaymentApp.viva(appID: "com.example.shop", callbackURL: "instoreapp://result")
                    .handoff(for: ChargeOrder(amount: Money(minorUnits: 1000, currency: .eur), reference: reference), nonce: Nonce.random())
            }
        }
        #expect(throws: Never.self) {
            try Viva.PaymentRequest.sale(Money(minorUnits: 1000, currency: .eur), appID: "com.example.shop",
                                         callbackURL: "instoreapp://result", reference: "Order 42/Fish-and-Chips")
        }
    }

    @Test("An answer without the nonce in clientTransactionId, or without the reference sent, is refused")
    func theNonceAndTheReferenceMustComeBackInClientTransactionID() async throws {
        let ledger = ChargeLedger()
        let charge = try await Self.issueSale(ledger)
        let bare = Self.realAnswer(nonce: charge.nonce).replacingOccurrences(of: "\(charge.nonce.value).ord-7", with: charge.nonce.value)
        await #expect(throws: ChargeKitError.self) { try await ledger.verify(url: bare) }
        let elsewhere = Self.realAnswer(nonce: charge.nonce)
            .replacingOccurrences(of: "clientTransactionId=\(charge.nonce.value).ord-7", with: "clientTransactionId=ord-7")
            + "&chargekit-nonce=\(charge.nonce.value)"
        await #expect(throws: ChargeKitError.self) { try await ledger.verify(url: elsewhere) }
        // The genuine answer still passes: nothing was consumed by the refusals.
        #expect(try await ledger.verify(url: Self.realAnswer(nonce: charge.nonce)).isApprovedSale)
    }

    @Test("A real answer's masked accountNumber passes unchanged: the URL is kept byte for byte")
    func maskedValuesPassUnchanged() async throws {
        let ledger = ChargeLedger()
        let charge = try await Self.issueSale(ledger)
        let answer = Self.realAnswer(nonce: charge.nonce)
        let result = try await ledger.verify(url: answer)
        #expect(try await ledger.charge(for: result.charge.nonce)?.accepted?.url == answer)
    }

    @Test("A ledger of the earlier version holding an unmasked Viva card number is masked when next written")
    func storedCallbacksOfEarlierLedgersAreMasked() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("card-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let file = folder.appendingPathComponent("ledger.json")
        // What a version 2 ledger kept: the answer as it came, unmasked.
        let oldStore = InMemoryLedgerStore()
        let request = try Viva.PaymentRequest.sale(Money(minorUnits: 1000, currency: .eur), appID: "com.example.shop",
                                                   callbackURL: "instoreapp://result", reference: "ord-7")
        let (charge, _) = try await ChargeLedger(store: oldStore).issue { nonce throws(ChargeKitError) in request.handoff(nonce: nonce) }
        let unmaskedAnswer = Self.realAnswer(nonce: charge.nonce).replacingOccurrences(of: "535686******1364", with: "5356860000001364")
        let callback = try Viva.parse(unmaskedAnswer.replacingOccurrences(of: "5356860000001364", with: "535686******1364"), maximumLength: .max)
        _ = try await oldStore.consume(charge.nonce, at: Date(), accepting: AcceptedCallback(url: unmaskedAnswer, callback: callback, flags: []))
        var lines = [#"{"chargekit":"ledger-journal","version":2}"#]
        for entry in await oldStore.charges() { lines.append(#"{"put":"# + String(decoding: try JSONEncoder.storage.encode(entry), as: UTF8.self) + "}") }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: file)
        #expect(String(decoding: try Data(contentsOf: file), as: UTF8.self).contains("5356860000001364"))

        let store = LedgerFileTests.newProcessStore(file)
        #expect(try await store.charges().first?.accepted?.url.contains("5356860000001364") == false, "read unmasked")
        // The next write (any step) rewrites the file: the number is gone from the disk too.
        let ledger = ChargeLedger(store: store)
        _ = try await ledger.issue { nonce throws(ChargeKitError) in request.handoff(nonce: nonce) }
        let written = String(decoding: try Data(contentsOf: file), as: UTF8.self)
        #expect(!written.contains("5356860000001364") && written.contains("535686******1364"))
    }
}
