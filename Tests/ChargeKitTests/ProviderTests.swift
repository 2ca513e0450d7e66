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
}

@Suite struct ZettleTests {
    let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF, 0xFE])

    func version1(title: String = "Painting", reference: String? = nil, image: Data? = nil) throws(ChargeKitError) -> Zettle.PaymentRequest {
        try Zettle.PaymentRequest(source: "My App", successURL: "app://ok", failureURL: "app://fail", apiKey: "KEY",
                                  price: Money(minorUnits: 1050, currency: .eur), title: title, reference: reference, image: image)
    }

    @Test func version1RequestWithBase64Image() throws {
        let request = try version1(reference: "R-1", image: png)
        let url = try request.requestURL()
        #expect(url == "izettle://x-callback-url/payment/1.0?x-source=My%20App&x-success=app%3A%2F%2Fok&x-failure=app%3A%2F%2Ffail&api-key=KEY&price=10.50&currency=EUR&title=Painting&reference=R-1&image=iVBORw0KGgoA%2F%2F4%3D")
        let image = try #require(try QueryURL(parsing: url).items.first { $0.name == "image" }?.value)
        #expect(Data(base64Encoded: image) == png)
    }

    @Test func imageRules() {
        #expect(throws: ChargeKitError.invalidField("image", rule: "must be a PNG or JPEG image")) { try version1(image: Data("GIF89a".utf8)) }
        #expect(throws: ChargeKitError.fieldTooLong("image", limit: Zettle.maximumImageBytes)) {
            try version1(image: Data([0xFF, 0xD8, 0xFF]) + Data(count: Zettle.maximumImageBytes))
        }
        #expect(throws: ChargeKitError.missingField("title")) { try version1(title: "") }
        #expect(throws: ChargeKitError.invalidField("reference", rule: "must not be empty")) { try version1(reference: "") }
    }

    @Test func apiOperations() throws {
        let money = Money(minorUnits: 2000, currency: .eur)
        let charge = try Zettle.APIRequest(operation: .charge(amount: money, reference: "R1"), successURL: "app://ok", failureURL: "app://fail",
                                           referralCode: "REF", enforcedUserAccount: "me@shop.se")
        #expect(try charge.requestURL() == "izettle://api/payment/charge?amount=20.00&currency=EUR&reference=R1&successURL=app%3A%2F%2Fok&failureURL=app%3A%2F%2Ffail&referralCode=REF&enforcedUserAccount=me%40shop.se")
        let refund = try Zettle.APIRequest(operation: .refund(originalReference: "R1", reference: "R2", amount: nil), successURL: "app://ok", failureURL: "app://fail")
        #expect(try refund.requestURL() == "izettle://api/payment/refund?originalReference=R1&reference=R2&successURL=app%3A%2F%2Fok&failureURL=app%3A%2F%2Ffail")
        let query = try Zettle.APIRequest(operation: .query(reference: "R1"), successURL: "app://ok", failureURL: "app://fail")
        #expect(try query.requestURL() == "izettle://api/payment/query?reference=R1&successURL=app%3A%2F%2Fok&failureURL=app%3A%2F%2Ffail")
        let open = try Zettle.APIRequest(operation: .open, successURL: "app://ok", failureURL: "app://fail")
        #expect(try open.requestURL() == "izettle://api/open?successURL=app%3A%2F%2Fok&failureURL=app%3A%2F%2Ffail")
        // Refused when made: no value of the type can hold them.
        #expect(throws: ChargeKitError.fieldTooLong("reference", limit: 128)) {
            try Zettle.APIRequest(operation: .charge(amount: money, reference: String(repeating: "r", count: 129)), successURL: "app://ok", failureURL: "app://fail")
        }
        #expect(throws: ChargeKitError.invalidField("reference", rule: "must differ from originalReference")) {
            try Zettle.APIRequest(operation: .refund(originalReference: "R1", reference: "R1", amount: nil), successURL: "app://ok", failureURL: "app://fail")
        }
    }

    @Test(arguments: [("TechnicalError", ChargeOutcome.failed), ("CancelledByUser", .cancelled), ("InvalidCurrency", .failed), ("InvalidState", .failed), ("MissingParameter", .failed)])
    func eachErrorCode(code: String, outcome: ChargeOutcome) throws {
        let callback = try PaymentCallback.parse("app://fail?reference=R1&errorCode=\(code)")
        #expect(callback.provider == .zettle)
        #expect(callback.outcome == outcome)
        #expect(callback.providerStatus == code)
        guard let zettle = callback.zettle else { Issue.record("not zettle"); return }
        #expect(zettle.errorCode?.rawValue == code)
        #expect(Zettle.ErrorCode.documented.contains(zettle.errorCode ?? .other("")))
        #expect(zettle.reference == "R1")
    }

    @Test func apiSuccessCarriesPaymentInfo() throws {
        let url = "app://ok?reference=R1&referenceNumber=123&entryMode=EMV&obfuscatedPan=****%20****%20****%201111&panHash=abc&cardBrand=VISA&AID=A0000000031010&TSI=F800&TVR=0000008000&applicationName=VISA%20CREDIT&numberOfInstallments=3&installmentAmount=6.67"
        let callback = try Zettle.Callback(url: url)
        #expect(callback.succeeded)
        let info = callback.paymentInfo
        #expect(info.referenceNumber == "123" && info.entryMode == .emv && info.obfuscatedPan == "**** **** **** 1111")
        #expect(info.panHash == "abc" && info.cardBrand == "VISA" && info.aid == "A0000000031010" && info.tsi == "F800")
        #expect(info.tvr == "0000008000" && info.applicationName == "VISA CREDIT" && info.numberOfInstallments == 3 && info.installmentAmount == "6.67")
        #expect(throws: ChargeKitError.invalidField("obfuscatedPan", rule: "must be masked like '**** **** **** 1111'")) {
            try Zettle.Callback(url: "app://ok?obfuscatedPan=4111111111111111x")
        }
        #expect(throws: ChargeKitError.unexpectedField("referenceNumber", rule: "a failure callback carries no payment info")) {
            try Zettle.Callback(url: "app://fail?errorMessage=no&referenceNumber=1")
        }
        #expect(throws: ChargeKitError.missingField("errorCode")) { try Zettle.Callback(url: "app://fail?chargekit-callback=failure") }
    }

    @Test func simulatorVersion1ErrorCodes() throws {
        let url = try version1().requestURL()
        func code(_ simulator: ZettleSimulator, _ outcome: ChargeOutcome = .approved, _ request: String? = nil) throws -> String? {
            var simulator = simulator
            return try Zettle.Callback(url: simulator.respond(to: request ?? url, outcome: outcome)).errorCode?.rawValue
        }
        #expect(try code(ZettleSimulator(accountCurrency: "EUR")) == nil)
        #expect(try code(ZettleSimulator(accountCurrency: "SEK")) == "InvalidCurrency")
        #expect(try code(ZettleSimulator(accountCurrency: "EUR", isLoggedIn: false)) == "InvalidState")
        #expect(try code(ZettleSimulator(accountCurrency: "EUR"), .cancelled) == "CancelledByUser")
        #expect(try code(ZettleSimulator(accountCurrency: "EUR"), .failed) == "TechnicalError")
        let noTitle = url.replacingOccurrences(of: "&title=Painting", with: "")
        #expect(try code(ZettleSimulator(accountCurrency: "EUR"), .approved, noTitle) == "MissingParameter")
    }

    @Test func simulatorQueryRecoversAPayment() throws {
        var simulator = ZettleSimulator(accountCurrency: "EUR")
        let charge = try Zettle.APIRequest(operation: .charge(amount: Money(minorUnits: 100, currency: .eur), reference: "R9"), successURL: "app://ok", failureURL: "app://fail")
        let paid = try Zettle.Callback(url: simulator.respond(to: charge.requestURL(), outcome: .approved))
        let query = try Zettle.APIRequest(operation: .query(reference: "R9"), successURL: "app://ok", failureURL: "app://fail")
        let recovered = try Zettle.Callback(url: simulator.respond(to: query.requestURL(), outcome: .approved))
        #expect(recovered.succeeded && recovered.paymentInfo == paid.paymentInfo)
        let unknown = try Zettle.APIRequest(operation: .query(reference: "nope"), successURL: "app://ok", failureURL: "app://fail")
        #expect(try Zettle.Callback(url: simulator.respond(to: unknown.requestURL(), outcome: .approved)).succeeded == false)
    }
}

