/// A payment app ChargeKit speaks to.
///
/// Each app's folder declares its value as a static property named for the app;
/// ``allCases`` lists every one this version knows, in the registry's order. The raw
/// value is ChargeKit's name for the app, used by the CLI and in stored ledgers;
/// decoding an unknown name fails rather than inventing an app.
///
/// It is a structure rather than an enumeration so that a new version can add an app
/// without breaking a `switch` of yours: compare with `==`, or ask the properties below.
public struct PaymentProvider: Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible, RawRepresentable {
    /// ChargeKit's name for the app, as `chargekit request` spells it.
    public let rawValue: String
    let definition: any PaymentAppDefinition.Type

    init(_ definition: any PaymentAppDefinition.Type) {
        self.rawValue = definition.identifier
        self.definition = definition
    }

    /// The app named `rawValue`, if this version knows it.
    public init?(rawValue: String) {
        guard let definition = RegisteredApps.all.first(where: { $0.identifier == rawValue }) else { return nil }
        self.init(definition)
    }

    /// Every app this version speaks, in registration order.
    public static var allCases: [PaymentProvider] { RegisteredApps.all.map(PaymentProvider.init) }

    public static func == (lhs: PaymentProvider, rhs: PaymentProvider) -> Bool { lhs.rawValue == rhs.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// The app's name for people (`Credit Card Terminal`).
    public var displayName: String { definition.displayName }

    /// The scheme to list under `LSApplicationQueriesSchemes` in Info.plist so that
    /// `canOpenURL` can tell whether the app is installed.
    public var queriedScheme: String { definition.scheme }

    /// What a developer must know before choosing the app, when there is something
    /// (a vendor that deprecated its URL scheme); `nil` otherwise.
    public var notice: String? { definition.notice }

    /// What your app must register under `CFBundleURLTypes` for the callback: its own
    /// scheme (the scheme of the return / callback URL you pass). Described in words
    /// because the value is yours.
    public var callbackRegistration: String { definition.callbackRegistration }

    /// The wire name of the field the nonce comes back in: the app's own place for it
    /// where it has one, else ChargeKit's ``ChargeKitParameter/nonce``.
    public var nonceField: String { definition.nonceField }

    public var description: String { rawValue }
}

/// The provider-neutral outcome of a payment.
public enum ChargeOutcome: String, Hashable, Sendable, Codable, CaseIterable {
    /// The payment went through.
    case approved
    /// The card or payment was refused.
    case declined
    /// The user cancelled.
    case cancelled
    /// The payment app could not process the payment (error, invalid state, bad request).
    case failed
}

/// Parameter names ChargeKit itself adds to callback URLs.
public enum ChargeKitParameter {
    /// The correlation nonce on the callback URLs of apps that have no place of their
    /// own for it (``PaymentProvider/nonceField`` names each app's).
    public static let nonce = nonceName.description
    /// ``nonce``, for comparing with a callback's bytes.
    static let nonceName: StaticString = "chargekit-nonce"
    /// Which of two callback URLs was opened (`success` or `failure`), where an app
    /// has two and its callback does not say.
    public static let callback = callbackName.description
    /// ``callback``, for comparing with a callback's bytes.
    static let callbackName: StaticString = "chargekit-callback"
}
