@_spi(Tools) @testable import ChargeKit
import ChargeKitSimulators
import Foundation
import Testing

/// Square Point of Sale, against the shapes of the protocol notes' section 6 (from
/// Square's own SDK: SCCAPIRequest, SCCAPIResponse, SCAPIURLConversion).
@Suite struct SquareTests {
    static func request(
        amount: Money = Money(minorUnits: 1099, currency: .usd), callbackURL: String = "my-app://callback", state: String? = nil
    ) throws -> Square.PaymentRequest {
        try Square.PaymentRequest(clientID: "sq0idp-APP", amount: amount, callbackURL: callbackURL, state: state)
    }

    /// The JSON object in a request or callback URL's `data`.
    static func data(of url: String) throws -> [String: Any] {
        let data = try #require(try QueryURL(parsing: url).items.first { $0.name == "data" }?.value)
        return try #require(try JSONSerialization.jsonObject(with: Data(data.utf8)) as? [String: Any])
    }

    static func callback(_ json: String, base: String = "my-app://callback/square_request") -> String {
        base + "?data=" + PercentEncoding.encode(json)
    }

    // MARK: - The request

    @Test func requestCarriesEveryDocumentedField() throws {
        var options = Square.Options()
        options.supportedTenderTypes = [.creditCard, .cash, .squareGiftCard]
        (options.returnsAutomatically, options.skipsReceipt, options.disablesKeyedInCardEntry, options.clearsDefaultFees) = (true, true, true, true)
        let request = try Square.PaymentRequest(
            clientID: "sq0idp-APP", amount: Money(minorUnits: 1099, currency: .usd), callbackURL: "my-app://callback",
            state: "order 7", locationID: "L1", notes: "Coffee & cake", customerID: "C9", options: options
        )
        let url = request.requestURL()
        #expect(url.hasPrefix("square-commerce-v1://payment/create?data="))
        let data = try Self.data(of: url)
        #expect(data["version"] as? String == "1.3")
        #expect(data["sdk_version"] as? String == Square.sdkVersion)
        #expect(data["client_id"] as? String == "sq0idp-APP")
        let money = try #require(data["amount_money"] as? [String: Any])
        #expect((money["amount"] as? NSNumber)?.int64Value == 1099 && money["currency_code"] as? String == "USD")
        #expect(data["callback_url"] as? String == "my-app://callback/square_request")
        #expect(data["state"] as? String == "order 7")
        #expect(data["location_id"] as? String == "L1" && data["notes"] as? String == "Coffee & cake" && data["customer_id"] as? String == "C9")
        let sent = try #require(data["options"] as? [String: Any])
        #expect(sent["supported_tender_types"] as? [String] == ["CREDIT_CARD", "CASH", "SQUARE_GIFT_CARD"])
        for flag in ["auto_return", "skip_receipt", "disable_cnp", "clear_default_fees"] {
            #expect((sent[flag] as? NSNumber)?.boolValue == true, "\(flag)")
        }
        // Every reserved character of the JSON is percent-encoded: only unreserved bytes and escapes remain.
        let query = String(url.dropFirst("square-commerce-v1://payment/create?data=".count))
        #expect(query.utf8.allSatisfy { PercentEncoding.isUnreserved($0) || $0 == UInt8(ascii: "%") })
        #expect(query.contains("%3A") && query.contains("%2F") && query.contains("%26"))
    }

    @Test(arguments: [(Currency.usd, Int64(1099), "10.99"), (try! Currency(code: "JPY"), 500, "500"), (try! Currency(code: "KWD"), 1500, "1.500")])
    func amountIsSentInTheCurrencysMinorUnits(currency: Currency, minor: Int64, major: String) throws {
        let amount = try Money(parsing: major, currency: currency)
        #expect(amount.minorUnits == minor)
        let money = try #require(try Self.data(of: Self.request(amount: amount).requestURL())["amount_money"] as? [String: Any])
        #expect((money["amount"] as? NSNumber)?.int64Value == minor)
        #expect(money["currency_code"] as? String == currency.code)
    }

