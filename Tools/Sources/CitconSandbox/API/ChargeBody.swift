@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI
import Foundation

// The body as the sandbox reads it (its own type, which the generated operation decodes
// through the configuration's `typeOverrides`, described by the schema named beside it),
// and the value it is checked into.

/// `POST /v1/charges` (schema `ChargeRequest`): what the merchant's server sends.
package struct ChargeBody: Decodable, Sendable, Hashable {
    /// The trade.
    package var transaction: CPayTransaction
    /// The method (optional at creation; the SDK confirms with one).
    package var payment: CPayPayment?
    /// IPN and browser returns.
    package var urls: CPayUrls?
    /// The consumer.
    package var consumer: CPayConsumer?
    /// Goods.
    package var goods: CPayGoods?
    /// Whether the body carried `transaction.auto_capture` (the sandbox defaults it per
    /// method when absent).
    package var autoCaptureSent: Bool

    package enum CodingKeys: String, CodingKey, CaseIterable { case transaction, payment, urls, consumer, goods }
    enum TransactionKeys: String, CodingKey { case autoCapture = "auto_capture" }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        transaction = try c.decode(CPayTransaction.self, forKey: .transaction)
        payment = try c.decodeIfPresent(CPayPayment.self, forKey: .payment)
        urls = try c.decodeIfPresent(CPayUrls.self, forKey: .urls)
        consumer = try c.decodeIfPresent(CPayConsumer.self, forKey: .consumer)
        goods = try c.decodeIfPresent(CPayGoods.self, forKey: .goods)
        autoCaptureSent = try c.nestedContainer(keyedBy: TransactionKeys.self, forKey: .transaction).contains(.autoCapture)
    }

    /// Hashable as the generated operations ask (by the trade's reference: equal bodies have equal ones).
    package func hash(into hasher: inout Hasher) { hasher.combine(transaction.reference) }
}

/// A charge to create, valid when made: every rule of `POST /v1/charges`' body (the
/// trade, its URLs, its goods, its method) checked in order, each refusal a `4000`
/// naming the field. The operation makes it from the body it decoded and hands it to
/// ``SandboxAPI/createCharge(_:scenario:ipnFault:)``.
package struct NewCharge: Sendable {
    /// The trade.
    package let transaction: CPayTransaction
    /// IPN and browser returns (none sent: all empty).
    package let urls: CPayUrls
    /// The method, when the charge is created with one.
    package let method: SandboxMethod?
    /// Whether the charge is captured at once: as sent, else per method as the live API
    /// defaults it (true where the method settles at once, false where it captures later).
    package let autoCapture: Bool
    /// The clients it may be paid from (`desktop` gets a QR page, any other a redirect).
    package let clients: [String]

    /// Checks `body`; `remoteIPN` allows an IPN URL that is not a loopback address.
    package init(_ body: ChargeBody, remoteIPN: Bool) throws(APIError) {
        try SandboxAPI.field { () throws(ChargeKitError) in try CPayOrderValidator.validate(body.transaction) }
        let urls = body.urls ?? CPayUrls()
        try SandboxAPI.field { () throws(ChargeKitError) in try CPayOrderValidator.validate(urls) }
        if !urls.ipn.isEmpty {
            guard urls.ipn.hasPrefix("http://") || urls.ipn.hasPrefix("https://") else {
                throw APIError(.invalidRequest, "urls.ipn: must be an http or https URL")
            }
            guard IPNPost.port(of: urls.ipn) != nil else {
                throw APIError(.invalidRequest, "urls.ipn: must be a URL with a host and a port from 1 to 65535")
            }
            guard remoteIPN || isLoopback(urls.ipn) else {
                throw APIError(.invalidRequest,
                               "urls.ipn: must be a loopback address (127.0.0.1, ::1, localhost); start the sandbox with --allow-remote-ipn for others")
            }
        }
        for (name, url) in [("urls.success", urls.success), ("urls.fail", urls.fail), ("urls.cancel", urls.cancel)]
        where !url.isEmpty {
            try SandboxAPI.checkRedirect(url, field: name)
        }
        for (index, product) in (body.goods?.goods ?? []).enumerated() {
            let numbers: [(String, Int?)] = [("quantity", product.quantity), ("unit_amount", product.unitAmount),
                                             ("total_amount", product.totalAmount)]
            for (name, value) in numbers {
                if let value, !(0...Int(CPayOrderValidator.maximumAmount)).contains(value) {
                    throw APIError(.invalidRequest, "goods.data[\(index)].\(name): must be 0 to \(CPayOrderValidator.maximumAmount)")
                }
            }
        }
        let chosen = try body.payment.map { payment throws(APIError) in try SandboxMethod.checked(payment.method) }
        transaction = body.transaction
        self.urls = urls
        method = chosen
        autoCapture = body.autoCaptureSent ? body.transaction.autoCapture : (chosen.map { !$0.supportsCapture } ?? false)
        clients = body.payment?.client.isEmpty == false ? body.payment?.client ?? [] : ["desktop", "mobile_browser", "mobile_native"]
    }
}