@Suite struct CreditCardTerminalSimulatorTests {
    func url(_ query: String) -> String { "com-innerfence-ccterminal://charge/1.0.0/?returnURL=app%3A%2F%2Fx&" + query }

    @Test func taxTipAndDefaultRate() throws {
        var configuration = CreditCardTerminalSimulator.Configuration()
        configuration.defaultTaxRate = "8.25"
        let simulator = CreditCardTerminalSimulator(configuration: configuration)
        let taxed = try CreditCardTerminal.ChargeResponse(url: simulator.respond(to: url("amount=10.10&taxRate=default"), outcome: .approved, tip: "1.50", transactionID: "7"))
        #expect(taxed.taxAmount?.formatted == "0.83")
        #expect(taxed.taxRate == "8.25")
        #expect(taxed.tipAmount?.formatted == "1.50")
        #expect(taxed.amount?.formatted == "12.43")
        #expect(taxed.transactionId == "7")
        #expect(taxed.redactedCardNumber == "XXXXXXXXXXXX1111" && taxed.cardType == .visa)
        let halfUp = try CreditCardTerminal.ChargeResponse(url: simulator.respond(to: url("amount=1.00&taxRate=8.5"), outcome: .approved))
        #expect(halfUp.taxAmount?.formatted == "0.09")
        let untaxed = try CreditCardTerminal.ChargeResponse(url: simulator.respond(to: url("amount=1.00"), outcome: .approved))
        #expect(untaxed.taxAmount == nil && untaxed.taxRate == nil && untaxed.tipAmount == nil)
    }

