import Foundation

/// The order an app pays with ``CPayManager/requestOrder(_:callback:)``: the seed's
/// `CPayRequest`. `transaction`, `payment` and `urls` exist from the start, so the
/// seed's samples read the same in Swift:
///
/// ```swift
/// var order = CPayRequest()
/// order.transaction.reference = "wechatpay_ref_123erg0234s"
/// order.transaction.amount = 1
/// order.transaction.currency = "USD"
/// order.transaction.country = "US"
/// order.payment = CPayPayment()
/// order.payment.method = "wechatpay"
/// order.urls.ipn = "https://ipn.com/"
/// order.universalLink = "https://www.merchant.com/apps/"
/// order.chargeToken = tokenFromYourServer
/// ```
///
/// Encodes to the UPI wire format (snake_case keys). The SDK-only fields (`scheme`,
/// `universalLink`, `request3DSecureVerification`, `unionpayMode`, `chargeToken`)
/// are not part of the wire body.
public struct CPayRequest: Sendable, Equatable, Codable {
    /// What is sold: reference, amount in minor units, currency, country.
    public var transaction = CPayTransaction()
    /// The consumer; required for 3-D Secure cards, PayPal and Venmo vaulting.
    public var consumer: CPayConsumer?
    /// The payment method and its details.
    public var payment = CPayPayment()
    /// Products and shipping; rarely needed.
    public var goods: CPayGoods?
    /// Installment plan, for wallets that support it.
    public var installments: CPayInstallments?
    /// IPN and browser return URLs.
    public var urls = CPayUrls()
    /// Extra data: receipt type and device information.
    public var ext: CPayExt?
    /// The app's URL scheme the wallet returns to (required for `alipay`), such as
    /// `com.citcon.citconpay`.
    public var scheme: String?
    /// The app's universal link the wallet returns to (required for `wechatpay`),
    /// such as `https://www.merchant.com/apps/`.
    public var universalLink: String?
    /// Whether a card payment uses 3-D Secure; then consumer and billing address are required.
    public var request3DSecureVerification = false
    /// UnionPay mode: `"00"` production (default), `"01"` development.
    public var unionpayMode = "00"
    /// The charge token the merchant's server obtained with `POST /v1/charges`.
    public var chargeToken = ""

    /// Makes an empty order.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case transaction, consumer, payment, goods, installments, urls, ext
    }

    /// Reads the wire body; `transaction` is required, `payment` and `urls` default to empty.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        transaction = try c.decode(CPayTransaction.self, forKey: .transaction)
        consumer = try c.decodeIfPresent(CPayConsumer.self, forKey: .consumer)
        payment = try c.decodeIfPresent(CPayPayment.self, forKey: .payment) ?? CPayPayment()
        goods = try c.decodeIfPresent(CPayGoods.self, forKey: .goods)
        installments = try c.decodeIfPresent(CPayInstallments.self, forKey: .installments)
        urls = try c.decodeIfPresent(CPayUrls.self, forKey: .urls) ?? CPayUrls()
        ext = try c.decodeIfPresent(CPayExt.self, forKey: .ext)
    }
}

/// The trade: the seed's `CPayTransaction`.
public struct CPayTransaction: Sendable, Equatable, Codable {
    /// The merchant's unique serial number for the trade (an idempotency key).
    public var reference = ""
    /// The amount in the currency's minor unit, tax included (`128` is 1.28 USD).
    public var amount = 0
    /// ISO 4217 code, upper case.
    public var currency = ""
    /// ISO 3166-1 alpha-2 code, upper case.
    public var country = ""
    /// Capture without a separate capture call. Ignored by wechatpay, alipay and unionpay.
    public var autoCapture = false
    /// Merchant-defined note.
    public var note = ""

    /// Makes an empty transaction.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case reference, amount, currency, country, note
        case autoCapture = "auto_capture"
    }

    /// Reads the wire form: `reference`, `amount`, `currency` and `country` are
    /// required; `auto_capture` defaults to `false`, `note` to empty.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        reference = try c.decode(String.self, forKey: .reference)
        amount = try c.decode(Int.self, forKey: .amount)
        currency = try c.decode(String.self, forKey: .currency)
        country = try c.decode(String.self, forKey: .country)
        autoCapture = try c.decodeIfPresent(Bool.self, forKey: .autoCapture) ?? false
        note = try c.decodeIfPresent(String.self, forKey: .note) ?? ""
    }
}

/// The seed's misspelt name for ``CPayTransaction``.
@available(*, deprecated, renamed: "CPayTransaction")
public typealias CPayTranscation = CPayTransaction

