@_spi(Tools) import ChargeKit
import Foundation
import Testing
@_spi(Tools) @testable import CitconUPI

@Suite("Order validation before any network call")
struct ValidationTests {
    static func error(_ change: (inout CPayRequest) -> Void) -> ChargeKitError? {
        var order = RequestModelTests.seedOrder()
        change(&order)
        do throws(ChargeKitError) {
            try CPayOrderValidator.validate(order)
            return nil
        } catch {
            return error
        }
    }

    @Test("each required or malformed field is named", arguments: [
        ("transaction.reference", { @Sendable (o: inout CPayRequest) in o.transaction.reference = "" }),
        ("transaction.reference", { @Sendable (o: inout CPayRequest) in o.transaction.reference = "has space" }),
        ("transaction.reference", { @Sendable (o: inout CPayRequest) in o.transaction.reference = String(repeating: "r", count: 129) }),
        ("transaction.amount", { @Sendable (o: inout CPayRequest) in o.transaction.amount = 0 }),
        ("transaction.amount", { @Sendable (o: inout CPayRequest) in o.transaction.amount = -5 }),
        ("transaction.amount", { @Sendable (o: inout CPayRequest) in o.transaction.amount = 1_000_000_000_000 }),
        ("transaction.currency", { @Sendable (o: inout CPayRequest) in o.transaction.currency = "usd" }),
        ("transaction.currency", { @Sendable (o: inout CPayRequest) in o.transaction.currency = "XYZ" }),
        ("transaction.country", { @Sendable (o: inout CPayRequest) in o.transaction.country = "USA" }),
        ("transaction.country", { @Sendable (o: inout CPayRequest) in o.transaction.country = "XX" }),
        ("transaction.note", { @Sendable (o: inout CPayRequest) in o.transaction.note = "line\nbreak" }),
        ("payment.method", { @Sendable (o: inout CPayRequest) in o.payment.method = "" }),
        ("payment.method", { @Sendable (o: inout CPayRequest) in o.payment.method = "WeChatPay" }),
        ("chargeToken", { @Sendable (o: inout CPayRequest) in o.chargeToken = "" }),
        ("chargeToken", { @Sendable (o: inout CPayRequest) in o.chargeToken = "../../v1/refunds" }),
        ("urls.ipn", { @Sendable (o: inout CPayRequest) in o.urls.ipn = "no scheme" }),
        ("universalLink", { @Sendable (o: inout CPayRequest) in o.universalLink = nil }),
        ("universalLink", { @Sendable (o: inout CPayRequest) in o.universalLink = "http://insecure.example/apps" }),
        ("scheme", { @Sendable (o: inout CPayRequest) in o.payment.method = "alipay"; o.scheme = nil }),
        ("scheme", { @Sendable (o: inout CPayRequest) in o.payment.method = "alipay"; o.scheme = "com.app://x" }),
        ("scheme", { @Sendable (o: inout CPayRequest) in o.payment.method = "paypal"; o.universalLink = nil }),
        ("unionpayMode", { @Sendable (o: inout CPayRequest) in o.unionpayMode = "02" }),
        ("consumer.firstName", { @Sendable (o: inout CPayRequest) in o.payment.method = "card"; o.request3DSecureVerification = true }),
    ] as [(String, @Sendable (inout CPayRequest) -> Void)])
    func namedField(field: String, change: @Sendable (inout CPayRequest) -> Void) throws {
        let found = Self.error(change)
        let error = try #require(found)
        #expect(error.description.hasPrefix(field + ":"), "\(error.description)")
    }

    @Test("3-D Secure cards need the cardholder and billing address; complete ones pass")
    func threeDSecure() throws {
        var order = RequestModelTests.seedOrder()
        order.payment.method = "card"
        order.request3DSecureVerification = true
        var consumer = CPayConsumer()
        consumer.firstName = "John"; consumer.lastName = "Doe"; consumer.phone = "5551234567"; consumer.email = "j@d.com"
        order.consumer = consumer
        #expect(Self.message(order)?.hasPrefix("payment.billingAddress.street:") == true)
        var address = CPayBillingAddr()
        address.street = "555 Smith St"; address.city = "Chicago"; address.state = "IL"; address.zip = "12345"
        address.country = "ZZ"
        order.payment.billingAddress = address
        #expect(Self.message(order)?.hasPrefix("payment.billingAddress.country:") == true)
        order.payment.billingAddress?.country = "US"
        #expect(Self.message(order) == nil)
        order.request3DSecureVerification = false
        order.consumer = nil
        #expect(Self.message(order) == nil, "without 3-D Secure a card needs neither")
    }

    static func message(_ order: CPayRequest) -> String? {
        do throws(ChargeKitError) { try CPayOrderValidator.validate(order); return nil } catch { return error.description }
    }