    @Test func everyOutcome() throws {
        let simulator = CreditCardTerminalSimulator()
        for (outcome, code) in [(ChargeOutcome.approved, CreditCardTerminal.ChargeResponse.ResponseCode.approved), (.declined, .declined), (.cancelled, .cancelled), (.failed, .error)] {
            let response = try CreditCardTerminal.ChargeResponse(url: simulator.respond(to: url("amount=1.00&fm=1"), outcome: outcome))
            #expect(response.responseCode == code)
            #expect(response.format == .fileMaker)
        }
    }

    @Test func refusesWhatTheAppWould() {
        let simulator = CreditCardTerminalSimulator()
        #expect(throws: ChargeKitError.missingField("returnURL")) { try simulator.respond(to: "com-innerfence-ccterminal://charge/1.0.0/?amount=1.00", outcome: .approved) }
        #expect(throws: ChargeKitError.fieldTooLong("zip", limit: 20)) { try simulator.respond(to: url("zip=" + String(repeating: "9", count: 21)), outcome: .approved) }
        #expect(throws: ChargeKitError.unexpectedField("amout", rule: "not a Credit Card Terminal request field")) { try simulator.respond(to: url("amout=1.00"), outcome: .approved) }
        #expect(throws: ChargeKitError.duplicateField("amount")) { try simulator.respond(to: url("amount=1.00&amount=2.00"), outcome: .approved) }
        #expect(throws: ChargeKitError.self) { try simulator.respond(to: "com-innerfence-ccterminal://charge/2.0.0/?returnURL=app%3A%2F%2Fx", outcome: .approved) }
    }
}

@Suite struct CallbackExtrasClashTests {
    /// An extra whose name is already in the callback URL's own query is refused up
    /// front: the callback would carry the name twice and no parser accepts that.
    @Test func extrasMayNotRepeatANameOfTheCallbackURL() async throws {
        let order = ChargeOrder(amount: Money(minorUnits: 500, currency: .usd), description: "Tea", reference: "R1",
                                extras: [QueryItem("shop", "2")])
        for app in [PaymentApp.sumUp(affiliateKey: "AFF", callbackURL: "my-shop://done?shop=1"),
                    .zettle(apiKey: "KEY", source: "Shop", callbackURL: "my-shop://done?shop=1"),
                    .zettleAPI(callbackURL: "my-shop://done?shop=1")] {
            let (coordinator, device, _) = await makeStack()
            await #expect(throws: ChargeKitError.duplicateField("shop")) { try await coordinator.charge(order, via: app) }
            #expect(await device.delivered.isEmpty, "nothing opened")
        }
        let (coordinator, _, _) = await makeStack()
        let fine = try await coordinator.charge(order, via: .sumUp(affiliateKey: "AFF", callbackURL: "my-shop://done?other=1"))
        #expect(fine.outcome == .approved && fine.callback.extraItems.contains(QueryItem("shop", "2")))
    }
}

/// Every app's request is checked when made, and when decoded: no value of a request
/// type can hold what its initializer refuses.
@Suite struct RequestsCheckedWhenMadeTests {
    /// `value` encoded, `change` applied to its JSON text, decoded again.
    func decoded<T: Codable>(_ value: T, _ change: (String) -> String) throws -> T {
        let json = String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
        #expect(try JSONDecoder().decode(T.self, from: Data(json.utf8)) as? AnyHashable == value as? AnyHashable)
        return try JSONDecoder().decode(T.self, from: Data(change(json).utf8))
    }

    @Test func decodingChecksAsMakingDoes() throws {
        let sumUp = try SumUp.PaymentRequest(amount: Money(minorUnits: 100, currency: .eur), affiliateKey: "K")
        #expect(throws: ChargeKitError.missingField("affiliate-key")) {
            try decoded(sumUp) { $0.replacingOccurrences(of: #""affiliateKey":"K""#, with: #""affiliateKey":"""#) }
        }
        let zettle = try Zettle.PaymentRequest(source: "S", successURL: "app://ok", failureURL: "app://ko", apiKey: "K",
                                               price: Money(minorUnits: 100, currency: .eur), title: "T")
        #expect(throws: ChargeKitError.missingField("title")) {
            try decoded(zettle) { $0.replacingOccurrences(of: #""title":"T""#, with: #""title":"""#) }
        }
        let api = try Zettle.APIRequest(operation: .query(reference: "R1"), successURL: "app://ok", failureURL: "app://ko")
        #expect(throws: ChargeKitError.invalidURL("successURL", rule: "must start with a scheme such as 'my-app:'")) {
            try decoded(api) { $0.replacingOccurrences(of: #""successURL":"app:\/\/ok""#, with: #""successURL":"ok""#) }
        }
        var fields = CreditCardTerminal.ChargeRequest.Fields()
        fields.zip = "78701"
        let request = try CreditCardTerminal.ChargeRequest(fields)
        #expect(request.zip == "78701")
        #expect(throws: ChargeKitError.fieldTooLong("zip", limit: 20)) {
            try decoded(request) { $0.replacingOccurrences(of: "78701", with: String(repeating: "7", count: 21)) }
        }
    }
}
