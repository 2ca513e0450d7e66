@_spi(Tools) @testable import ChargeKit
import ChargeKitSimulators
import Foundation
import Testing

@Suite struct CreditCardTerminalRequestTests {
    @Test func seedRequestExampleByteForByte() throws {
        var request = CreditCardTerminal.ChargeRequest.Fields()
        request.amount = try Money(parsing: "10.99", currency: .usd)
        request.email = "john@example.com"
        request.returnURL = "com-your-app://action/"
        #expect(try CreditCardTerminal.ChargeRequest(request).requestURL() ==
            "com-innerfence-ccterminal://charge/1.0.0/?amount=10.99&email=john%40example.com&returnURL=com-your-app%3A%2F%2Faction%2F")
    }

    @Test func everyFieldSortedByNameAndExtrasOnTheReturnURL() throws {
        var request = CreditCardTerminal.ChargeRequest.Fields()
        request.setReturnURL("com-innerfence-ChargeDemo://chargeResponse", extraParams: [QueryItem("record_id", "123")])
        request.returnAppName = "Charge Demo"
        request.returnImmediately = true
        request.fileMakerFormat = true
        request.amount = try Money(parsing: "50.00", currency: .usd)
        request.amountFixed = true
        request.taxRate = try .init(parsing: "8.5")
        request.currency = .usd
        request.email = "a@b.co"
        request.firstName = "John"
        request.lastName = "Smith"
        request.company = "Acme"
        request.address = "1 Main St"
        request.city = "Austin"
        request.state = "TX"
        request.zip = "78701"
        request.phone = "+1 (512) 555-0100"
        request.country = "US"
        request.invoiceNumber = "321"
        request.description = "Test transaction"
        let url = try CreditCardTerminal.ChargeRequest(request).requestURL()
        let items = try QueryURL(parsing: url).items
        #expect(items.map(\.name) == [
            "address", "amount", "amountFixed", "city", "company", "country", "currency", "description", "email",
            "firstName", "fm", "invoiceNumber", "lastName", "phone", "returnAppName", "returnImmediately", "returnURL",
            "state", "taxRate", "zip",
        ])
        #expect(items.first { $0.name == "returnURL" }?.value == "com-innerfence-ChargeDemo://chargeResponse?record_id=123")
        #expect(url.contains("description=Test%20transaction"))
        #expect(items.first { $0.name == "fm" }?.value == "1")
    }

    @Test func emptyFieldsAreOmitted() throws {
        var request = CreditCardTerminal.ChargeRequest.Fields()
        request.email = ""
        request.company = ""
        #expect(try CreditCardTerminal.ChargeRequest(request).requestURL() == "com-innerfence-ccterminal://charge/1.0.0/?")
    }

    @Test func nonceGoesOnTheReturnURLAfterTheExtras() throws {
        var request = CreditCardTerminal.ChargeRequest.Fields()
        request.setReturnURL("app://x", extraParams: [QueryItem("record_id", "1")])
        let nonce = Nonce.random()
        #expect(request.effectiveReturnURL(nonce: nonce) == "app://x?record_id=1&ifcc_request_nonce=\(nonce.value)")
    }

    nonisolated(unsafe) static let limitCases: [(WritableKeyPath<CreditCardTerminal.ChargeRequest.Fields, String?>, String, Int)] = [
        (\.address, "address", 60), (\.city, "city", 40), (\.company, "company", 50), (\.country, "country", 60),
        (\.description, "description", 255), (\.firstName, "firstName", 50), (\.invoiceNumber, "invoiceNumber", 20),
        (\.lastName, "lastName", 50), (\.state, "state", 40), (\.zip, "zip", 20),
    ]

    @Test func everyTextLimit() throws {
        for (path, name, limit) in Self.limitCases {
            var request = CreditCardTerminal.ChargeRequest.Fields()
            request[keyPath: path] = String(repeating: "é", count: limit)
            _ = try CreditCardTerminal.ChargeRequest(request)
            request[keyPath: path] = String(repeating: "é", count: limit + 1)
            #expect(throws: ChargeKitError.fieldTooLong(name, limit: limit)) { try CreditCardTerminal.ChargeRequest(request).requestURL() }
        }
        var request = CreditCardTerminal.ChargeRequest.Fields()
        request.email = String(repeating: "a", count: 250) + "@b.com"
        #expect(throws: ChargeKitError.fieldTooLong("email", limit: 255)) { _ = try CreditCardTerminal.ChargeRequest(request) }
    }

    @Test func fieldRules() throws {
        func failure(_ change: (inout CreditCardTerminal.ChargeRequest.Fields) throws -> Void) throws -> ChargeKitError? {
            var request = CreditCardTerminal.ChargeRequest.Fields()
            request.returnURL = "app://x"
            try change(&request)
            do { _ = try CreditCardTerminal.ChargeRequest(request) } catch { return error }
            return nil
        }
        #expect(try failure { $0.email = "not-an-email" } == .invalidField("email", rule: "must be an address like name@example.com"))
        #expect(try failure { $0.phone = "12345678901234567890123456" } == .invalidField("phone", rule: "must have 1 to 25 digits"))
        #expect(try failure { $0.phone = "555-CALL" } == .invalidField("phone", rule: "may contain only digits, spaces and + - ( ) ."))
        #expect(try failure { $0.phone = "+1 (512) 555-0100" } == nil)
        #expect(try failure { $0.amount = Money(minorUnits: 0, currency: .usd) } == .invalidField("amount", rule: "must be greater than zero"))
        #expect(try failure { $0.amount = Money(minorUnits: 1_000_000_000_000_000, currency: .usd) } == .invalidField("amount", rule: "must have at most 15 digits"))
        #expect(try failure { $0.amount = Money(minorUnits: 100_000_000_000_000, currency: .usd) } == nil)
        #expect(try failure { $0.amount = Money(minorUnits: 100, currency: .eur) } ==
            .invalidField("currency", rule: "must be set for an amount in EUR; USD is assumed when absent"))
        #expect(try failure { $0.amount = Money(minorUnits: 100, currency: .eur); $0.currency = .usd } ==
            .invalidField("currency", rule: "must match the amount's currency EUR"))
        #expect(try failure { $0.taxRate = .percent("100") } != nil)
        #expect(try failure { $0.city = "Austin\nTX" } == .invalidField("city", rule: "must not contain control characters"))
        #expect(try failure { $0.returnURL = "not a url" } == .invalidURL("returnURL", rule: "contains a space or control character"))
        #expect(try failure { $0.returnURL = "app://x#frag" } == .invalidURL("returnURL", rule: "must not have a #fragment"))
        #expect(try failure { $0.extraParams = [QueryItem("ifcc_amount", "1")] } ==
            .invalidField("ifcc_amount", rule: "names starting with ifcc_ are reserved for the response"))
        #expect(try failure { $0.extraParams = [QueryItem("a", "1"), QueryItem("a", "2")] } == .duplicateField("a"))
        #expect(try failure { $0.returnURL = nil; $0.extraParams = [QueryItem("a", "1")] } == .missingField("returnURL"))
    }

    @Test(arguments: ["8", "8.5", "8.25", "8.125", "0", "99.999", "default"])
    func validTaxRates(text: String) throws {
        #expect(try CreditCardTerminal.TaxRate(parsing: text).description == text)
    }

    @Test(arguments: ["100", "8.1234", "-1", "8.", ".5", "8,5", "", "Default"])
    func invalidTaxRates(text: String) {
        #expect(throws: ChargeKitError.self) { try CreditCardTerminal.TaxRate(parsing: text) }
    }
}