    @Test func requestIsCheckedWhenMade() throws {
        let money = Money(minorUnits: 100, currency: .usd)
        #expect(throws: ChargeKitError.missingField("client_id")) {
            try Square.PaymentRequest(clientID: "", amount: money, callbackURL: "my-app://cb")
        }
        #expect(throws: ChargeKitError.invalidField("amount_money.amount", rule: "must not be negative")) {
            try Square.PaymentRequest(clientID: "A", amount: Money(minorUnits: -1, currency: .usd), callbackURL: "my-app://cb")
        }
        for url in ["callback", "", "//host/path"] {
            #expect(throws: ChargeKitError.self, "\(url)") { try Square.PaymentRequest(clientID: "A", amount: money, callbackURL: url) }
            do { _ = try Square.PaymentRequest(clientID: "A", amount: money, callbackURL: url) } catch {
                #expect(error.description.hasPrefix("callback_url"), "\(error)")
            }
        }
        #expect(throws: ChargeKitError.invalidURL("callback_url", rule: "must not have a query: Point of Sale answers with data alone")) {
            try Square.PaymentRequest(clientID: "A", amount: money, callbackURL: "my-app://cb?x=1")
        }
        #expect(throws: ChargeKitError.duplicateField("options.supported_tender_types")) {
            var options = Square.Options()
            options.supportedTenderTypes = [.cash, .cash]
            return try Square.PaymentRequest(clientID: "A", amount: money, callbackURL: "my-app://cb", options: options)
        }
        // A zero amount is a request Square's SDK makes (Point of Sale then answers amount_too_small).
        #expect(throws: Never.self) { try Square.PaymentRequest(clientID: "A", amount: Money(minorUnits: 0, currency: .usd), callbackURL: "my-app:") }
    }

    @Test(arguments: [
        ("my-app://callback", "my-app://callback/square_request"),
        ("my-app://callback/", "my-app://callback/square_request"),
        ("my-app://host/done", "my-app://host/done/square_request"),
        ("my-app:", "my-app://square_request"),
    ])
    func callbackURLIsMarkedAsSquaresSDKMarksIt(url: String, marked: String) {
        #expect(Square.addingMarker(to: url) == marked)
        #expect(Square.hasMarker(marked) && !Square.hasMarker(url))
    }

    // MARK: - The callback

    @Test func okIsApprovedWithBothTransactionIDs() throws {
        let url = Self.callback(#"{"status":"ok","transaction_id":"TX-1","client_transaction_id":"CT-1","state":"s"}"#)
        let parsed = try PaymentCallback.parse(url, provider: .square)
        let square = try #require(parsed.square)
        #expect(parsed.outcome == .approved && parsed.providerStatus == "ok")
        #expect(square.transactionID == "TX-1" && square.clientTransactionID == "CT-1" && parsed.transactionID == "TX-1")
        #expect(square.state == "s" && square.nonce == nil && square.hadMarker)
        #expect(parsed.message == nil)
    }

    @Test(arguments: Square.ErrorCode.documented)
    func everyDocumentedErrorCode(code: Square.ErrorCode) throws {
        let parsed = try PaymentCallback.parse(Self.callback(#"{"status":"error","error_code":"\#(code.rawValue)"}"#), provider: .square)
        #expect(parsed.outcome == (code == .paymentCanceled ? .cancelled : .failed))
        #expect(parsed.square?.errorCode == code && code.isDocumented)
        #expect(parsed.providerStatus == code.rawValue)
        #expect(!(parsed.message ?? "").isEmpty)
        #expect(Square.ErrorCode(rawValue: code.rawValue) == code)
    }

    @Test func unknownErrorCodeIsAFailureKeptAsSent() throws {
        let parsed = try PaymentCallback.parse(Self.callback(#"{"status":"error","error_code":"new_thing_2027"}"#), provider: .square)
        #expect(parsed.outcome == .failed && parsed.square?.errorCode == .other("new_thing_2027"))
        #expect(parsed.providerStatus == "new_thing_2027")
        #expect(parsed.message?.contains("new_thing_2027") == true)
    }

    @Test(arguments: [
        ("my-app://callback/square_request", ChargeKitError.missingField("data")),
        ("my-app://callback/square_request?data=", .missingField("data")),
        ("my-app://callback/square_request?data=%5B1%5D", .invalidField("data", rule: "must be a JSON object")),
        ("my-app://callback/square_request?data=not%20json", .invalidField("data", rule: "must be a JSON object")),
        (SquareTests.callback(#"{"transaction_id":"T"}"#), .missingField("data.status")),
        (SquareTests.callback(#"{"status":"approved"}"#), .invalidField("data.status", rule: "must be ok or error")),
        (SquareTests.callback(#"{"status":7}"#), .invalidField("data.status", rule: "must be a string")),
        (SquareTests.callback(#"{"status":"error"}"#), .missingField("data.error_code")),
        (SquareTests.callback(#"{"status":"error","error_code":""}"#), .missingField("data.error_code")),
        (SquareTests.callback(#"{"status":"ok"}"#) + "&data=%7B%7D", .duplicateField("data")),
        (SquareTests.callback(#"{"status":"ok","status":"error"}"#), .duplicateField("data.status")),
        (SquareTests.callback(#"{"status":"ok",}"#), .invalidField("data", rule: "must be a JSON object")),
        (SquareTests.callback(#"{"status":"ok"} x"#), .invalidField("data", rule: "must be a JSON object")),
        (SquareTests.callback(#"{"status":"\ud800"}"#), .invalidField("data", rule: "must be a JSON object")),
    ])
    func invalidResponsesAreRefused(url: String, error: ChargeKitError) {
        #expect(throws: error) { try PaymentCallback.parse(url, provider: .square) }
    }

    @Test("Point of Sale's answer is read by the reader every callback shares: spaces, escapes and nested values")
    func oneReadingOfTheAnswer() throws {
        let ok = try Square.Callback(url: Self.callback(#"{"status":"ok","transaction_id":"T1","client_transaction_id":"C1","state":"s"}"#))
        #expect(ok.status == .ok && ok.transactionID == "T1" && ok.clientTransactionID == "C1" && ok.rawState == "s")
        let error = try Square.Callback(url: Self.callback(#"{"status":"error","error_code":"payment_canceled","state":"a b \"q\" \u00e9 \ud83d\ude00"}"#))
        #expect(error.errorCode == .paymentCanceled && error.rawState == "a b \"q\" é 😀")
        let nested = try Square.Callback(url: Self.callback(#"{ "status" : "ok" , "n" : [1, 2.5e3, {"x": null}], "t\u0072ansaction_id": "T2" }"#,
                                                            base: "my-app://host:8080/cb"))
        #expect(nested.transactionID == "T2" && nested.openedURL == "my-app://host:8080/cb")
        #expect(try Square.Callback(url: "my-app://callback?data=" + #"{"status":"ok"}"#).status == .ok)
        #expect(try Square.Callback(url: Self.callback(#"{"status":"ok"}"#) + "&x=1").extraItems == [QueryItem("x", "1")])
        #expect(throws: ChargeKitError.duplicateField("data.status")) {
            try Square.Callback(url: "my-app://callback?data=%7B%22status%22%3A%22ok%22%2C%22status%22%3A%22ok%22%7D")
        }
        #expect(throws: ChargeKitError.invalidField("data", rule: "must be a JSON object")) {
            try Square.Callback(url: Self.callback(#"{"status":"ok","s":"\ud800"}"#))
        }
        #expect(throws: ChargeKitError.self) { try Square.Callback(url: Self.callback(#"{"status":"ok"}"#), maximumLength: 20) }
    }

    @Test func callbackIsReadWithOrWithoutTheMarker() throws {
        let json = #"{"status":"ok","transaction_id":"T"}"#
        let marked = try #require(try PaymentCallback.parse(Self.callback(json), provider: .square).square)
        let plain = try #require(try PaymentCallback.parse(Self.callback(json, base: "my-app://callback"), provider: .square).square)
        #expect(marked.hadMarker && !plain.hadMarker)
        #expect(marked.callbackURL == plain.callbackURL)
        let hostMarked = try #require(try PaymentCallback.parse(Self.callback(json, base: "my-app://square_request"), provider: .square).square)
        #expect(hostMarked.callbackURL == Square.addingMarker(to: "my-app:"))
    }

    @Test func aSquareCallbackIsRecognisedWithoutNamingTheProvider() throws {
        #expect(try PaymentCallback.parse(Self.callback(#"{"status":"ok"}"#)).provider == .square)
    }

    // MARK: - Through the ledger

    func stack(_ outcome: ChargeOutcome = .approved, square: SquareSimulator = .init()) async -> (PaymentCoordinator, SimulatedDevice) {
        let inbox = Inbox()
        let device = SimulatedDevice(outcome: outcome, apps: SimulatedApps(square)) { url in await inbox.deliver(url) }
        let coordinator = PaymentCoordinator(ledger: ChargeLedger(), opener: device)
        await inbox.set(coordinator)
        return (coordinator, device)
    }

    static let app = PaymentApp.square(clientID: "sq0idp-APP", callbackURL: "my-app://callback")

    @Test func approvedThroughTheLedgerAndTheAppsStateComesBackUnchanged() async throws {
        let (coordinator, device) = await stack()
        let result = try await coordinator.charge(ChargeOrder(amount: Money(minorUnits: 1099, currency: .usd), description: "Latte", reference: "order.7"), via: Self.app)
        #expect(result.outcome == .approved && result.provider == .square && result.isApprovedSale)
        let square = try #require(result.callback.square)
        #expect(square.state == "order.7" && square.nonce == result.charge.nonce)
        #expect(square.transactionID != nil && square.clientTransactionID != nil)
        #expect(result.callback.reference == "order.7")
        // The request carried the nonce at the start of state, and the app's own after it.
        let requestData = try Self.data(of: try #require(await device.delivered.last).replacingOccurrences(of: "my-app://callback/square_request", with: "x://y"))
        #expect((requestData["state"] as? String)?.hasSuffix(".order.7") == true)
    }

    @Test(arguments: [(ChargeOutcome.cancelled, ChargeOutcome.cancelled), (.declined, .cancelled), (.failed, .failed)])
    func otherOutcomesThroughTheLedger(played: ChargeOutcome, reported: ChargeOutcome) async throws {
        let (coordinator, _) = await stack(played)
        let result = try await coordinator.charge(ChargeOrder(amount: Money(minorUnits: 500, currency: .usd)), via: Self.app)
        #expect(result.outcome == reported && !result.isApprovedSale)
        if played == .failed { #expect(result.callback.square?.errorCode == .couldNotPerform) }
    }

    @Test func forgedReplayedAndTamperedCallbacksAreRefused() async throws {
        let (coordinator, device) = await stack()
        let result = try await coordinator.charge(ChargeOrder(amount: Money(minorUnits: 1099, currency: .usd), reference: "mine"), via: Self.app)
        let genuine = try #require(await device.delivered.last)
        await #expect(throws: ChargeKitError.replayedNonce) { try await coordinator.handle(url: genuine) }
        let forged = Self.callback(#"{"status":"ok","transaction_id":"F","state":"\#(Nonce.random().value).mine"}"#)
        await #expect(throws: ChargeKitError.unknownNonce) { try await coordinator.handle(url: forged) }
        await #expect(throws: ChargeKitError.missingNonce(field: "state")) {
            try await coordinator.handle(url: Self.callback(#"{"status":"ok","state":"mine"}"#))
        }

        // A second charge: its callback with the app's state changed is refused and consumes nothing.
        let opened = OpenedURLs()
        let second = PaymentCoordinator(ledger: await coordinator.ledger, opener: ClosureURLOpener { url in await opened.add(url) })
        let task = Task { try await second.charge(ChargeOrder(amount: Money(minorUnits: 1099, currency: .usd), reference: "mine"), via: Self.app) }
        let callback = try SquareSimulator().respond(to: try await opened.next(), outcome: .approved)
        let changed = try #require(try Self.data(of: callback)["state"] as? String).replacingOccurrences(of: ".mine", with: ".theirs")
        var tampered = try QueryURL(parsing: callback)
        var data = try Self.data(of: callback)
        data["state"] = changed
        tampered.items = [QueryItem("data", Square.json(data))]
        await #expect(throws: ChargeKitError.mismatch(field: "state", rule: "must echo the reference sent")) { try await second.handle(url: tampered.string) }
        try await second.handle(url: callback)
        #expect(try await task.value.outcome == .approved)
        #expect(result.charge.nonce != (try await task.value.charge.nonce))
    }

    @Test func aSquareCallbackCannotAnswerAnotherAppsCharge() async throws {
        let ledger = ChargeLedger()
        let other = anotherApp(than: .square)
        let (charge, _) = try await ledger.issue { nonce throws(ChargeKitError) in
            try other.app.handoff(for: other.order(100, description: "Tea", reference: "R1"), nonce: nonce)
        }
        let nonce = charge.nonce.value
        await #expect(throws: ChargeKitError.self) {
            try await ledger.verify(url: Self.callback(#"{"status":"ok","state":"\#(nonce)"}"#), provider: .square)
        }
        #expect(try await ledger.outstanding().count == 1)
    }

    @Test func anOrderWithExtrasIsRefused() async throws {
        let (coordinator, device) = await stack()
        await #expect(throws: ChargeKitError.self) {
            try await coordinator.charge(ChargeOrder(amount: Money(minorUnits: 100, currency: .usd), extras: [QueryItem("a", "b")]), via: Self.app)
        }
        #expect(await device.delivered.isEmpty)
    }

    @Test func providerFacts() {
        #expect(PaymentProvider.square.queriedScheme == "square-commerce-v1")
        #expect(PaymentProvider(rawValue: "square") == .square && PaymentProvider.allCases.contains(.square))
        #expect(Self.app.provider == .square)
    }

    // MARK: - The simulator

    static func rawRequest(_ data: [String: Any]) -> String {
        Square.baseURL + "?data=" + PercentEncoding.encode(Square.json(data))
    }

    static func valid() -> [String: Any] {
        ["version": "1.3", "client_id": "A", "callback_url": "my-app://callback/square_request", "state": "S",
         "amount_money": ["amount": 1099, "currency_code": "USD"] as [String: Any]]
    }

    /// The simulator's answer to the valid request with `changes`: member name to its
    /// JSON text, or `nil` to leave the member out.
    static func answer(_ changes: [String: String?], simulator: SquareSimulator = .init(), outcome: ChargeOutcome = .approved) throws -> Square.Callback {
        var data = valid()
        for (key, text) in changes {
            data[key] = try text.map { try JSONSerialization.jsonObject(with: Data($0.utf8), options: [.fragmentsAllowed]) }
        }
        let url = try simulator.respond(to: rawRequest(data), outcome: outcome)
        #expect(url.hasPrefix("my-app://callback/square_request?data="))
        return try Square.Callback(url: url)
    }

    @Test(arguments: [
        (["version": #""9.9""#], Square.ErrorCode.unsupportedAPIVersion),
        (["version": #""one""#], .invalidVersionNumber),
        (["version": nil], .invalidVersionNumber),
        (["client_id": nil], .dataInvalid),
        (["amount_money": #""10.99""#], .dataInvalid),
        (["amount_money": #"{"amount":1099}"#], .currencyCodeMissing),
        (["amount_money": #"{"amount":1099,"currency_code":"usd"}"#], .unsupportedCurrencyCode),
        (["amount_money": #"{"amount":1099,"currency_code":"EUR"}"#], .currencyCodeMismatch),
        (["amount_money": #"{"amount":10.99,"currency_code":"USD"}"#], .amountInvalidFormat),
        (["amount_money": #"{"amount":"1099","currency_code":"USD"}"#], .amountInvalidFormat),
        (["amount_money": #"{"amount":true,"currency_code":"USD"}"#], .amountInvalidFormat),
        (["amount_money": #"{"amount":99,"currency_code":"USD"}"#], .amountTooSmall),
        (["amount_money": #"{"amount":100000000,"currency_code":"USD"}"#], .amountTooLarge),
        (["options": #"{"supported_tender_types":["BITCOIN"]}"#], .invalidTenderType),
    ] as [([String: String?], Square.ErrorCode)])
    func simulatorRefusesWhatPointOfSaleRefuses(changes: [String: String?], code: Square.ErrorCode) throws {
        let answer = try Self.answer(changes)
        #expect(answer.status == .error && answer.errorCode == code)
        #expect(answer.rawState == "S", "state comes back whenever it was sent")
    }

    @Test func simulatorPlaysEachOutcomeAndEachErrorCode() throws {
        #expect(try Self.answer([:]).status == .ok)
        #expect(try Self.answer([:], outcome: .cancelled).errorCode == .paymentCanceled)
        for code in Square.ErrorCode.documented + [.other("new_code")] {
            #expect(try Self.answer([:], simulator: SquareSimulator(failureCode: code), outcome: .failed).errorCode == code)
        }
        #expect(try Self.answer([:], simulator: SquareSimulator(isLoggedIn: false)).errorCode == .notLoggedIn)
        #expect(try Self.answer(["location_id": #""L2""#], simulator: SquareSimulator(locationID: "L1")).errorCode == .locationIDMismatch)
        #expect(try Self.answer(["amount_money": #"{"amount":500,"currency_code":"JPY"}"#],
                                simulator: SquareSimulator(sellerCurrency: "JPY")).status == .ok)
    }

    @Test func simulatorCannotAnswerAnUnreadablePayload() {
        #expect(throws: ChargeKitError.self) { try SquareSimulator().respond(to: Square.baseURL + "?data=%7Bnot", outcome: .approved) }
        #expect(throws: ChargeKitError.self) { try SquareSimulator().respond(to: Self.rawRequest(["version": "1.3"]), outcome: .approved) }
        #expect(throws: ChargeKitError.self) { try SquareSimulator().respond(to: "square-commerce-v1://other?data=%7B%7D", outcome: .approved) }
    }

    /// `state` is split into the nonce and your own state once, when the answer is read
    /// (or stored and read back, or set), not on every access.
    @Test func stateIsSplitOnceAndKeptThroughStorage() throws {
        let nonce = Nonce.random()
        var answer = try Square.Callback(url: Self.callback(#"{"status":"ok","transaction_id":"T","state":"\#(nonce.value).mine"}"#))
        #expect(answer.nonce == nonce && answer.state == "mine" && answer.rawState == "\(nonce.value).mine")
        let stored = try JSONEncoder().encode(answer)
        #expect(!String(decoding: stored, as: UTF8.self).contains("\"nonce\""), "only rawState is stored")
        let read = try JSONDecoder().decode(Square.Callback.self, from: stored)
        #expect(read == answer && read.nonce == nonce && read.state == "mine")
        answer.rawState = "theirs"
        #expect(answer.nonce == nil && answer.state == "theirs")
    }

    @Test func errorCodesAreOpenWireValues() {
        #expect(Square.ErrorCode(rawValue: "payment_canceled") == .paymentCanceled)
        #expect(Square.ErrorCode(rawValue: "new_code") == .other("new_code") && Square.ErrorCode.other("new_code").rawValue == "new_code")
        #expect(Square.ErrorCode.other("payment_canceled") == .paymentCanceled, "the same wire value is the same code")
        #expect(Set(Square.ErrorCode.documented.map(\.rawValue)).count == Square.ErrorCode.documented.count)
        #expect(Square.ErrorCode.documented.allSatisfy { !$0.message.isEmpty && Square.ErrorCode(rawValue: $0.rawValue) == $0 })
        #expect(Square.ErrorCode.documented.contains(.couldNotPerform) && !Square.ErrorCode.documented.contains(.other("x")))
    }
}