/// The consumer: the seed's `CPayConsumer`.
public struct CPayConsumer: Sendable, Equatable, Codable {
    /// The merchant's identifier for the consumer (required for vaulting).
    public var reference: String?
    /// First name (required for 3-D Secure).
    public var firstName: String?
    /// Last name (required for 3-D Secure).
    public var lastName: String?
    /// Phone number (required for 3-D Secure).
    public var phone: String?
    /// Email (required for 3-D Secure).
    public var email: String?
    /// Street.
    public var street: String?
    /// City.
    public var city: String?
    /// Zip code.
    public var zip: String?
    /// ISO 3166-1 alpha-2 country.
    public var country: String?

    /// Makes an empty consumer.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case reference, phone, email, street, city, zip, country
        case firstName = "first_name", lastName = "last_name"
    }
}

/// A card's billing address: the seed's `CPayBillingAddr`.
public struct CPayBillingAddr: Sendable, Equatable, Codable {
    /// Street number and name.
    public var street: String?
    /// Unit number.
    public var street2: String?
    /// City.
    public var city: String?
    /// State or province.
    public var state: String?
    /// Zip code.
    public var zip: String?
    /// ISO 3166-1 alpha-2 country.
    public var country: String?

    /// Makes an empty address.
    public init() {}
}

/// The payment method and its details: the seed's `CPayPayment`.
public struct CPayPayment: Sendable, Equatable, Codable {
    /// The method, lower case: `wechatpay`, `alipay`, `unionpay`, `card`, `paypal`, `venmo`…
    public var method = ""
    /// Source of the transaction, such as `authenticated`.
    public var indicator: String?
    /// Ask for a vault token (card, PayPal, Venmo).
    public var requestToken = false
    /// A vault token from an earlier payment.
    public var token: String?
    /// The request type; the SDK always sends `["mobile_native"]`.
    public var client = ["mobile_native"]
    /// Absolute order timeout.
    public var expiry: Int?
    /// Card details.
    public var data: CPayPaymentData?
    /// The cardholder's billing address (required for 3-D Secure).
    public var billingAddress: CPayBillingAddr?
    /// Payment data format (published SDK).
    public var format: String?
    /// Payment nonce (published SDK).
    public var nonce: String?

    /// Makes an empty payment.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case method, indicator, token, client, expiry, data, format, nonce
        case requestToken = "request_token", billingAddress = "billing_address"
    }

    /// Reads the wire form: `method` is required, the rest optional.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        method = try c.decode(String.self, forKey: .method)
        indicator = try c.decodeIfPresent(String.self, forKey: .indicator)
        requestToken = try c.decodeIfPresent(Bool.self, forKey: .requestToken) ?? false
        token = try c.decodeIfPresent(String.self, forKey: .token)
        client = try c.decodeIfPresent([String].self, forKey: .client) ?? ["mobile_native"]
        expiry = try c.decodeIfPresent(Int.self, forKey: .expiry)
        data = try c.decodeIfPresent(CPayPaymentData.self, forKey: .data)
        billingAddress = try c.decodeIfPresent(CPayBillingAddr.self, forKey: .billingAddress)
        format = try c.decodeIfPresent(String.self, forKey: .format)
        nonce = try c.decodeIfPresent(String.self, forKey: .nonce)
    }
}

/// Card data: the seed's `CPayPaymentData` (its `cw` is the card verification value).
public struct CPayPaymentData: Sendable, Equatable, Codable {
    /// Cardholder's first name.
    public var firstName: String?
    /// Cardholder's last name.
    public var lastName: String?
    /// Card verification value.
    public var cvv: String?
    /// Card number.
    public var pan: String?
    /// Expiry, `MM/YY`.
    public var expiry: String?
    /// Card issuer (published SDK).
    public var issuer: String?

    /// Makes empty card data.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case cvv, pan, expiry, issuer
        case firstName = "first_name", lastName = "last_name"
    }
}

/// Products and shipping: the seed's `CPayGoods`.
public struct CPayGoods: Sendable, Equatable, Codable {
    /// The products.
    public var goods: [CPayProduct] = []
    /// Where they ship.
    public var shipping: CPayShipping?

    /// Makes empty goods.
    public init() {}

    enum CodingKeys: String, CodingKey { case goods, data, shipping }

    /// Reads the live API's shape (`data[]`) and the seed's (`goods[]`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        goods = try c.decodeIfPresent([CPayProduct].self, forKey: .data) ?? c.decodeIfPresent([CPayProduct].self, forKey: .goods) ?? []
        shipping = try c.decodeIfPresent(CPayShipping.self, forKey: .shipping)
    }

    /// Writes the live API's shape: the products under `data`.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(goods, forKey: .data)
        try c.encodeIfPresent(shipping, forKey: .shipping)
    }
}

