import Foundation
import Testing
@_spi(Tools) @testable import ChargeKit

/// Callback values are kept as places in the callback URL's string (``CallbackText``)
/// instead of strings: these oracles, the JSON the types coded before that change,
/// hold them to the same values, the same coding and the same equality.
@Suite struct CallbackTextTests {
    static let creditCardTerminal: [(url: String, json: String)] = [
        (#"com-your-app://action/?ifcc_responseType=approved&ifcc_transactionId=100001&ifcc_amount=10.99&ifcc_currency=USD&ifcc_redactedCardNumber=XXXXXXXXXXXX1111&ifcc_cardType=Visa&ifcc_taxAmount=0.93&ifcc_taxRate=8.5&ifcc_tipAmount=1.50"#,
         #"{"amount":{"amount":"10.99","currency":"USD"},"cardType":"Visa","currency":"USD","currencyDefaulted":false,"extraItems":[],"format":"standard","redactedCardNumber":"XXXXXXXXXXXX1111","responseCode":"approved","returnURL":"com-your-app://action/","taxAmount":{"amount":"0.93","currency":"USD"},"taxRate":"8.5","tipAmount":{"amount":"1.50","currency":"USD"},"transactionId":"100001","unknownFields":[]}"#),
        (#"com-your-app://action/?$ifcc_responseType=approved&$ifcc_transactionId=100001&$ifcc_amount=10.99&$ifcc_currency=USD&$ifcc_redactedCardNumber=XXXXXXXXXXXX1111&$ifcc_cardType=Visa&$ifcc_taxAmount=0.93&$ifcc_taxRate=8.5&$ifcc_tipAmount=1.50"#,
         #"{"amount":{"amount":"10.99","currency":"USD"},"cardType":"Visa","currency":"USD","currencyDefaulted":false,"extraItems":[],"format":"fileMaker","redactedCardNumber":"XXXXXXXXXXXX1111","responseCode":"approved","returnURL":"com-your-app://action/","taxAmount":{"amount":"0.93","currency":"USD"},"taxRate":"8.5","tipAmount":{"amount":"1.50","currency":"USD"},"transactionId":"100001","unknownFields":[]}"#),
        (#"my-app://x/?ifcc_responseType=error&ifcc_errorMessage=Card%20reader%20%C3%A9chec&ifcc_request_nonce=abcdefghijklmnopqrstuvwxyzA&order=42&ifcc_newThing=%E2%9C%93&note=a%26b#frag"#,
         #"{"currencyDefaulted":false,"errorMessage":"Card reader échec","extraItems":[{"name":"order","value":"42"},{"name":"note","value":"a&b"}],"format":"standard","nonce":"abcdefghijklmnopqrstuvwxyzA","responseCode":"error","returnURL":"my-app://x/","unknownFields":[{"name":"ifcc_newThing","value":"✓"}]}"#),
        (#"my-app://x/?ifcc_responseType=approved&ifcc_amount=1000.00&ifcc_currency=JPY&ifcc_redactedCardNumber=1234&ifcc_cardType=Diners%20Club&ifcc_transactionId=%E2%9C%93x"#,
         #"{"amount":{"amount":"1000","currency":"JPY"},"cardType":"Diners Club","currency":"JPY","currencyDefaulted":false,"extraItems":[],"format":"standard","redactedCardNumber":"1234","responseCode":"approved","returnURL":"my-app://x/","transactionId":"✓x","unknownFields":[]}"#),
        (#"my-app://x/?ifcc_responseType=cancelled"#,
         #"{"currencyDefaulted":false,"extraItems":[],"format":"standard","responseCode":"cancelled","returnURL":"my-app://x/","unknownFields":[]}"#),
    ]
    static let sumUp: [(url: String, json: String)] = [
        (#"samplepaymentapp://?smp-status=success&smp-tx-code=TEENSY42&foreign-tx-id=ORDER-123&smp-message=Transaction%20successful"#,
         #"{"callbackURL":"samplepaymentapp://","extraItems":[],"foreignTransactionID":"ORDER-123","message":"Transaction successful","status":"success","tags":[],"transactionCode":"TEENSY42","unknownFields":[]}"#),
        (#"app://cb?smp-status=failed&smp-failure-cause=transaction-failed&smp-receipt-sent=false&smpprtag-x=1&smp-new=2&extra=%C3%A9&chargekit-nonce=abcdefghijklmnopqrstuvwxyzA&smp-message=%C3%89chec#f"#,
         #"{"callbackURL":"app://cb","extraItems":[{"name":"extra","value":"é"}],"failureCause":"transaction-failed","fragment":"f","message":"Échec","nonce":"abcdefghijklmnopqrstuvwxyzA","receiptSent":false,"status":"failed","tags":[{"name":"smpprtag-x","value":"1"}],"unknownFields":[{"name":"smp-new","value":"2"}]}"#),
        (#"app://cb?smp-status=failed&smp-failure-cause=weird-cause&smp-receipt-sent=true"#,
         #"{"callbackURL":"app://cb","extraItems":[],"failureCause":"weird-cause","receiptSent":true,"status":"failed","tags":[],"unknownFields":[]}"#),
        (#"app://cb?smp-status=invalidstate"#,
         #"{"callbackURL":"app://cb","extraItems":[],"status":"invalidstate","tags":[],"unknownFields":[]}"#),
    ]
    static let zettle: [(url: String, json: String)] = [
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

    private static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// Parses each URL, codes it, decodes the JSON and codes that again: the bytes of
    /// the oracle every time, and the decoded value equal to (and hashing as) the parsed one.
    private func check<T: Codable & Hashable>(_ cases: [(url: String, json: String)], _ parse: (String) throws -> T) throws {
        for (url, expected) in cases {
            let parsed = try parse(url)
            #expect(try Self.json(parsed) == expected, "\(url)")
            let decoded = try JSONDecoder().decode(T.self, from: Data(expected.utf8))
            #expect(decoded == parsed, "\(url)")
            #expect(decoded.hashValue == parsed.hashValue, "\(url)")
            #expect(try Self.json(decoded) == expected, "\(url)")
        }
    }

    @Test func creditCardTerminalResponsesCodeAsBefore() throws {
        try check(Self.creditCardTerminal) { try CreditCardTerminal.ChargeResponse(url: $0) }
    }

    @Test func sumUpCallbacksCodeAsBefore() throws {
        try check(Self.sumUp) { try SumUp.Callback(url: $0) }
    }

    @Test func zettleCallbacksCodeAsBefore() throws {
        try check(Self.zettle) { try Zettle.Callback(url: $0) }
    }

    @Test func valuesReadDecoded() throws {
        let callback = try SumUp.Callback(url: Self.sumUp[0].url)
        #expect(callback.callbackURL == "samplepaymentapp://")
        #expect(callback.message == "Transaction successful")
        #expect(callback.transactionCode == "TEENSY42")
        #expect(callback.fragment == nil && callback.nonce == nil)
        // Equal by value, wherever the text is kept: a parse of the same URL with the
        // message unescaped where it was escaped is the same callback.
        let again = try SumUp.Callback(url: Self.sumUp[0].url.replacingOccurrences(of: "Transaction%20successful", with: "Transaction%20success%66ul"))
        #expect(callback == again && callback.hashValue == again.hashValue)
        let other = try SumUp.Callback(url: Self.sumUp[0].url.replacingOccurrences(of: "TEENSY42", with: "TEENSY43"))
        #expect(callback != other)

        // Extras kept as places: the same items as a URL that spells them otherwise.
        let zettle = try Zettle.Callback(url: Self.zettle[1].url)
        #expect(zettle.operationUUID == "5F0B1B7C-9C1E-4B7A-9A7D-2E8C0D8E4F11")
        #expect(zettle.extraItems == [QueryItem("operationUUID", "5F0B1B7C-9C1E-4B7A-9A7D-2E8C0D8E4F11")])
    }

    /// A parsed callback keeps its payment info as places in the URL (one reference to
    /// the URL for them all); set in code, it keeps the value. Either way it reads,
    /// compares, hashes and codes as the ``Zettle/PaymentInfo`` it stands for.
    @Test func paymentInfoReadFromPlacesOrMadeInCode() throws {
        let parsed = try Zettle.Callback(url: Self.zettle[1].url)
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
        #expect(try Self.json(parsed) == Self.zettle[1].json)
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
        #expect((try? CreditCardTerminal.ChargeResponse(url: "a://b?ifcc_responseType=cancel%6Ced"))?.responseCode == .cancelled)
        #expect((try? Zettle.Callback(url: "a://b?entryMode=%45MV"))?.paymentInfo.entryMode == .emv)
        #expect(throws: ChargeKitError.invalidField("obfuscatedPan", rule: "must be masked like '**** **** **** 1111'")) {
            try Zettle.Callback(url: "a://b?obfuscatedPan=****%201234%2011")
        }
    }
}
