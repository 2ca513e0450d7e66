@_spi(Tools) import ChargeKit
import Foundation

/// An instant payment notification as Citcon's server POSTs it to `urls.ipn`: a flat
/// JSON object (no envelope) signed with the merchant's IPN secret. For a merchant's
/// back end: ``verify(_:secret:)`` turns the body bytes into the verified fields, or
/// throws a ``CPayIPNError`` that says why not.
///
/// The signature (Citcon's IPN-signature guide): take every key named in `fields`
/// (comma-separated) and `fields` itself, sort by key, join as `key=value` with `&`
/// (no URL-encoding; values exactly as sent, empty ones empty), append
/// `&secret=<secret>`, SHA-256, lower-case hex. It is a plain hash, not an HMAC.
public struct CPayIPN: Sendable, Equatable {
    /// The signed fields, each as text (a JSON number as its digits, `null` as empty).
    public var fields: [String: String]
    /// Keys that arrived but were not signed: reported, never trusted.
    public var unsignedKeys: [String]

    /// `id`: Citcon's transaction id.
    public var id: String? { fields["id"] }
    /// `transaction_type`: `charge`, `refund`, `chargeback` or `vault`.
    public var transactionType: String? { fields["transaction_type"] }
    /// `reference`: the merchant's reference.
    public var reference: String? { fields["reference"] }
    /// `status` in the IPN's words: `authorized`, `captured`, `success`, `cancelled`, `fail`.
    public var status: String? { fields["status"] }
    /// `amount`, minor units, as sent.
    public var amount: String? { fields["amount"] }
    /// `currency`.
    public var currency: String? { fields["currency"] }
    /// `payment_method`.
    public var paymentMethod: String? { fields["payment_method"] }

    /// The largest body read.
    public static let maximumBodyBytes = UPIWire.maximumBodyBytes

    /// Verifies an IPN body against the merchant's IPN secret.
    /// - Throws: ``CPayIPNError`` naming what is wrong: an empty secret, not JSON, a
    ///   member name given twice, no `fields` or `sign`, a signed field missing, or a
    ///   signature that does not match.
    public static func verify(_ body: Data, secret: String) throws(CPayIPNError) -> CPayIPN {
        // Anyone can sign with the empty secret: accepting it would accept anything.
        guard !secret.isEmpty else { throw .emptySecret }
        guard body.count <= maximumBodyBytes else { throw .tooLarge(limit: maximumBodyBytes) }
        if let repeated = RepeatedJSONNames.first(in: body) {
            throw .invalidField(repeated, rule: "appears more than once (a signed body names each field once)")
        }
        guard let values = textFields(body) else {
            throw (try? JSONSerialization.jsonObject(with: body)) is [String: Any]
                ? .invalidField("body", rule: "every value must be a string, number, boolean or null") : .notJSON
        }
        guard let list = values["fields"], !list.isEmpty else { throw .missingField("fields") }
        guard let sign = values["sign"], !sign.isEmpty else { throw .missingField("sign") }
        let names = list.split(separator: ",", omittingEmptySubsequences: true).map { $0.trimmingCharacters(in: .whitespaces) }
        var signed: [String: String] = ["fields": list]
        for name in names {
            guard let value = values[name] else { throw .missingField(name) }
            signed[name] = value
        }
        let expected = signature(of: signed, secret: secret)
        guard constantTimeEquals(expected, sign.lowercased()) else { throw .badSignature }
        signed["fields"] = nil
        let unsigned = values.keys.filter { signed[$0] == nil && $0 != "fields" && $0 != "sign" }.sorted()
        return CPayIPN(fields: signed, unsignedKeys: unsigned)
    }

    /// The signature of `fields` (which must include `fields` itself) under `secret`:
    /// what ``verify(_:secret:)`` compares, and what the sandbox's signer (a server
    /// concern, in CitconSandbox) signs with.
    @_spi(Tools) public static func signature(of fields: [String: String], secret: String) -> String {
        let text = fields.keys.sorted().map { "\($0)=\(fields[$0] ?? "")" }.joined(separator: "&") + "&secret=" + secret
        return SHA256.hex(text)
    }

    /// A JSON value as the text that was signed: a string as is, a number as its
    /// digits, a boolean as `true`/`false`, `null` as empty.
    private struct SignedValue: Decodable {
        var text: String

        init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            if c.decodeNil() {
                text = ""
            } else if let string = try? c.decode(String.self) {
                text = string
            } else if let bool = try? c.decode(Bool.self) {
                text = bool ? "true" : "false"
            } else if let integer = try? c.decode(Int64.self) {
                text = String(integer)
            } else {
                text = "\(try c.decode(Decimal.self))"
            }
        }
    }

    /// A flat IPN body's values as the text that is signed, or `nil` when it is not a
    /// JSON object of strings, numbers, booleans and nulls. Reading only: nothing is
    /// verified (``verify(_:secret:)`` does that).
    @_spi(Tools) public static func textFields(_ body: Data) -> [String: String]? {
        (try? JSONDecoder().decode([String: SignedValue].self, from: body))?.mapValues(\.text)
    }
}

/// Why an IPN was refused.
public enum CPayIPNError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The body is larger than the limit.
    case tooLarge(limit: Int)
    /// The body is not a JSON object.
    case notJSON
    /// A field the signature needs is absent (`fields`, `sign`, or one `fields` names).
    case missingField(String)
    /// A field has a value that cannot have been signed (an array or object).
    case invalidField(String, rule: String)
    /// The signature does not match: the body was changed, or the secret is not the merchant's.
    case badSignature
    /// The secret to verify with is empty, so any forger could have signed.
    case emptySecret

    public var description: String {
        switch self {
        case .tooLarge(let limit): "body: larger than \(limit) bytes"
        case .notJSON: "body: not a JSON object"
        case .missingField(let name): "\(name): required for the signature but missing"
        case .invalidField(let name, let rule): "\(name): \(rule)"
        case .badSignature: "sign: does not match the body and secret"
        case .emptySecret: "secret: must not be empty (use the merchant's IPN secret)"
        }
    }
}