@Suite struct CreditCardTerminalResponseTests {
    static let seed = "com-your-app://action/?ifcc_responseType=approved&ifcc_transactionId=100001&ifcc_amount=10.99&ifcc_currency=USD&ifcc_redactedCardNumber=XXXXXXXXXXXX1111&ifcc_cardType=Visa&ifcc_taxAmount=0.93&ifcc_taxRate=8.5&ifcc_tipAmount=1.50"

    @Test func seedResponseExampleFieldForField() throws {
        let response = try CreditCardTerminal.ChargeResponse(url: Self.seed)
        #expect(response.returnURL == "com-your-app://action/")
        #expect(response.responseCode == .approved)
        #expect(response.transactionId == "100001")
        #expect(response.amount == Money(minorUnits: 1099, currency: .usd))
        #expect(response.currency == .usd)
        #expect(response.currencyDefaulted == false)
        #expect(response.redactedCardNumber == "XXXXXXXXXXXX1111")
        #expect(response.cardType == .visa)
        #expect(response.taxAmount == Money(minorUnits: 93, currency: .usd))
        #expect(response.taxRate == "8.5")
        #expect(response.tipAmount == Money(minorUnits: 150, currency: .usd))
        #expect(response.subtotal == Money(minorUnits: 856, currency: .usd))
        #expect(response.extraItems.isEmpty)
        #expect(response.nonce == nil)
        #expect(response.format == .standard)
    }

