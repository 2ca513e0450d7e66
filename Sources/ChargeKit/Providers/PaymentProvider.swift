/// The payment apps ChargeKit speaks to.
public enum PaymentProvider: String, Hashable, Sendable, Codable, CaseIterable, CustomStringConvertible {
    /// Inner Fence Credit Card Terminal (`com-innerfence-ccterminal://`).
    case creditCardTerminal = "ccterminal"
    /// SumUp (`sumupmerchant://`).
    case sumUp = "sumup"
    /// iZettle / Zettle (`izettle://`).
    case zettle = "zettle"

    /// The scheme to list under `LSApplicationQueriesSchemes` in Info.plist so that
    /// `canOpenURL` can tell whether the app is installed.
    public var queriedScheme: String {
        switch self {
        case .creditCardTerminal: return CreditCardTerminal.scheme
        case .sumUp: return SumUp.scheme
        case .zettle: return Zettle.scheme
        }
    }

    /// What your app must register under `CFBundleURLTypes` for the callback: its own
    /// scheme (the scheme of the return / callback URL you pass). Described in words
    /// because the value is yours.
    public var callbackRegistration: String {
        switch self {
        case .creditCardTerminal: return "the scheme of returnURL (e.g. com-innerfence-ChargeDemo)"
        case .sumUp: return "the scheme of callbacksuccess / callbackfail (e.g. samplepaymentapp)"
        case .zettle: return "the scheme of x-success / x-failure or successURL / failureURL"
        }
    }

    /// The wire name of the nonce on this app's callbacks: Credit Card Terminal's own
    /// `ifcc_request_nonce`, ChargeKit's `chargekit-nonce` for the others.
    public var nonceField: String {
        switch self {
        case .creditCardTerminal: return CreditCardTerminal.nonceField
        case .sumUp, .zettle: return ChargeKitParameter.nonce
        }
    }

    /// Every app's nonce field.
    static let nonceFields: Set<String> = Set(allCases.map(\.nonceField))

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
    /// The correlation nonce on SumUp and Zettle callback URLs. (Credit Card Terminal
    /// uses its own `ifcc_request_nonce`.)
    public static let nonce = nonceName.description
    /// ``nonce``, for comparing with a callback's bytes.
    static let nonceName: StaticString = "chargekit-nonce"
    /// Which of two callback URLs was opened (`success` or `failure`), where an app
    /// has two and its callback does not say.
    public static let callback = callbackName.description
    /// ``callback``, for comparing with a callback's bytes.
    static let callbackName: StaticString = "chargekit-callback"
}