    @Test("the return URL: universal link for wechatpay, else the scheme")
    func returnURLs() {
        var order = RequestModelTests.seedOrder()
        #expect(CPayManager.returnURL(for: order) == "https://universallink.com/apps")
        order.payment.method = "alipay"
        order.scheme = "com.citcon.citconpay"
        #expect(CPayManager.returnURL(for: order) == "com.citcon.citconpay://cpay/return")
        #expect(CPayOrderBook.sameEndpoint("com.citcon.citconpay://cpay/return?charge_id=1", "com.citcon.citconpay://cpay/return"))
        #expect(CPayOrderBook.sameEndpoint("https://universallink.com/apps/?charge_id=1", "https://universallink.com/apps"))
        #expect(!CPayOrderBook.sameEndpoint("evil://cpay/return?charge_id=1", "com.citcon.citconpay://cpay/return"))
        #expect(!CPayOrderBook.sameEndpoint("com.citcon.citconpay://cpay/other?charge_id=1", "com.citcon.citconpay://cpay/return"))
    }

    @Test("an invalid order never reaches the network or the wallet, and the callback says why")
    func noNetworkForInvalidOrder() async throws {
        let opened = OpenLog()
        let manager = CPayManager(opener: ClosureURLOpener { url in await opened.add(url) })
        manager.callbackQueue = DispatchQueue(label: "test")
        manager.setBaseURL(try #require(URL(string: "http://127.0.0.1:9")))
        manager.setAccessToken("token")
        let lines = LogLines()
        manager.log = { lines.add($0) }
        var order = RequestModelTests.seedOrder()
        order.transaction.currency = "XYZ"
        await #expect(throws: CPayError.invalidOrder(.invalidField("transaction.currency", rule: "'XYZ' is not an ISO 4217 currency code"))) {
            try await manager.requestOrder(order)
        }
        let result = await withCheckedContinuation { continuation in
            let accepted = manager.requestOrder(order) { continuation.resume(returning: $0) }
            #expect(!accepted)
        }
        #expect(result?.status == "fail")
        #expect(result?.data?.code == "-1")
        #expect(result?.data?.message?.contains("transaction.currency") == true)
        #expect(await opened.urls.isEmpty)
        #expect(lines.all.isEmpty, "no HTTP request was made")
    }

    @Test("no token: refused before the network")
    func missingToken() async {
        let manager = CPayManager()
        await #expect(throws: CPayError.missingAccessToken) { try await manager.requestOrder(RequestModelTests.seedOrder()) }
        #expect(!manager.setAccessToken(""))
        #expect(!manager.setAccessToken("has space"))
        #expect(!manager.setBaseURL(URL(fileURLWithPath: "/tmp")))
        #expect(manager.setMode(.prod) && manager.baseURL.absoluteString == "https://api.citconpay.com")
        #expect(manager.getVersion() == CPayManager.sdkVersion)
    }

    @Test("envelopes: success payload, fail with code, 4010 surfaced as unauthorized, junk refused")
    func envelopeDecoding() throws {
        let ok = Data(#"{"status":"success","app":"citcon_upi","version":"v0.1.1","data":{"code":"x","message":"y"}}"#.utf8)
        let failure: UPIWire.Failure = try UPIClient.decode(ok, status: 200)
        #expect(failure == UPIWire.Failure(code: "x", message: "y"))
        let unauthorized = Data(#"{"status":"fail","app":"citcon_upi","version":"v0.1.1","data":{"code":"4010","message":"expired"}}"#.utf8)
        #expect(throws: CPayError.unauthorized(message: "expired")) {
            let _: UPIWire.Failure = try UPIClient.decode(unauthorized, status: 401)
        }
        let duplicate = Data(#"{"status":"fail","app":"citcon_upi","version":"v0.1.1","data":{"code":"4100","message":"dup"}}"#.utf8)
        #expect(throws: CPayError.server(code: "4100", message: "dup", httpStatus: 409)) {
            let _: UPIWire.Failure = try UPIClient.decode(duplicate, status: 409)
        }
        #expect(throws: CPayError.self) { let _: UPIWire.Failure = try UPIClient.decode(Data("<html>".utf8), status: 200) }
        #expect(throws: CPayError.self) {
            let _: UPIWire.Failure = try UPIClient.decode(Data(count: UPIWire.maximumBodyBytes + 1), status: 200)
        }
        #expect(CPayError.server(code: "503", message: "", httpStatus: 503).isRetryable)
        #expect(CPayError.timeout.isRetryable && !CPayError.unauthorized(message: "").isRetryable)
    }

    @Test("results: cancellation carries -2, decline and expiry -1, success none")
    func resultMapping() {
        func check(_ status: CPayStatus) -> CPayCheck {
            var data = CPayCheckData()
            data.id = "t"; data.status = status; data.amount = 5
            return CPayCheck(status: "success", version: "v0.1.1", data: data)
        }
        #expect(CPayManager.result(from: check(.succeeded)).isPaid)
        #expect(CPayManager.result(from: check(.succeeded)).data?.code == nil)
        #expect(CPayManager.result(from: check(.canceled)).data?.clientCode == .cancelled)
        #expect(CPayManager.result(from: check(.failed)).data?.clientCode == .commonError)
        #expect(CPayManager.result(from: check(.expired)).data?.clientCode == .commonError)
        #expect(CPayManager.result(from: check(.canceled)).status == "fail")
        #expect(CPayManager.result(from: check(.authorized)).status == "success")
    }
}

actor OpenLog {
    var urls: [String] = []
    func add(_ url: String) { urls.append(url) }
}

final class LogLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
}
