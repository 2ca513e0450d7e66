@_spi(Tools) @testable import ChargeKit
import ChargeKitSimulators
import Foundation
import Testing

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

    /// Checked when decoded as when made.
    @Test func decodingChecksAsMakingDoes() throws {
        let zettle = try Zettle.PaymentRequest(source: "S", successURL: "app://ok", failureURL: "app://ko", apiKey: "K",
                                               price: Money(minorUnits: 100, currency: .eur), title: "T")
        #expect(throws: ChargeKitError.missingField("title")) {
            try reDecoded(zettle) { $0.replacingOccurrences(of: #""title":"T""#, with: #""title":"""#) }
        }
        let api = try Zettle.APIRequest(operation: .query(reference: "R1"), successURL: "app://ok", failureURL: "app://ko")
        #expect(throws: ChargeKitError.invalidURL("successURL", rule: "must start with a scheme such as 'my-app:'")) {
            try reDecoded(api) { $0.replacingOccurrences(of: #""successURL":"app:\/\/ok""#, with: #""successURL":"ok""#) }
        }
    }
}

/// Zettle through the coordinator: a lost api/ charge settled by asking Zettle.
extension ZettleTests {
    @Test func aLostZettleChargeIsSettledByAskingZettle() async throws {
        let store = InMemoryLedgerStore()
        let inbox = Inbox()
        let device = SimulatedDevice(apps: SimulatedApps(ZettleSimulator(accountCurrency: "SEK"))) { url in await inbox.deliver(url) }
        let sek = try Currency(code: "SEK")
        let app = PaymentApp.zettleAPI(callbackURL: "my-app://zettle")
        // Zettle takes the first payment, but the app is killed before the callback; the second never reaches Zettle.
        let paidOpener = ClosureURLOpener { (url: String) async throws(ChargeKitError) in _ = try await device.callback(for: url) }
        let paid = PaymentCoordinator(ledger: ChargeLedger(store: store), opener: paidOpener)
        let first = Task { try await paid.charge(ChargeOrder(amount: Money(minorUnits: 1250, currency: sek), reference: "order-5"), via: app) }
        let lost = PaymentCoordinator(ledger: ChargeLedger(store: store), opener: ClosureURLOpener { _ in })
        let second = Task { try await lost.charge(ChargeOrder(amount: Money(minorUnits: 990, currency: sek), reference: "order-6"), via: app) }
        let open = try await waitForPending(paid, count: 2)

        let coordinator = PaymentCoordinator(ledger: ChargeLedger(store: store), opener: device)
        await inbox.set(coordinator)
        let paidCharge = try #require(open.first { $0.request.reference == "order-5" })
        let settled = try await coordinator.resolveByQuery(paidCharge, callbackURL: "my-app://zettle")
        #expect(settled.resolution?.outcome == .approved && settled.resolution?.note.hasPrefix("Zettle payment/query: paid, referenceNumber ") == true)
        let neverPaid = try #require(open.first { $0.request.reference == "order-6" })
        let cancelled = try await coordinator.resolveByQuery(neverPaid, callbackURL: "my-app://zettle")
        #expect(cancelled.resolution?.outcome == .cancelled && cancelled.resolution?.note.contains("No payment with that reference") == true)
        #expect(try await coordinator.pending().isEmpty)
        await #expect(throws: ChargeKitError.self) { try await first.value }
        await #expect(throws: ChargeKitError.self) { try await second.value }

        // A Zettle 1.0 payment cannot be asked about over the scheme.
        let old = PaymentCoordinator(ledger: ChargeLedger(store: store), opener: ClosureURLOpener { _ in })
        let third = Task { try await old.charge(ChargeOrder(amount: Money(minorUnits: 100, currency: sek), description: "Tea", reference: "R"),
                                                 via: .zettle(apiKey: "K", source: "Shop", callbackURL: "my-app://zettle")) }
        let legacy = try #require(try await waitForPending(old, count: 1).first)
        await #expect(throws: ChargeKitError.invalidField("charge", rule: "only a Zettle izettle://api/payment/charge hand-off can be asked about")) {
            try await coordinator.resolveByQuery(legacy, callbackURL: "my-app://zettle")
        }
        third.cancel()
    }
}

