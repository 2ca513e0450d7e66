@_spi(Tools) import ChargeKit

/// The checks ``CPayManager/requestOrder(_:callback:)`` runs before any network call.
/// Each failure names the field by its Swift path (`transaction.amount`, `scheme`,
/// `consumer.firstName`, `payment.billingAddress.zip`).
@_spi(Tools) public enum CPayOrderValidator {
    /// The largest amount accepted, in minor units.
    @_spi(Tools) public static let maximumAmount: Int64 = 999_999_999_999

    /// Checks an order.
    @_spi(Tools) public static func validate(_ order: CPayRequest) throws(ChargeKitError) {
        try validate(order.transaction)
        try method(order.payment.method)
        try FieldRules.identifier(order.chargeToken, field: "chargeToken", limit: 128)
        try validate(order.urls)
        if let scheme = order.scheme { try self.scheme(scheme) }
        if let link = order.universalLink { try universalLink(link) }
        switch order.payment.method {
        case "alipay":
            guard order.scheme != nil else { throw .invalidField("scheme", rule: "is required for alipay (the wallet returns to it)") }
        case "wechatpay":
            guard order.universalLink != nil else {
                throw .invalidField("universalLink", rule: "is required for wechatpay (the wallet returns to it)")
            }
        case "card" where order.request3DSecureVerification:
            try threeDSecure(order)
        default:
            break
        }
        guard order.scheme != nil || order.universalLink != nil else {
            throw .invalidField("scheme", rule: "set scheme or universalLink: the wallet needs a way back to the app")
        }
        guard ["00", "01"].contains(order.unionpayMode) else {
            throw .invalidField("unionpayMode", rule: "must be \"00\" (production) or \"01\" (development)")
        }
    }

    /// Checks a transaction: reference, amount (1 to ``maximumAmount`` minor units),
    /// ISO 4217 currency, ISO 3166-1 country, note. The sandbox server runs the same checks.
    @_spi(Tools) public static func validate(_ transaction: CPayTransaction) throws(ChargeKitError) {
        try FieldRules.identifier(transaction.reference, field: "transaction.reference", limit: 128)
        guard transaction.amount > 0 else { throw .invalidField("transaction.amount", rule: "must be greater than zero") }
        guard Int64(transaction.amount) <= maximumAmount else {
            throw .invalidField("transaction.amount", rule: "must be at most \(maximumAmount) minor units")
        }
        do {
            _ = try Currency(code: transaction.currency, field: "transaction.currency")
        } catch .unknownCurrency(let code) {
            throw .invalidField("transaction.currency", rule: "'\(code)' is not an ISO 4217 currency code")
        }
        _ = try Country(code: transaction.country, field: "transaction.country")
        try FieldRules.text(transaction.note, field: "transaction.note", limit: 512)
    }

    /// Checks the URLs that are set: each must be a URL with a scheme and no fragment.
    @_spi(Tools) public static func validate(_ urls: CPayUrls) throws(ChargeKitError) {
        for (value, field) in [(urls.ipn, "urls.ipn"), (urls.success, "urls.success"),
                               (urls.fail, "urls.fail"), (urls.cancel, "urls.cancel")] where !value.isEmpty {
            try FieldRules.callbackURL(value, field: field)
        }
    }

    /// A payment method: 1–32 lower-case letters, digits or `_`.
    @_spi(Tools) public static func method(_ method: String) throws(ChargeKitError) {
        guard !method.isEmpty else { throw .missingField("payment.method") }
        guard method.utf8.count <= 32,
              method.utf8.allSatisfy({ (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) || $0 == 0x5F })
        else { throw .invalidField("payment.method", rule: "must be 1 to 32 lower-case letters, digits or '_'") }
    }

    /// A URL scheme per RFC 3986: a letter, then letters, digits, `+`, `-` or `.`.
    static func scheme(_ scheme: String) throws(ChargeKitError) {
        guard let first = scheme.utf8.first, (0x41...0x5A).contains(first) || (0x61...0x7A).contains(first),
              scheme.utf8.count <= 64,
              scheme.utf8.allSatisfy({ byte in
                  (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                      || byte == 0x2B || byte == 0x2D || byte == 0x2E
              })
        else { throw .invalidField("scheme", rule: "must be a URL scheme such as com.citcon.citconpay (no ://)") }
    }

    /// A universal link: an `https` URL with a host.
    static func universalLink(_ link: String) throws(ChargeKitError) {
        try FieldRules.callbackURL(link, field: "universalLink")
        guard link.hasPrefix("https://"), link.utf8.count > "https://".utf8.count else {
            throw .invalidField("universalLink", rule: "must be an https:// URL such as https://www.merchant.com/apps/")
        }
    }

    /// 3-D Secure cards need the cardholder and the billing address.
    static func threeDSecure(_ order: CPayRequest) throws(ChargeKitError) {
        let consumer = order.consumer
        let needs: [(String?, String)] = [
            (consumer?.firstName, "consumer.firstName"), (consumer?.lastName, "consumer.lastName"),
            (consumer?.phone, "consumer.phone"), (consumer?.email, "consumer.email"),
        ]
        let address = order.payment.billingAddress
        let addressNeeds: [(String?, String)] = [
            (address?.street, "payment.billingAddress.street"), (address?.city, "payment.billingAddress.city"),
            (address?.state, "payment.billingAddress.state"), (address?.zip, "payment.billingAddress.zip"),
            (address?.country, "payment.billingAddress.country"),
        ]
        for (value, field) in needs + addressNeeds {
            guard let value, !value.isEmpty else {
                throw .invalidField(field, rule: "is required for a card with 3-D Secure")
            }
            try FieldRules.text(value, field: field, limit: 256)
        }
        if let country = address?.country { _ = try Country(code: country, field: "payment.billingAddress.country") }
    }
}
