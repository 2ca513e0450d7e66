@_spi(Tools) import ChargeKit
import Foundation
import Testing
@_spi(Tools) @testable import CitconUPI

@Suite("Citcon seed JSON oracles")
struct SeedOracleTests {
    @Test("the synchronous example decodes field for field into CPayResult")
    func synchronousExample() throws {
        let result = try JSONDecoder().decode(CPayResult.self, from: Data(SeedJSON.synchronous.utf8))
        #expect(result.status == "success")
        #expect(result.app == "citcon_upi")
        #expect(result.version == "v0.1.1")
        let data = try #require(result.data)
        #expect(data.object == "charge")
        #expect(data.id == "8b3ac410a2d911ec8410e9f493c7d3ef")
        #expect(data.reference == "sdk_digit_1647181572.353276")
        #expect(data.amount == 1)
        #expect(data.amountCaptured == nil)
        #expect(data.amountRefunded == nil)
        #expect(data.currency == "USD")
        #expect(data.timeCreated == 1_647_181_576_000)
        #expect(data.timeCaptured == nil)
        #expect(data.autoCapture == false)
        #expect(data.status == .succeeded)
        #expect(data.country == "US")
        #expect(data.payment == CPayResultDataPayment(method: "paypal"))
        #expect(data.code == nil && data.message == nil && data.chargeToken == nil)
        #expect(result.isPaid)
    }

    @Test("the asynchronous example decodes field for field into CPayCheck, empty strings and nulls kept")
    func asynchronousExample() throws {
        let check = try JSONDecoder().decode(CPayCheck.self, from: Data(SeedJSON.asynchronous.utf8))
        #expect(check.status == "success" && check.app == "citcon_upi" && check.version == "v0.1.1")
        let data = try #require(check.data)
        #expect(data.id == "8b3ac410a2d911ec8410e9f493c7d3ef")
        #expect(data.object == "charge")
        #expect(data.amount == 1)
        #expect(data.currency == "USD")
        #expect(data.status == .succeeded)
        #expect(data.timeCanceled == .text(""))
        #expect(data.expiry == nil)
        #expect(data.timeCreated == 1_647_181_576_000)
        #expect(data.country == "US")
        #expect(data.reference == "sdk_digit_1647181572.353276")
        #expect(data.amountCaptured == nil && data.amountRefunded == nil && data.timeCaptured == nil)
        #expect(data.autoCapture == false)
        let payment = try #require(data.payment)
        #expect(payment.method == "paypal")
        #expect(payment.token == nil)
        #expect(payment.type == "")
        #expect(payment.data?.pan == "" && payment.data?.expiry == "")
        #expect(check.isPaid)
    }

    @Test("the asynchronous example with its continuation: exchange, captures, refunds, chargebacks")
    func asynchronousComplete() throws {
        let check = try JSONDecoder().decode(CPayCheck.self, from: Data(SeedJSON.asynchronousComplete.utf8))
        let data = try #require(check.data)
        #expect(data.payment?.method == "paypal")
        #expect(data.exchange == CPayExchange(amount: nil, currency: nil, rate: nil))
        #expect(data.captures == CPayList([]))
        #expect(data.refunds == CPayList([]))
        #expect(data.chargebacks == CPayList([]))
    }

    @Test("CPayCheckData encodes absent values as null, like the server, and round-trips")
    func checkRoundTrip() throws {
        let check = try JSONDecoder().decode(CPayCheck.self, from: Data(SeedJSON.asynchronousComplete.utf8))
        let encoded = try UPIWire.encoder().encode(check)
        let text = String(decoding: encoded, as: UTF8.self)
        #expect(text.contains(#""amount_captured":null"#))
        #expect(text.contains(#""time_canceled":"""#))
        #expect(text.contains(#""captures":{"data":[]}"#))
        #expect(try JSONDecoder().decode(CPayCheck.self, from: encoded) == check)
    }

    @Test("the seed's table types auto_capture as String: \"true\" and \"false\" are read, others refused")
    func lenientAutoCapture() throws {
        let json = #"{"status":"success","version":"v0.1.1","data":{"auto_capture":"true","code":4010}}"#
        let result = try JSONDecoder().decode(CPayResult.self, from: Data(json.utf8))
        #expect(result.data?.autoCapture == true)
        #expect(result.data?.code == "4010")
        #expect(result.data?.clientCode == .other("4010"))
        let bad = #"{"status":"success","version":"v0.1.1","data":{"auto_capture":"maybe"}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(CPayResult.self, from: Data(bad.utf8)) }
    }

