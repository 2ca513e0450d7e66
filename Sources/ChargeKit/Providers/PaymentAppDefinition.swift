/// What ChargeKit must know of one payment app, in one place: each app's folder has
/// one type conforming to it, and ``RegisteredApps`` lists them. The ledger, the
/// coordinator and the provider-neutral types ask this protocol and name no app.
protocol PaymentAppDefinition: SendableMetatype {
    /// The app's parsed callback.
    associatedtype Callback: ReadableCallback

    /// ChargeKit's name for the app, as the CLI and stored ledgers spell it (lower-case letters).
    static var identifier: String { get }
    /// The app's name for people (`Credit Card Terminal`).
    static var displayName: String { get }
    /// The scheme of the app's request URLs, which is also the one to list under
    /// `LSApplicationQueriesSchemes`.
    static var scheme: String { get }
    /// What the app must register under `CFBundleURLTypes`, in words.
    static var callbackRegistration: String { get }
    /// The wire name of the field the nonce comes back in (ChargeKit's
    /// `chargekit-nonce` unless the app has its own place for it).
    static var nonceField: String { get }
    /// Names the app or ChargeKit puts on this app's callback URLs, which an app's
    /// extras may not use.
    static var reservedCallbackFields: Set<String> { get }
    /// Name prefixes of the app's own namespace on callback URLs (`smp-`).
    static var reservedCallbackPrefixes: [String] { get }
    /// Whether the app writes its answer's values unencoded (raw spaces, a `%` that
    /// starts no escape), so that its callback is read after escaping them; a raw
    /// space in another app's callback is refused.
    static var answersUnencoded: Bool { get }
    /// The fields of its answer that may carry a card number, with the masked form the
    /// app documents: a value showing more digits is masked to it before the ledger
    /// keeps the callback, a parser reads it, or a tool prints it.
    static var cardNumberFields: [CardNumberField] { get }
    /// What a developer must know before choosing the app (a vendor's deprecation),
    /// said by `chargekit doctor` and the docs; `nil` for most.
    static var notice: String? { get }

    /// Whether a callback's parameters name this app: a guess, used only when no
    /// ledger says which app a charge went to.
    static func recognises(_ url: QueryURL) -> Bool
    /// The nonce fields a callback's fields carry for this app (the ledger refuses
    /// more than one): read from the URL's scan, before any parser runs.
    static func findNonce(in fields: FieldReader) -> NonceFinding
    /// What only this app's callback can be checked for against the request it
    /// answers, after the ledger's own checks (nonce, callback URL, extras, reference),
    /// with the flags to report. Refuses with ``ChargeKitError/mismatch(field:rule:)``.
    static func check(_ callback: Callback, against charge: PendingCharge) throws(ChargeKitError) -> [VerificationFlag]
}

extension PaymentAppDefinition {
    static var nonceField: String { ChargeKitParameter.nonce }
    static var reservedCallbackPrefixes: [String] { [] }
    static var answersUnencoded: Bool { false }
    static var cardNumberFields: [CardNumberField] { [] }
    static var notice: String? { nil }

    /// `url` with its card numbers masked (``cardNumberFields``), or `nil` when none needed it.
    static func maskingCardNumbers(in url: String) -> String? { CardNumberField.masking(cardNumberFields, in: url) }

    static func findNonce(in fields: FieldReader) -> NonceFinding {
        NonceFinding(items: fields.indices.filter { fields.name($0, spells: nonceField) }.map(fields.item))
    }

    static func check(_ callback: Callback, against charge: PendingCharge) throws(ChargeKitError) -> [VerificationFlag] { [] }

    /// The app's provider value.
    static var provider: PaymentProvider { PaymentProvider(self) }

    /// Parses a callback URL with the app's own parser.
    static func parseCallback(_ url: String, maximumLength: Int) throws(ChargeKitError) -> Callback {
        try Callback(url: url, maximumLength: maximumLength)
    }

    /// A callback of this app as a ledger keeps it.
    static func decodeCallback(from decoder: any Decoder) throws -> any ProviderCallback { try Callback(from: decoder) }

    /// Reads a callback from the fields of a URL the ledger scanned once.
    static func parse(fields: inout FieldReader) throws(ChargeKitError) -> PaymentCallback {
        PaymentCallback(try Callback(fields: &fields))
    }

    /// ``parseCallback(_:maximumLength:)`` as a provider-neutral callback, its card
    /// numbers masked first.
    static func parse(_ url: String, maximumLength: Int) throws(ChargeKitError) -> PaymentCallback {
        PaymentCallback(try parseCallback(maskingCardNumbers(in: url) ?? url, maximumLength: maximumLength))
    }

    /// ``check(_:against:)`` for a callback of any app; another app's is refused.
    static func check(any callback: any ProviderCallback, against charge: PendingCharge) throws(ChargeKitError) -> [VerificationFlag] {
        guard let callback = callback as? Callback else {
            throw .mismatch(field: "provider", rule: "the charge went to \(identifier), the callback is from \(type(of: callback).provider)")
        }
        return try check(callback, against: charge)
    }
}

/// What one app found of its nonce in a callback's fields.
struct NonceFinding {
    /// The nonce fields, as the app names them (the ledger refuses more than one).
    var items: [QueryItem]
    /// The whole callback, when finding the nonce took reading it (an app whose nonce is
    /// inside its JSON): the ledger keeps it rather than reading the answer again.
    var callback: PaymentCallback?
}
