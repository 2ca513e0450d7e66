@_spi(Tools) @testable import ChargeKit
import ChargeKitSimulators
import Foundation
import Testing

@Suite struct SumUpTests {
    @Test func seedRequestExampleByteForByte() throws {
        let request = try SumUp.PaymentRequest(
            amount: try Money(parsing: "10.00", currency: .eur), title: "My title", affiliateKey: "YOUR-AFFILIATE-KEY",
            callbackSuccess: "samplepaymentapp://", callbackFailure: "samplepaymentapp://"
        )
        #expect(try request.requestURL() ==
            "sumupmerchant://pay/1.0?amount=10.00&currency=EUR&affiliate-key=YOUR-AFFILIATE-KEY&title=My%20title&callbackfail=samplepaymentapp%3A%2F%2F&callbacksuccess=samplepaymentapp%3A%2F%2F")
    }

    @Test func optionalParameters() throws {
        let request = try SumUp.PaymentRequest(
            amount: Money(minorUnits: 1, currency: .eur), affiliateKey: "K", receiptEmail: "a@b.co", receiptMobilePhone: "+4912345",
            foreignTransactionID: "order-1", skipSuccessScreen: true
        )
        #expect(try request.requestURL() ==
            "sumupmerchant://pay/1.0?amount=0.01&currency=EUR&affiliate-key=K&receipt-email=a%40b.co&receipt-mobilephone=%2B4912345&foreign-tx-id=order-1&skip-screen-success=true")
    }

    @Test func foreignTransactionIDRules() throws {
        try SumUp.validateForeignTransactionID(String(repeating: "a", count: 128))
        try SumUp.validateForeignTransactionID(" !~")
        #expect(throws: ChargeKitError.fieldTooLong("foreign-tx-id", limit: 128)) { try SumUp.validateForeignTransactionID(String(repeating: "a", count: 129)) }
        #expect(throws: ChargeKitError.invalidField("foreign-tx-id", rule: "must contain printable ASCII characters only")) { try SumUp.validateForeignTransactionID("café") }
        #expect(throws: ChargeKitError.invalidField("foreign-tx-id", rule: "must contain printable ASCII characters only")) { try SumUp.validateForeignTransactionID("a\tb") }
        #expect(throws: ChargeKitError.invalidField("foreign-tx-id", rule: "must not be empty")) { try SumUp.validateForeignTransactionID("") }
        // The request is refused when made: no value of it can hold the bad id.
        #expect(throws: ChargeKitError.invalidField("foreign-tx-id", rule: "must contain printable ASCII characters only")) {
            try SumUp.PaymentRequest(amount: Money(minorUnits: 1, currency: .eur), affiliateKey: "K", foreignTransactionID: "ü")
        }
        #expect(throws: ChargeKitError.invalidField("amount", rule: "must be greater than zero")) {
            try SumUp.PaymentRequest(amount: Money(minorUnits: 0, currency: .eur), affiliateKey: "K")
        }
        #expect(throws: ChargeKitError.missingField("affiliate-key")) { try SumUp.PaymentRequest(amount: Money(minorUnits: 1, currency: .eur), affiliateKey: "") }
    }

    @Test(arguments: [("success", SumUp.Callback.Status.success, ChargeOutcome.approved), ("failed", .failed, .declined), ("invalidstate", .invalidState, .failed)])
    func eachStatus(wire: String, status: SumUp.Callback.Status, outcome: ChargeOutcome) throws {
        let url = "app://cb?smp-status=\(wire)&smp-tx-code=TX1&foreign-tx-id=f%201&smp-message=Hello%20world"
        let callback = try SumUp.Callback(url: url)
        #expect(callback.status == status)
        #expect(callback.transactionCode == "TX1")
        #expect(callback.foreignTransactionID == "f 1")
        #expect(callback.message == "Hello world")
        #expect(try PaymentCallback.parse(url).outcome == outcome)
        #expect(try PaymentCallback.parse(url).providerStatus == wire)
    }

    @Test(arguments: [
        ("smp-tx-code=1", ChargeKitError.missingField("smp-status")),
        ("smp-status=ok", .invalidField("smp-status", rule: "must be success, failed or invalidstate")),
        ("smp-status=success&smp-status=failed", .duplicateField("smp-status")),
        ("smp-status=success&foreign-tx-id=%C3%BC", .invalidField("foreign-tx-id", rule: "must contain printable ASCII characters only")),
        ("smp-status=success&smp-tx-code=", .invalidField("smp-tx-code", rule: "must not be empty")),
    ])
    func callbackRules(query: String, error: ChargeKitError) {
        #expect(throws: error) { try SumUp.Callback(url: "app://cb?" + query) }
    }

    @Test func simulatorValidatesLikeTheApp() throws {
        let request = try SumUp.PaymentRequest(
            amount: Money(minorUnits: 100, currency: .eur), affiliateKey: "K", callbackSuccess: "app://ok", callbackFailure: "app://fail",
            foreignTransactionID: "F1"
        )
        let url = try request.requestURL()
        let approved = try SumUp.Callback(url: SumUpSimulator().respond(to: url, outcome: .approved))
        #expect(approved.callbackURL == "app://ok" && approved.status == .success && approved.foreignTransactionID == "F1")
        let wrongCurrency = try SumUp.Callback(url: SumUpSimulator(merchantCurrency: "GBP").respond(to: url, outcome: .approved))
        #expect(wrongCurrency.callbackURL == "app://fail" && wrongCurrency.status == .failed)
        let notReady = try SumUp.Callback(url: SumUpSimulator(isReady: false).respond(to: url, outcome: .approved))
        #expect(notReady.status == .invalidState)
        let missing = try SumUp.Callback(url: SumUpSimulator().respond(to: "sumupmerchant://pay/1.0?currency=EUR&affiliate-key=K&callbackfail=app%3A%2F%2Ffail", outcome: .approved))
        #expect(missing.status == .failed && missing.message == "Missing parameter: amount")
    }

    /// Checked when decoded as when made.
    @Test func decodingChecksAsMakingDoes() throws {
        let sumUp = try SumUp.PaymentRequest(amount: Money(minorUnits: 100, currency: .eur), affiliateKey: "K")
        #expect(throws: ChargeKitError.missingField("affiliate-key")) {
            try reDecoded(sumUp) { $0.replacingOccurrences(of: #""affiliateKey":"K""#, with: #""affiliateKey":"""#) }
        }
    }
}