/// Zettle's callbacks code as before values were kept as places (see ``CallbackOracles``).
@Suite struct ZettleCallbackTextTests {
    static let oracles: [(url: String, json: String)] = [
        (#"my-app://ok?reference=R1&referenceNumber=ABC123&entryMode=EMV&obfuscatedPan=****%20****%20****%201111&cardBrand=VISA&AID=A0000000031010"#,
         #"{"callbackURL":"my-app://ok","extraItems":[],"paymentInfo":{"aid":"A0000000031010","cardBrand":"VISA","entryMode":"EMV","obfuscatedPan":"**** **** **** 1111","referenceNumber":"ABC123"},"reference":"R1","succeeded":true}"#),
        (#"my-app://ok?operationUUID=5F0B1B7C-9C1E-4B7A-9A7D-2E8C0D8E4F11&reference=R1&referenceNumber=ABC123&entryMode=EMV&obfuscatedPan=****%20****%20****%201111&cardBrand=VISA&AID=A0000000031010&TSI=E800&TVR=0000008000&applicationName=VISA%20CREDIT"#,
         #"{"callbackURL":"my-app://ok","extraItems":[{"name":"operationUUID","value":"5F0B1B7C-9C1E-4B7A-9A7D-2E8C0D8E4F11"}],"paymentInfo":{"aid":"A0000000031010","applicationName":"VISA CREDIT","cardBrand":"VISA","entryMode":"EMV","obfuscatedPan":"**** **** **** 1111","referenceNumber":"ABC123","tsi":"E800","tvr":"0000008000"},"reference":"R1","succeeded":true}"#),
        (#"my-app://fail?errorCode=CancelledByUser&errorMessage=User%20cancelled&chargekit-callback=failure&chargekit-nonce=abcdefghijklmnopqrstuvwxyzA&mine=1"#,
         #"{"callbackMarker":"failure","callbackURL":"my-app://fail","errorCode":"CancelledByUser","errorMessage":"User cancelled","extraItems":[{"name":"mine","value":"1"}],"nonce":"abcdefghijklmnopqrstuvwxyzA","paymentInfo":{},"succeeded":false}"#),
        (#"my-app://fail?errorMessage=com.izettle.session.error(10)%20-%20busy%20%3CUnderlyingError%3E:%20x"#,
         #"{"callbackURL":"my-app://fail","errorMessage":"com.izettle.session.error(10) - busy <UnderlyingError>: x","extraItems":[],"paymentInfo":{},"succeeded":false}"#),
        (#"my-app://ok?entryMode=CONTACTLESS&panHash=abc&numberOfInstallments=3&installmentAmount=10.50&authorizationCode=A1&chargekit-callback=success"#,
         #"{"callbackMarker":"success","callbackURL":"my-app://ok","extraItems":[],"paymentInfo":{"authorizationCode":"A1","entryMode":"CONTACTLESS","installmentAmount":"10.50","numberOfInstallments":3,"panHash":"abc"},"succeeded":true}"#),
        // Extras kept as places: escaped names and values, a bare name, an empty value, in order around the fields.
        (#"my-app://ok?n%61me=a%26b&reference=R1&bare&empty=&x%20y=%C3%A9+1&cardBrand=VISA&last=%7E"#,
         #"{"callbackURL":"my-app://ok","extraItems":[{"name":"name","value":"a&b"},{"name":"bare","value":""},{"name":"empty","value":""},{"name":"x y","value":"é+1"},{"name":"last","value":"~"}],"paymentInfo":{"cardBrand":"VISA"},"reference":"R1","succeeded":true}"#),
    ]

    @Test func callbacksCodeAsBefore() throws {
        try CallbackOracles.check(Self.oracles) { try Zettle.Callback(url: $0) }
    }

    @Test func extrasKeptAsPlaces() throws {
        // Extras kept as places: the same items as a URL that spells them otherwise.
        let zettle = try Zettle.Callback(url: Self.oracles[1].url)
        #expect(zettle.operationUUID == "5F0B1B7C-9C1E-4B7A-9A7D-2E8C0D8E4F11")
        #expect(zettle.extraItems == [QueryItem("operationUUID", "5F0B1B7C-9C1E-4B7A-9A7D-2E8C0D8E4F11")])
    }

    /// A parsed callback keeps its payment info as places in the URL (one reference to
    /// the URL for them all); set in code, it keeps the value. Either way it reads,
    /// compares, hashes and codes as the ``Zettle/PaymentInfo`` it stands for.
    @Test func paymentInfoReadFromPlacesOrMadeInCode() throws {
        let parsed = try Zettle.Callback(url: Self.oracles[1].url)
        let info = parsed.paymentInfo
        #expect(info.obfuscatedPan == "**** **** **** 1111" && info.applicationName == "VISA CREDIT")
        #expect(info.aid == "A0000000031010" && info.tsi == "E800" && info.entryMode == .emv && info.panHash == nil)
        var rebuilt = Zettle.PaymentInfo()
        rebuilt.referenceNumber = "ABC123"
        rebuilt.entryMode = .emv
        rebuilt.obfuscatedPan = "**** **** **** 1111"
        rebuilt.cardBrand = "VISA"
        rebuilt.aid = "A0000000031010"
        rebuilt.tsi = "E800"
        rebuilt.tvr = "0000008000"
        rebuilt.applicationName = "VISA CREDIT"
        #expect(rebuilt == info && rebuilt.hashValue == info.hashValue, "set in code, equal by value")
        #expect(try CallbackOracles.json(parsed) == Self.oracles[1].json)
        rebuilt.cardBrand = "MASTERCARD"
        #expect(rebuilt != info && parsed.paymentInfo.cardBrand == "VISA", "the parsed value keeps its own")
    }

    @Test func paymentInfoSetInCodeIsNotEmpty() {
        var info = Zettle.PaymentInfo()
        #expect(info.isEmpty)
        info.cardBrand = "VISA"
        #expect(!info.isEmpty && info.cardBrand == "VISA")
        info.cardBrand = nil
        #expect(info.isEmpty)
    }

    @Test func valuesAreCheckedOnTheirDecodedBytes() {
        #expect((try? Zettle.Callback(url: "a://b?entryMode=%45MV"))?.paymentInfo.entryMode == .emv)
        #expect(throws: ChargeKitError.invalidField("obfuscatedPan", rule: "must be masked like '**** **** **** 1111'")) {
            try Zettle.Callback(url: "a://b?obfuscatedPan=****%201234%2011")
        }
    }
}
