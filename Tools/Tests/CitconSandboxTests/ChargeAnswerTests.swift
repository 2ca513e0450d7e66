@testable import CitconSandbox
@_spi(Tools) import CitconUPI
import Foundation
import Testing

/// The create and confirm answers the sandbox writes are the live API's shape, and the
/// app SDK reads them back to the values written.
@Suite("Charge answers: written by the sandbox, read by the SDK")
struct ChargeAnswerTests {
    static let wallet = "http://127.0.0.1:8080/sandbox/wallet/1234567890123456789"

    static let created = ChargeCreatedAnswer(
        id: "1234567890123456789", chargeToken: "0123456789abcdef0123456789abcdef", status: .initiated,
        reference: "order-42", amount: 125, currency: "USD", expiry: 1_700_000_900_000, timeCreated: 1_700_000_000_000,
        autoCapture: false, country: "US", exchange: CPayExchange(amount: 125, currency: "USD", rate: 1),
        payment: .init(method: "wechatpay", client: [
            .init(client: "desktop", format: "qr", content: "http://127.0.0.1:8080/sandbox/qr/1234567890123456789"),
            .init(client: "mobile_browser", format: "redirect", content: wallet),
        ]))

    @Test("a create answer, byte for byte: time_captured an explicit null, times in seconds, slashes unescaped")
    func createAnswerBytes() throws {
        let written = String(decoding: try UPIWire.encoder().encode(UPIWire.Envelope(data: Self.created)), as: UTF8.self)
        #expect(written == """
            {"app":"citcon_upi","data":{"amount":125,"auto_capture":false,"charge_token":"0123456789abcdef0123456789abcdef",\
            "country":"US","currency":"USD","exchange":{"amount":125,"currency":"USD","rate":1},"expiry":1700000900,\
            "id":"1234567890123456789","object":"charge",\
            "payment":{"client":[{"client":"desktop","content":"http://127.0.0.1:8080/sandbox/qr/1234567890123456789",\
            "format":"qr","method":"GET"},{"client":"mobile_browser","content":"\(Self.wallet)","format":"redirect",\
            "method":"GET"}],"method":"wechatpay"},"reference":"order-42","status":"initiated","time_captured":null,\
            "time_created":1700000000},"status":"success","version":"\(UPIWire.version)"}
            """)
    }

    @Test("the SDK reads a create answer to the values written, a method left out where the charge has none")
    func createAnswerRead() throws {
        for method in ["wechatpay", nil] {
            var created = Self.created
            created.payment.method = method
            let read: UPIWire.ChargeCreated = try UPIClient.decode(try UPIWire.encoder().encode(UPIWire.Envelope(data: created)), status: 200)
            #expect(read.id == created.id && read.chargeToken == created.chargeToken && read.status == .initiated)
            #expect(read.reference == created.reference && read.amount == created.amount && read.currency == created.currency)
            #expect(read.expiry == created.expiry && read.timeCreated == created.timeCreated && read.timeCaptured == nil)
            #expect(read.autoCapture == false && read.country == "US" && read.exchange == created.exchange)
            #expect(read.payment?.method == method && read.payment?.client.map(\.content) == created.payment.client.map(\.content))
        }
    }

    @Test("the SDK reads a confirmation to the transaction and the wallet written")
    func confirmationRead() throws {
        var transaction = CPayCheckData()
        transaction.id = "1234567890123456789"
        transaction.status = .pending
        transaction.amount = 125
        let answer = ConfirmationAnswer(transaction: transaction, walletURL: Self.wallet)
        let read: UPIWire.Confirmation = try UPIClient.decode(try UPIWire.encoder().encode(UPIWire.Envelope(data: answer)), status: 200)
        #expect(read.transaction.id == transaction.id && read.transaction.status == .pending && read.transaction.amount == 125)
        #expect(read.nextAction.type == "redirect" && read.nextAction.url == Self.wallet)
    }
}