    @Test func fileMakerFormat() throws {
        let url = "app://x?record_id=1&$ifcc_responseType=approved&$ifcc_amount=1.00&$ifcc_redactedCardNumber=1111"
        let response = try CreditCardTerminal.ChargeResponse(url: url)
        #expect(response.format == .fileMaker)
        #expect(response.extraParams == ["record_id": "1"])
        #expect(response.currency == .usd)
        #expect(response.currencyDefaulted)
        let encodedDollar = try CreditCardTerminal.ChargeResponse(url: "app://x?%24ifcc_responseType=cancelled")
        #expect(encodedDollar.format == .fileMaker)
    }

    @Test func seedsFileMakerSentenceValueIsNotAResponseType() {
        #expect(throws: ChargeKitError.invalidField("$ifcc_responseType", rule: "must be approved, cancelled, declined or error")) {
            try CreditCardTerminal.ChargeResponse(url: "app://x?$ifcc_responseType=success")
        }
    }

    @Test func extrasAreFreeOfIfccFieldsAndNonce() throws {
        let nonce = Nonce.random()
        let response = try CreditCardTerminal.ChargeResponse(url: "app://x?record_id=123&ifcc_request_nonce=\(nonce)&ifcc_responseType=declined")
        #expect(response.extraParams == ["record_id": "123"])
        #expect(response.nonce == nonce)
        #expect(response.responseCode == .declined)
    }

    @Test(arguments: [
        ("ifcc_responseType=approved&ifcc_redactedCardNumber=1111", ChargeKitError.missingField("ifcc_amount")),
        ("ifcc_responseType=approved&ifcc_amount=1.00", .missingField("ifcc_redactedCardNumber")),
        ("ifcc_amount=1.00", .missingField("ifcc_responseType")),
        ("ifcc_responseType=success", .invalidField("ifcc_responseType", rule: "must be approved, cancelled, declined or error")),
        ("ifcc_responseType=declined&ifcc_amount=1.00", .unexpectedField("ifcc_amount", rule: "a declined response carries no transaction data")),
        ("ifcc_responseType=error&ifcc_currency=USD", .unexpectedField("ifcc_currency", rule: "a error response carries no transaction data")),
        ("ifcc_responseType=cancelled&ifcc_cardType=Visa", .unexpectedField("ifcc_cardType", rule: "a cancelled response carries no transaction data")),
        ("ifcc_responseType=cancelled&ifcc_redactedCardNumber=1111", .unexpectedField("ifcc_redactedCardNumber", rule: "a cancelled response carries no transaction data")),
        ("ifcc_responseType=approved&ifcc_amount=1.0&ifcc_redactedCardNumber=1111", .invalidField("ifcc_amount", rule: "must match ^(0|[1-9][0-9]*)\\.[0-9]{2}$")),
        ("ifcc_responseType=approved&ifcc_amount=01.00&ifcc_redactedCardNumber=1111", .invalidField("ifcc_amount", rule: "must match ^(0|[1-9][0-9]*)\\.[0-9]{2}$")),
        ("ifcc_responseType=approved&ifcc_amount=1&ifcc_redactedCardNumber=1111", .invalidField("ifcc_amount", rule: "must match ^(0|[1-9][0-9]*)\\.[0-9]{2}$")),
        ("ifcc_responseType=approved&ifcc_amount=1.00&ifcc_taxAmount=.93&ifcc_redactedCardNumber=1111", .invalidField("ifcc_taxAmount", rule: "must match ^(0|[1-9][0-9]*)\\.[0-9]{2}$")),
        ("ifcc_responseType=approved&ifcc_amount=1.00&ifcc_tipAmount=1.5&ifcc_redactedCardNumber=1111", .invalidField("ifcc_tipAmount", rule: "must match ^(0|[1-9][0-9]*)\\.[0-9]{2}$")),
        ("ifcc_responseType=approved&ifcc_amount=1.00&ifcc_currency=usd&ifcc_redactedCardNumber=1111", .invalidField("ifcc_currency", rule: "must match ^[A-Z]{3}$")),
        ("ifcc_responseType=approved&ifcc_amount=1.00&ifcc_redactedCardNumber=XXXX111", .invalidField("ifcc_redactedCardNumber", rule: "must match ^X*[0-9]{4}$")),
        ("ifcc_responseType=approved&ifcc_amount=1.00&ifcc_redactedCardNumber=****1111", .invalidField("ifcc_redactedCardNumber", rule: "must match ^X*[0-9]{4}$")),
        ("ifcc_responseType=approved&ifcc_amount=1.00&ifcc_redactedCardNumber=1111&ifcc_cardType=Visa1", .invalidField("ifcc_cardType", rule: "must match ^[A-Za-z ]{0,20}$")),
        ("ifcc_responseType=approved&ifcc_amount=1.00&ifcc_redactedCardNumber=1111&ifcc_cardType=ABCDEFGHIJKLMNOPQRSTU", .invalidField("ifcc_cardType", rule: "must match ^[A-Za-z ]{0,20}$")),
        ("ifcc_responseType=approved&ifcc_amount=1.00&ifcc_redactedCardNumber=1111&ifcc_taxRate=100", .invalidField("ifcc_taxRate", rule: "must match ^[0-9]{1,2}(\\.[0-9]{1,3})?$")),
        ("ifcc_responseType=approved&ifcc_amount=1.00&ifcc_redactedCardNumber=1111&ifcc_transactionId=", .invalidField("ifcc_transactionId", rule: "must be 1 to 255 characters")),
        ("ifcc_responseType=approved&ifcc_responseType=declined", .duplicateField("ifcc_responseType")),
        ("ifcc_responseType=approved&$ifcc_amount=1.00", .invalidField("$ifcc_amount", rule: "mixes FileMaker ($) and plain response names")),
        ("ifcc_responseType=cancelled&ifcc_request_nonce=abc", .invalidField("ifcc_request_nonce", rule: "must be 27 URL-safe Base64 characters")),
        ("ifcc_responseType=cancelled&record_id=1&record_id=2", .duplicateField("record_id")),
    ])
    func everyRuleRefusesTheWholeResponse(query: String, error: ChargeKitError) {
        #expect(throws: error) { try CreditCardTerminal.ChargeResponse(url: "app://x?" + query) }
    }

    @Test func transactionIdLimit() throws {
        let ok = "app://x?ifcc_responseType=cancelled&ifcc_transactionId=" + String(repeating: "a", count: 255)
        #expect(try CreditCardTerminal.ChargeResponse(url: ok).transactionId?.count == 255)
        #expect(throws: ChargeKitError.self) { try CreditCardTerminal.ChargeResponse(url: ok + "a") }
    }

    @Test func cardTypes() throws {
        for (wire, type) in [("Visa", CreditCardTerminal.CardType.visa), ("MasterCard", .masterCard), ("Amex", .amex),
                             ("Discover", .discover), ("Maestro", .maestro), ("Solo", .solo), ("Unknown", .unknown),
                             ("Diners Club", .other("Diners Club"))] {
            let response = try CreditCardTerminal.ChargeResponse(url: "app://x?ifcc_responseType=approved&ifcc_amount=1.00&ifcc_redactedCardNumber=1111&ifcc_cardType=\(wire.replacingOccurrences(of: " ", with: "%20"))")
            #expect(response.cardType == type)
            #expect(type.rawValue == wire)
        }
    }

    @Test("an open wire value is coded as its string, printed as it, and equal to what spells the same")
    func openWireValues() throws {
        let types: [CreditCardTerminal.CardType] = [.visa, .other("Diners Club"), .unknown]
        let data = try JSONEncoder().encode(types)
        #expect(String(decoding: data, as: UTF8.self) == #"["Visa","Diners Club","Unknown"]"#)
        #expect(try JSONDecoder().decode([CreditCardTerminal.CardType].self, from: data) == types)
        #expect(CreditCardTerminal.CardType(rawValue: "Visa") == .visa && "\(CreditCardTerminal.CardType.amex)" == "Amex")
    }

    @Test func nonTwoDigitCurrencies() throws {
        let yen = try CreditCardTerminal.ChargeResponse(url: "app://x?ifcc_responseType=approved&ifcc_amount=1000.00&ifcc_currency=JPY&ifcc_redactedCardNumber=1111")
        #expect(yen.amount?.formatted == "1000")
        #expect(throws: ChargeKitError.invalidField("ifcc_amount", rule: "has more decimals than JPY allows")) {
            try CreditCardTerminal.ChargeResponse(url: "app://x?ifcc_responseType=approved&ifcc_amount=1000.50&ifcc_currency=JPY&ifcc_redactedCardNumber=1111")
        }
    }
}

