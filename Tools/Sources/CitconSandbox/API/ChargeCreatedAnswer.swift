@_spi(Tools) import CitconUPI
import Foundation

/// `POST /v1/charges`' answer (schema `ChargeCreated`), in the live API's shape (protocol
/// notes §5): `object`, `id`, `charge_token`, `status`, `reference`, `amount`,
/// `currency`, `expiry` (the sandbox's own), `time_created` (Unix seconds),
/// `time_captured` (`null` until captured), `auto_capture`, `country`, `exchange`, and
/// `payment` with one `client` entry per way to pay. The sandbox writes it; the app SDK
/// reads it as `UPIWire.ChargeCreated`.
package struct ChargeCreatedAnswer: Codable, Sendable, Hashable {
    package var id: String
    package var chargeToken: String
    package var status: CPayStatus
    package var reference: String
    package var amount: Int
    package var currency: String
    /// When the charge expires unpaid, milliseconds since 1970 (written in seconds).
    package var expiry: Int64
    /// Milliseconds since 1970 (written in seconds).
    package var timeCreated: Int64
    package var autoCapture: Bool
    package var country: String
    /// The charge's own currency at rate 1, as the live answer gives it.
    package var exchange: CPayExchange
    package var payment: Payment

    /// How the consumer can pay: the method, when the charge was created with one, and
    /// where (`desktop` a QR page, any other client a redirect to the wallet).
    package struct Payment: Codable, Sendable, Hashable {
        package var method: String?
        package var client: [Client]
    }

    /// One way to pay (`payment.client[]`).
    package struct Client: Codable, Sendable, Hashable {
        /// `desktop`, `mobile_browser` or `mobile_native`.
        package var client: String
        /// `redirect` or `qr`.
        package var format: String
        /// The HTTP method to open `content` with.
        package var method = "GET"
        /// The wallet or QR page.
        package var content: String

        package init(client: String, format: String, content: String) {
            (self.client, self.format, self.content) = (client, format, content)
        }
    }

    package init(id: String, chargeToken: String, status: CPayStatus, reference: String, amount: Int, currency: String,
         expiry: Int64, timeCreated: Int64, autoCapture: Bool, country: String, exchange: CPayExchange, payment: Payment) {
        (self.id, self.chargeToken, self.status, self.reference, self.amount, self.currency) = (id, chargeToken, status, reference, amount, currency)
        (self.expiry, self.timeCreated, self.autoCapture, self.country, self.exchange, self.payment) = (expiry, timeCreated, autoCapture, country, exchange, payment)
    }

    package enum CodingKeys: String, CodingKey {
        case object, id, status, reference, amount, currency, expiry, country, exchange, payment
        case chargeToken = "charge_token", timeCreated = "time_created", timeCaptured = "time_captured"
        case autoCapture = "auto_capture"
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode("charge", forKey: .object)
        try c.encode(id, forKey: .id)
        try c.encode(chargeToken, forKey: .chargeToken)
        try c.encode(status, forKey: .status)
        try c.encode(reference, forKey: .reference)
        try c.encode(amount, forKey: .amount)
        try c.encode(currency, forKey: .currency)
        try c.encode(UPIWire.wireTime(expiry), forKey: .expiry)
        try c.encode(UPIWire.wireTime(timeCreated), forKey: .timeCreated)
        try c.encodeNil(forKey: .timeCaptured)
        try c.encode(autoCapture, forKey: .autoCapture)
        try c.encode(country, forKey: .country)
        try c.encode(exchange, forKey: .exchange)
        try c.encode(payment, forKey: .payment)
    }

    /// An answer is written, never read (the generated types ask every schema to be Codable).
    package init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "the sandbox writes answers; it reads none"))
    }

    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id && lhs.chargeToken == rhs.chargeToken && lhs.payment == rhs.payment }

    package func hash(into hasher: inout Hasher) { hasher.combine(id) }
}

/// `POST /v1/charges/{charge_token}`'s answer (schema `Confirmation`): the transaction as
/// an inquiry shows it, and `next_action`, the wallet to send the consumer to. The app
/// SDK reads it as `UPIWire.Confirmation`.
package struct ConfirmationAnswer: Codable, Sendable, Hashable {
    package var transaction: CPayCheckData
    /// The wallet page.
    package var walletURL: String

    package enum CodingKeys: String, CodingKey { case nextAction = "next_action" }
    package enum NextActionKeys: String, CodingKey { case type, url }

    package init(transaction: CPayCheckData, walletURL: String) { (self.transaction, self.walletURL) = (transaction, walletURL) }

    package func encode(to encoder: any Encoder) throws {
        try transaction.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        var next = container.nestedContainer(keyedBy: NextActionKeys.self, forKey: .nextAction)
        try next.encode("redirect", forKey: .type)
        try next.encode(walletURL, forKey: .url)
    }

    /// An answer is written, never read (the generated types ask every schema to be Codable).
    package init(from decoder: any Decoder) throws {
        throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "the sandbox writes answers; it reads none"))
    }

    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.transaction == rhs.transaction && lhs.walletURL == rhs.walletURL }

    package func hash(into hasher: inout Hasher) { hasher.combine(walletURL) }
}
