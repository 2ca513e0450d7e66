#if canImport(ObjectiveC)
import CitconUPI
import Foundation
import ObjectiveC

// Citcon's CPay* models under their own Objective-C names, so that an Objective-C app
// that used Citcon's SDK compiles by changing its import. Each is a class of mutable
// properties, as Citcon's are, turned into CitconUPI's value types when a call starts.
// Their Swift names end in `ObjC`: in Swift, use CitconUPI's types.

/// `CPayTransaction`: the trade's reference, amount (minor units), currency, country.
@objc(CPayTransaction) public final class CPayTransactionObjC: NSObject, @unchecked Sendable {
    // (@unchecked: a model an app fills on one thread, then hands to one call.)
    /// The merchant's unique reference.
    @objc public var reference = ""
    /// The amount in minor units, tax included (`1099` for 10.99 USD).
    @objc public var amount = 0
    /// ISO 4217.
    @objc public var currency = ""
    /// ISO 3166.
    @objc public var country = ""
    /// Whether an authorization is captured at once.
    @objc public var autoCapture = false
    /// A note.
    @objc public var note = ""

    var value: CPayTransaction {
        var transaction = CPayTransaction()
        (transaction.reference, transaction.amount, transaction.currency) = (reference, amount, currency)
        (transaction.country, transaction.autoCapture, transaction.note) = (country, autoCapture, note)
        return transaction
    }
}

/// `CPayPayment`: how the consumer pays.
@objc(CPayPayment) public final class CPayPaymentObjC: NSObject, @unchecked Sendable {
    /// `wechatpay`, `alipay`, `upop`, `paypal`, `venmo`, `card`…
    @objc public var method = ""
    /// The payment indicator, if any.
    @objc public var indicator: String?
    /// Whether a reusable token is asked for.
    @objc public var requestToken = false
    /// A token to pay with.
    @objc public var token: String?

    var value: CPayPayment {
        var payment = CPayPayment()
        (payment.method, payment.indicator, payment.requestToken, payment.token) = (method, indicator, requestToken, token)
        return payment
    }
}

/// `CPayUrls`: where the IPN goes and where the wallet returns.
@objc(CPayUrls) public final class CPayUrlsObjC: NSObject, @unchecked Sendable {
    /// The merchant server's IPN URL.
    @objc public var ipn = ""
    /// Where a paid charge returns.
    @objc public var success = ""
    /// Where a failed charge returns.
    @objc public var fail = ""
    /// Where a cancelled charge returns.
    @objc public var cancel = ""

    var value: CPayUrls {
        var urls = CPayUrls()
        (urls.ipn, urls.success, urls.fail, urls.cancel) = (ipn, success, fail, cancel)
        return urls
    }
}

/// `CPayConsumer`: who pays (optional).
@objc(CPayConsumer) public final class CPayConsumerObjC: NSObject, @unchecked Sendable {
    /// The merchant's reference of the consumer.
    @objc public var reference: String?
    /// First name.
    @objc public var firstName: String?
    /// Last name.
    @objc public var lastName: String?
    /// Phone.
    @objc public var phone: String?
    /// Email.
    @objc public var email: String?

    var value: CPayConsumer {
        var consumer = CPayConsumer()
        (consumer.reference, consumer.firstName, consumer.lastName, consumer.phone, consumer.email) = (reference, firstName, lastName, phone, email)
        return consumer
    }
}

/// `CPayRequest`: the order an app asks ``CPayManagerObjC`` to pay. Its `transaction`,
/// `payment` and `urls` are made with it, as Citcon's are.
@objc(CPayRequest) public final class CPayRequestObjC: NSObject, @unchecked Sendable {
    /// The trade.
    @objc public var transaction = CPayTransactionObjC()
    /// How the consumer pays.
    @objc public var payment = CPayPaymentObjC()
    /// Where the IPN goes, where the wallet returns.
    @objc public var urls = CPayUrlsObjC()
    /// Who pays (optional).
    @objc public var consumer: CPayConsumerObjC?
    /// The app's URL scheme the wallet returns to.
    @objc public var scheme: String?
    /// The app's universal link the wallet returns to.
    @objc public var universalLink: String?
    /// The charge token the merchant's server created the charge with.
    @objc public var chargeToken = ""

    /// CitconUPI's order (goods, installments and ext are Swift-only).
    var value: CPayRequest {
        var request = CPayRequest()
        request.transaction = transaction.value
        request.payment = payment.value
        request.urls = urls.value
        request.consumer = consumer?.value
        (request.scheme, request.universalLink, request.chargeToken) = (scheme, universalLink, chargeToken)
        return request
    }
}

/// `CPayResult` (and Citcon's `CPayCheck`, the same fields): the envelope of an answer.
@objc(CPayResult) public final class CPayResultObjC: NSObject, Sendable {
    /// `success` or `fail`.
    @objc public let status: String
    /// The app that answered (`citcon_upi`).
    @objc public let app: String?
    /// The API version.
    @objc public let version: String
    /// The charge, or the failure's code and message.
    @objc public let data: CPayResultDataObjC?
    /// Whether the charge is paid (`success` with a `succeeded` charge).
    @objc public let isPaid: Bool

    init(_ result: CPayResult) {
        status = result.status
        app = result.app
        version = result.version
        data = result.data.map(CPayResultDataObjC.init)
        isPaid = result.isPaid
    }
}

/// `CPayResultData` (Citcon's `CPayCheckData`): the charge as the API answered it.
/// Amounts are in minor units; an amount the answer did not carry reads `NSNotFound`.
@objc(CPayResultData) public final class CPayResultDataObjC: NSObject, Sendable {
    /// The failure's code (`4010`…), on a `fail` envelope.
    @objc public let code: String?
    /// The failure's message.
    @objc public let message: String?
    /// The transaction id.
    @objc public let id: String?
    /// The merchant's reference.
    @objc public let reference: String?
    /// The amount, in minor units (`NSNotFound` when absent).
    @objc public let amount: Int
    /// The amount captured (`NSNotFound` when absent).
    @objc public let amountCaptured: Int
    /// The amount refunded (`NSNotFound` when absent).
    @objc public let amountRefunded: Int
    /// ISO 4217.
    @objc public let currency: String?
    /// `succeeded`, `failed`, `initiated`, `authorized`, `pending`, `canceled`, `expired`, or what the API sent.
    @objc public let status: String?
    /// The charge token.
    @objc public let chargeToken: String?
    /// The payment method.
    @objc public let paymentMethod: String?

    init(_ data: CPayResultData) {
        let notFound = Int.max
        code = data.code
        message = data.message
        id = data.id
        reference = data.reference
        amount = data.amount ?? notFound
        amountCaptured = data.amountCaptured ?? notFound
        amountRefunded = data.amountRefunded ?? notFound
        currency = data.currency
        status = data.status?.rawValue
        chargeToken = data.chargeToken
        paymentMethod = data.payment?.method
    }
}

/// `CPayENVMode`: which Citcon environment ``CPayManagerObjC/setMode(_:)`` points at.
@objc(CPayENVMode) public enum CPayENVModeObjC: Int, Sendable {
    @objc(CPayENVModeDEV) case dev
    @objc(CPayENVModeQA) case qa
    @objc(CPayENVModeUAT) case uat
    @objc(CPayENVModePROD) case prod

    var value: CPayENVMode {
        switch self {
        case .dev: .dev
        case .qa: .qa
        case .uat: .uat
        case .prod: .prod
        }
    }
}
#endif