@Suite struct TextFieldTableTests {
    /// The request reads its text fields directly; each must land under its own name.
    /// The seed's text fields, listed here independently of the source's own list.
    static let fields: [(name: String, path: WritableKeyPath<CreditCardTerminal.ChargeRequest.Fields, String?> & Sendable)] = [
        ("returnAppName", \.returnAppName), ("email", \.email), ("firstName", \.firstName), ("lastName", \.lastName),
        ("company", \.company), ("address", \.address), ("city", \.city), ("state", \.state), ("zip", \.zip),
        ("phone", \.phone), ("country", \.country), ("invoiceNumber", \.invoiceNumber), ("description", \.description),
    ]

    @Test func everyTextFieldGoesOutUnderItsOwnName() throws {
        var request = CreditCardTerminal.ChargeRequest.Fields()
        for (index, entry) in Self.fields.enumerated() {
            request[keyPath: entry.path] = entry.name == "email" ? "v\(index)@example.com"
                : entry.name == "phone" ? "555\(index)" : "v\(index)"
        }
        request.setReturnURL("app://r")
        let items = try QueryURL(parsing: try CreditCardTerminal.ChargeRequest(request).requestURL()).items
        for (index, entry) in Self.fields.enumerated() {
            let expected = entry.name == "email" ? "v\(index)@example.com" : entry.name == "phone" ? "555\(index)" : "v\(index)"
            #expect(items.first { $0.name == entry.name }?.value == expected, "\(entry.name)")
        }
    }
}