    @Test("statuses and client codes are typed and keep unknown values")
    func typedEnums() throws {
        for status in CPayStatus.known { #expect(CPayStatus(rawValue: status.rawValue) == status) }
        #expect(CPayStatus(rawValue: "refunded") == .unknown("refunded"))
        #expect(CPayStatus(rawValue: "refunded").rawValue == "refunded")
        let decoded = try JSONDecoder().decode([CPayStatus].self, from: Data(#"["succeeded","disputed"]"#.utf8))
        #expect(decoded == [.succeeded, .unknown("disputed")])
        #expect(CPayClientCode(rawValue: "0") == .success)
        #expect(CPayClientCode(rawValue: "-1") == .commonError)
        #expect(CPayClientCode(rawValue: "-2") == .cancelled)
        #expect(CPayClientCode(rawValue: "6001") == .walletCancelled)
        #expect(CPayClientCode(rawValue: "4100") == .other("4100"))
        #expect(CPayClientCode(rawValue: "6001").isCancellation && CPayClientCode(rawValue: "-2").isCancellation)
        #expect(!CPayClientCode(rawValue: "-1").isCancellation)
    }
}

@Suite("CPay request models")
struct RequestModelTests {
    /// The seed's "successful order payment" sample, written the way it reads.
    static func seedOrder() -> CPayRequest {
        var order = CPayRequest()
        order.transaction.reference = "sdk_wechatpay_1647325284.794511"
        order.transaction.amount = 1
        order.transaction.currency = "USD"
        order.transaction.country = "US"
        order.transaction.note = ""
        order.payment = CPayPayment()
        order.payment.method = "wechatpay"
        order.urls.ipn = "https://ipn.merchants.com/"
        order.urls.success = "https://success.merchants.com/"
        order.urls.cancel = "https://cancel.merchants.com/"
        order.urls.fail = "https://fail.merchants.com/"
        order.universalLink = "https://universallink.com/apps"
        order.chargeToken = "62d5c1e0242011eda300f59379b812ce"
        return order
    }

    @Test("the seed's sample order validates and encodes to the snake_case wire format")
    func seedOrderWire() throws {
        let order = Self.seedOrder()
        try CPayOrderValidator.validate(order)
        let json = String(decoding: try UPIWire.encoder().encode(order), as: UTF8.self)
        #expect(json.contains(#""transaction":{"amount":1,"auto_capture":false,"country":"US","currency":"USD","note":"","reference":"sdk_wechatpay_1647325284.794511"}"#))
        #expect(json.contains(#""client":["mobile_native"]"#))
        #expect(json.contains(#""request_token":false"#))
        #expect(json.contains(#""urls":{"cancel":"https://cancel.merchants.com/","fail":"https://fail.merchants.com/","ipn":"https://ipn.merchants.com/","success":"https://success.merchants.com/"}"#))
        #expect(!json.contains("universal") && !json.contains("charge_token"), "SDK-only fields stay off the wire")
        let back = try JSONDecoder().decode(CPayRequest.self, from: Data(json.utf8))
        #expect(back.transaction == order.transaction && back.payment == order.payment && back.urls == order.urls)
    }

    @Test("every model field of the published SDK round-trips through JSON")
    func fullRoundTrip() throws {
        var order = Self.seedOrder()
        var consumer = CPayConsumer()
        consumer.reference = "GUID4530"; consumer.firstName = "John"; consumer.lastName = "Doe"
        consumer.phone = "5551234567"; consumer.email = "test@email.com"; consumer.street = "555 Smith St"
        consumer.city = "Chicago"; consumer.zip = "12345"; consumer.country = "US"
        order.consumer = consumer
        var address = CPayBillingAddr()
        address.street = "555 Smith St"; address.street2 = "#2"; address.city = "Chicago"; address.state = "IL"
        address.zip = "12345"; address.country = "US"
        order.payment.billingAddress = address
        var card = CPayPaymentData()
        card.firstName = "John"; card.lastName = "Smith"; card.cvv = "123"; card.pan = "4111111111111111"
        card.expiry = "12/30"; card.issuer = "visa"
        order.payment.data = card
        order.payment.format = "raw"; order.payment.nonce = "n-1"; order.payment.expiry = 60000
        var product = CPayProduct()
        product.name = "Toy"; product.sku = "3264571"; product.url = "https://global.nichel.com/toy/3264571"
        product.quantity = 12; product.totalAmount = 32618; product.unitAmount = 24713; product.totalTaxRate = 12
        product.totalTaxAmount = 28; product.totalDiscountAmount = 128; product.taxableAmount = 0
        product.taxExemptAmount = 0; product.category = "toys"; product.totalDiscountCode = "SAVE"
        product.productType = "physical"; product.desc = "A toy"
        var shipping = CPayShipping()
        shipping.firstName = "John"; shipping.street2 = "#2"; shipping.country = "US"
        var goods = CPayGoods()
        goods.goods = [product]; goods.shipping = shipping
        order.goods = goods
        var installments = CPayInstallments()
        installments.id = "12"; installments.paymentNumber = 3; installments.quantity = 1
        order.installments = installments
        var ext = CPayExt()
        ext.receiptType = "email"; ext.deviceIP = "10.0.0.1"; ext.deviceOS = "iOS"
        order.ext = ext
        let data = try UPIWire.encoder().encode(order)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""ext":{"device":{"ip":"10.0.0.1","os":"iOS"},"transaction":{"receipt":{"type":"email"}}}"#))
        #expect(text.contains(#""total_discount_code":"SAVE""#) && text.contains(#""payment_number":3"#))
        #expect(text.contains(#""billing_address":{"#) && text.contains(#""first_name":"John""#))
        let back = try JSONDecoder().decode(CPayRequest.self, from: data)
        #expect(back.consumer == order.consumer)
        #expect(back.payment == order.payment)
        #expect(back.goods == order.goods)
        #expect(back.installments == order.installments)
        #expect(back.ext == order.ext)
    }

    @Test("the misspelt seed name still compiles, deprecated")
    @available(*, deprecated)
    func misspeltAlias() {
        var transaction = CPayTranscation()
        transaction.reference = "r"
        #expect(transaction.reference == "r")
    }
}

@Suite("The oracles are the seed's own bytes")
struct SeedBytesTests {
    static let seedPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/seeds/citcon-upi-sdk-ios.md").path

    @Test("each JSON fixture appears verbatim in ../shared/seeds/citcon-upi-sdk-ios.md",
          .enabled(if: FileManager.default.fileExists(atPath: seedPath), "needs ../shared beside the clone (as in CI)"))
    func fixturesAreVerbatim() throws {
        let seed = try String(contentsOfFile: Self.seedPath, encoding: .utf8)
        #expect(seed.contains(SeedJSON.synchronous))
        #expect(seed.contains(SeedJSON.asynchronous))
        #expect(seed.contains(SeedJSON.asynchronousTail))
    }
}