/// One product: the seed's `CPayProduct`. Amounts are in minor units.
public struct CPayProduct: Sendable, Equatable, Codable {
    /// Name.
    public var name: String?
    /// SKU.
    public var sku: String?
    /// Product page.
    public var url: String?
    /// Quantity.
    public var quantity: Int?
    /// Total including tax and discount.
    public var totalAmount: Int?
    /// Unit amount including tax, excluding discount.
    public var unitAmount: Int?
    /// Tax rate.
    public var totalTaxRate: Int?
    /// Tax amount.
    public var totalTaxAmount: Int?
    /// Discount amount.
    public var totalDiscountAmount: Int?
    /// Taxable amount.
    public var taxableAmount: Int?
    /// Tax-exempt amount.
    public var taxExemptAmount: Int?
    /// Category (published SDK).
    public var category: String?
    /// Discount code (published SDK).
    public var totalDiscountCode: String?
    /// Product type (published SDK).
    public var productType: String?
    /// Description (published SDK).
    public var desc: String?

    /// Makes an empty product.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case name, sku, url, quantity, category, desc
        case totalAmount = "total_amount", unitAmount = "unit_amount", totalTaxRate = "total_tax_rate"
        case totalTaxAmount = "total_tax_amount", totalDiscountAmount = "total_discount_amount"
        case taxableAmount = "taxable_amount", taxExemptAmount = "tax_exempt_amount"
        case totalDiscountCode = "total_discount_code", productType = "product_type"
    }
}

/// Shipping details: the seed's `CPayShipping`.
public struct CPayShipping: Sendable, Equatable, Codable {
    /// First name.
    public var firstName: String?
    /// Last name.
    public var lastName: String?
    /// Phone.
    public var phone: String?
    /// Email.
    public var email: String?
    /// Street.
    public var street: String?
    /// Unit.
    public var street2: String?
    /// City.
    public var city: String?
    /// State.
    public var state: String?
    /// Zip.
    public var zip: String?
    /// ISO 3166-1 alpha-2 country.
    public var country: String?

    /// Makes empty shipping details.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case phone, email, street, street2, city, state, zip, country
        case firstName = "first_name", lastName = "last_name"
    }
}

/// An installment plan: the seed's `CPayInstallments`.
public struct CPayInstallments: Sendable, Equatable, Codable {
    /// The plan's maximum.
    public var id: String?
    /// Number of payments (published SDK).
    public var paymentNumber: Int?
    /// Quantity (published SDK).
    public var quantity: Int?

    /// Makes an empty plan.
    public init() {}

    enum CodingKeys: String, CodingKey {
        case id, quantity
        case paymentNumber = "payment_number"
    }
}

/// The trade's URLs: the seed's `CPayUrls`.
public struct CPayUrls: Sendable, Equatable, Codable {
    /// Where the server POSTs asynchronous notifications (IPN).
    public var ipn = ""
    /// Browser return after success.
    public var success = ""
    /// Browser return after failure.
    public var fail = ""
    /// Browser return after cancellation.
    public var cancel = ""

    /// Makes empty URLs.
    public init() {}

    /// Reads the wire form; every URL is optional.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        ipn = try c.decodeIfPresent(String.self, forKey: .ipn) ?? ""
        success = try c.decodeIfPresent(String.self, forKey: .success) ?? ""
        fail = try c.decodeIfPresent(String.self, forKey: .fail) ?? ""
        cancel = try c.decodeIfPresent(String.self, forKey: .cancel) ?? ""
    }

    enum CodingKeys: String, CodingKey { case ipn, success, fail, cancel }
}

/// Extra data of the published SDK: `ext.transaction.receipt.type`, `ext.device.ip`,
/// `ext.device.os`.
public struct CPayExt: Sendable, Equatable, Codable {
    /// Receipt type.
    public var receiptType: String?
    /// The device's IP address.
    public var deviceIP: String?
    /// The device's operating system.
    public var deviceOS: String?

    /// Makes empty extra data.
    public init() {}

    private struct Receipt: Codable { var type: String? }
    private struct Transaction: Codable { var receipt: Receipt? }
    private struct Device: Codable { var ip: String?; var os: String? }
    private enum CodingKeys: String, CodingKey { case transaction, device }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        receiptType = try container.decodeIfPresent(Transaction.self, forKey: .transaction)?.receipt?.type
        let device = try container.decodeIfPresent(Device.self, forKey: .device)
        deviceIP = device?.ip
        deviceOS = device?.os
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        if let receiptType { try container.encode(Transaction(receipt: Receipt(type: receiptType)), forKey: .transaction) }
        if deviceIP != nil || deviceOS != nil { try container.encode(Device(ip: deviceIP, os: deviceOS), forKey: .device) }
    }
}