/// Credit Card Terminal through the coordinator: its tax, extras and field limits.
@Suite struct CreditCardTerminalCoordinatorTests {
    @Test func submitAwaitsTheVerifiedOutcome() async throws {
        let (coordinator, _, _) = await makeStack()
        let result = try await coordinator.submit(chargeRequest())
        #expect(result.outcome == .approved)
        guard let response = result.callback.creditCardTerminal else { Issue.record("wrong provider"); return }
        #expect(response.extraParams == ["record_id": "123"])
        #expect(response.amount?.formatted == "54.25")
        #expect(await coordinator.waitingCount == 0)
    }
    @Test func invalidRequestOpensNothing() async throws {
        let (coordinator, device, _) = await makeStack()
        var fields = try chargeFields()
        fields.zip = String(repeating: "1", count: 21)
        let invalid = fields
        await #expect(throws: ChargeKitError.fieldTooLong("zip", limit: 20)) {
            try await coordinator.submit { nonce throws(ChargeKitError) in try CreditCardTerminal.ChargeRequest(invalid).handoff(nonce: nonce) }
        }
        #expect(await device.delivered.isEmpty)
        #expect(try await coordinator.ledger.outstanding().isEmpty)
    }
    @Test func aForgedCallbackDoesNotCompleteAWaitingCharge() async throws {
        let ledger = ChargeLedger()
        let opened = OpenedURLs()
        let coordinator = PaymentCoordinator(ledger: ledger, opener: ClosureURLOpener { url in await opened.add(url) })
        let task = Task { try await coordinator.submit(chargeRequest()) }
        let requestURL = try await opened.next()
        let nonce = try #require(try await ledger.outstanding().first?.nonce)
        let forged = "com-innerfence-ChargeDemo://chargeResponse?record_id=999&ifcc_request_nonce=\(nonce)&ifcc_responseType=approved&ifcc_amount=0.01&ifcc_redactedCardNumber=1111"
        await #expect(throws: ChargeKitError.mismatch(field: "record_id", rule: "extra parameters must come back exactly as sent")) { try await coordinator.handle(url: forged) }
        #expect(await coordinator.waitingCount == 1)
        let genuine = try CreditCardTerminalSimulator().respond(to: requestURL, outcome: .approved)
        try await coordinator.handle(url: genuine)
        #expect(try await task.value.outcome == .approved)
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

/// Checked when decoded as when made.
@Suite struct CreditCardTerminalDecodingTests {
    @Test func decodingChecksAsMakingDoes() throws {
        var fields = CreditCardTerminal.ChargeRequest.Fields()
        fields.zip = "78701"
        let request = try CreditCardTerminal.ChargeRequest(fields)
        #expect(request.zip == "78701")
        #expect(throws: ChargeKitError.fieldTooLong("zip", limit: 20)) {
            try reDecoded(request) { $0.replacingOccurrences(of: "78701", with: String(repeating: "7", count: 21)) }
        }
    }
}

/// Credit Card Terminal's responses code as before values were kept as places (see ``CallbackOracles``).
@Suite struct CreditCardTerminalCallbackTextTests {
    static let oracles: [(url: String, json: String)] = [
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
    @Test func responsesCodeAsBefore() throws {
        try CallbackOracles.check(Self.oracles) { try CreditCardTerminal.ChargeResponse(url: $0) }
    }

    @Test func valuesAreCheckedOnTheirDecodedBytes() {
        #expect((try? CreditCardTerminal.ChargeResponse(url: "a://b?ifcc_responseType=cancel%6Ced"))?.responseCode == .cancelled)
    }
}
