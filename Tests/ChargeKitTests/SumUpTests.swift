@_spi(Tools) import ChargeKit
import Foundation
import Testing

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