/// SumUp's requests from a ChargeOrder, with SMPPaymentRequest's optional fields.
extension SumUpTests {
    @Test("PaymentApp.sumUp carries SMPPaymentRequest's optional fields: the receipt's address or phone, skipping the success screen")
    func optionalFieldsReachTheRequest() throws {
        let app = PaymentApp.sumUp(affiliateKey: "K", callbackURL: "my-shop://paid", receiptEmail: "ada@example.com",
                                   receiptMobilePhone: "+441234567890", skipSuccessScreen: true)
        let order = ChargeOrder(amount: Money(minorUnits: 1050, currency: .eur), description: "Flat white", reference: "ord-1")
        let url = try app.handoff(for: order, nonce: Nonce.random()).url
        for item in ["receipt-email=ada%40example.com", "receipt-mobilephone=%2B441234567890", "skip-screen-success=true"] {
            #expect(url.contains(item), "\(item) missing: \(url)")
        }
        let plain = try PaymentApp.sumUp(affiliateKey: "K", callbackURL: "my-shop://paid").handoff(for: order, nonce: Nonce.random()).url
        #expect(!plain.contains("receipt-") && !plain.contains("skip-screen-success=true"))
    }
}

/// SumUp's callbacks code as before values were kept as places (see ``CallbackOracles``).
@Suite struct SumUpCallbackTextTests {
    static let oracles: [(url: String, json: String)] = [
        (#"samplepaymentapp://?smp-status=success&smp-tx-code=TEENSY42&foreign-tx-id=ORDER-123&smp-message=Transaction%20successful"#,
         #"{"callbackURL":"samplepaymentapp://","extraItems":[],"foreignTransactionID":"ORDER-123","message":"Transaction successful","status":"success","tags":[],"transactionCode":"TEENSY42","unknownFields":[]}"#),
        (#"app://cb?smp-status=failed&smp-failure-cause=transaction-failed&smp-receipt-sent=false&smpprtag-x=1&smp-new=2&extra=%C3%A9&chargekit-nonce=abcdefghijklmnopqrstuvwxyzA&smp-message=%C3%89chec#f"#,
         #"{"callbackURL":"app://cb","extraItems":[{"name":"extra","value":"é"}],"failureCause":"transaction-failed","fragment":"f","message":"Échec","nonce":"abcdefghijklmnopqrstuvwxyzA","receiptSent":false,"status":"failed","tags":[{"name":"smpprtag-x","value":"1"}],"unknownFields":[{"name":"smp-new","value":"2"}]}"#),
        (#"app://cb?smp-status=failed&smp-failure-cause=weird-cause&smp-receipt-sent=true"#,
         #"{"callbackURL":"app://cb","extraItems":[],"failureCause":"weird-cause","receiptSent":true,"status":"failed","tags":[],"unknownFields":[]}"#),
        (#"app://cb?smp-status=invalidstate"#,
         #"{"callbackURL":"app://cb","extraItems":[],"status":"invalidstate","tags":[],"unknownFields":[]}"#),
    ]
    @Test func callbacksCodeAsBefore() throws {
        try CallbackOracles.check(Self.oracles) { try SumUp.Callback(url: $0) }
    }

    @Test func valuesReadDecoded() throws {
        let callback = try SumUp.Callback(url: Self.oracles[0].url)
        #expect(callback.callbackURL == "samplepaymentapp://")
        #expect(callback.message == "Transaction successful")
        #expect(callback.transactionCode == "TEENSY42")
        #expect(callback.fragment == nil && callback.nonce == nil)
        // Equal by value, wherever the text is kept: a parse of the same URL with the
        // message unescaped where it was escaped is the same callback.
        let again = try SumUp.Callback(url: Self.oracles[0].url.replacingOccurrences(of: "Transaction%20successful", with: "Transaction%20success%66ul"))
        #expect(callback == again && callback.hashValue == again.hashValue)
        let other = try SumUp.Callback(url: Self.oracles[0].url.replacingOccurrences(of: "TEENSY42", with: "TEENSY43"))
        #expect(callback != other)
    }

    @Test func valuesAreCheckedOnTheirDecodedBytes() {
        #expect(throws: ChargeKitError.self) { try SumUp.Callback(url: "app://cb?smp-status=success&smp-message=%FF") }
        #expect(throws: ChargeKitError.invalidField("smp-message", rule: "must not contain control characters")) {
            try SumUp.Callback(url: "app://cb?smp-status=success&smp-message=a%0Ab")
        }
        #expect(throws: ChargeKitError.invalidField("smp-status", rule: "must be success, failed or invalidstate")) {
            try SumUp.Callback(url: "app://cb?smp-status=succes")
        }
        #expect(throws: ChargeKitError.invalidField("smp-status", rule: "must not be empty")) {
            try SumUp.Callback(url: "app://cb?smp-status=")
        }
        #expect((try? SumUp.Callback(url: "app://cb?smp-status=succ%65ss"))?.status == .success)
        #expect(throws: ChargeKitError.invalidField("smp-tx-code", rule: "must contain printable ASCII characters only")) {
            try SumUp.Callback(url: "app://cb?smp-status=success&smp-tx-code=%C3%A9")
        }
    }
}
