/// What the `ChargeKit-IPN-Fault` header on `POST /v1/charges` does to that charge's
/// IPNs, so that a merchant's receiver can be tested for what real networks do: each
/// IPN arrives twice, late, cut off once, or out of order.
public enum IPNFault: Equatable, Sendable {
    /// Each IPN is posted twice in a row (the receiver must be idempotent).
    case duplicate
    /// Each IPN is first tried this many seconds late (1 to 600; the sandbox's clock,
    /// which `/sandbox/clock` moves).
    case delay(seconds: Int)
    /// Each IPN's first attempt is cut off half-way through its body; the retry
    /// schedule then sends it whole.
    case reset
    /// An IPN of a status that is not final (pending, authorized) is held back 2
    /// seconds and the next one is sent meanwhile, so that it (succeeded, say) arrives
    /// first. (The outbox otherwise keeps a charge's IPNs in order: the held one is
    /// recorded as handed on, then posted; a sandbox stopped in those 2 seconds loses it.)
    case reorder

    /// The request header that asks for one.
    public static let header = "ChargeKit-IPN-Fault"
    /// The longest `delay`.
    public static let maximumDelay = 600
    /// How long `reorder` holds back an IPN of a status that is not final.
    static let reorderHold: Duration = .seconds(2)

    /// Whether `reorder` holds back an IPN reporting `status`.
    static func isHeldBack(status: String) -> Bool { ["pending", "authorized", "initiated"].contains(status) }

    /// Reads `duplicate`, `delay=5s` (or `delay=5`), `reset`, `reorder`.
    public init?(header value: String) {
        let text = value.trimmingCharacters(in: .whitespaces).lowercased()
        switch text {
        case "duplicate": self = .duplicate
        case "reset": self = .reset
        case "reorder": self = .reorder
        default:
            guard text.hasPrefix("delay=") else { return nil }
            var number = text.dropFirst("delay=".count)
            if number.hasSuffix("s") { number = number.dropLast() }
            guard let seconds = Int(number), (1...Self.maximumDelay).contains(seconds), number.allSatisfy(\.isNumber) else { return nil }
            self = .delay(seconds: seconds)
        }
    }

    /// How it is kept with the charge (and written back in the header's form).
    public var text: String {
        switch self {
        case .duplicate: "duplicate"
        case .delay(let seconds): "delay=\(seconds)s"
        case .reset: "reset"
        case .reorder: "reorder"
        }
    }

    /// How long an IPN reporting `status` waits before its first attempt, in milliseconds.
    func hold(status: String) -> Int64 {
        switch self {
        case .delay(let seconds): Int64(seconds) * 1000
        case .reorder, .duplicate, .reset: 0
        }
    }

    /// What a refused header says.
    static let rule = "must be duplicate, delay=Ns (1 to \(maximumDelay) seconds), reset or reorder"
}
