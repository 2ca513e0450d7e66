/// A charge described once, the same way for every payment app.
public struct ChargeOrder: Hashable, Sendable {
    /// What to charge.
    public var amount: Money
    /// What is sold, in the field each app has for it (its description or title; each
    /// app's article names it).
    public var description: String?
    /// Your merchant reference, in the field each app echoes (its invoice number or
    /// reference; each app's article names it). An app that requires one gets the
    /// nonce when you give none.
    public var reference: String?
    /// Your parameters, returned untouched on the callback.
    public var extras: [QueryItem]

    /// Makes an order.
    public init(amount: Money, description: String? = nil, reference: String? = nil, extras: [QueryItem] = []) {
        self.amount = amount
        self.description = description
        self.reference = reference
        self.extras = extras
    }
}

/// The one value by which an app chooses its payment app; everything else is the
/// same code for all of them.
///
/// Each registered app's folder adds its own ways to make one (for example
/// ``creditCardTerminal(returnURL:template:)``); the docs index lists every app's.
public struct PaymentApp: Hashable, Sendable {
    let builder: any OrderHandoff

    init(_ builder: any OrderHandoff) { self.builder = builder }

    public static func == (lhs: PaymentApp, rhs: PaymentApp) -> Bool { AnyHashable(lhs.builder) == AnyHashable(rhs.builder) }
    public func hash(into hasher: inout Hasher) { hasher.combine(AnyHashable(builder)) }

    /// The provider behind it.
    public var provider: PaymentProvider { builder.provider }

    /// Builds this app's request for `order`, carrying `nonce`.
    public func handoff(for order: ChargeOrder, nonce: Nonce) throws(ChargeKitError) -> HandoffRequest {
        try builder.handoff(for: order, nonce: nonce)
    }
}

/// How one app turns a ``ChargeOrder`` into its request: the value behind a
/// ``PaymentApp``, kept in the app's folder.
protocol OrderHandoff: Hashable, Sendable {
    /// The app the request goes to.
    var provider: PaymentProvider { get }
    /// The app's request for `order`, carrying `nonce`.
    func handoff(for order: ChargeOrder, nonce: Nonce) throws(ChargeKitError) -> HandoffRequest
}

/// Rules for an app's extras on callback URLs.
enum CallbackExtras {
    /// The names every registered app and ChargeKit put on callback URLs.
    static let reserved: Set<String> = RegisteredApps.all.reduce(into: [ChargeKitParameter.nonce, ChargeKitParameter.callback]) {
        $0.formUnion($1.reservedCallbackFields)
    }
    /// The prefixes of the apps' own namespaces.
    static let reservedPrefixes: [String] = RegisteredApps.all.flatMap { $0.reservedCallbackPrefixes }

    /// Checks `extras` against the reserved names and against the names already in
    /// each callback URL's own query (a clash would make the callback carry a name
    /// twice, which every parser refuses, so the charge could never complete).
    static func validate(_ extras: [QueryItem], on callbackURLs: [String]) throws(ChargeKitError) {
        for url in callbackURLs.isEmpty ? [""] : callbackURLs {
            let existing = (try? QueryURL(parsing: url).items) ?? []
            try FieldRules.extras(extras, field: "extras", alreadyOn: existing) { item in
                reserved.contains(item.name) || reservedPrefixes.contains(where: item.name.hasPrefix)
                    ? "is a name the payment app or ChargeKit uses on the callback" : nil
            }
        }
    }
}
