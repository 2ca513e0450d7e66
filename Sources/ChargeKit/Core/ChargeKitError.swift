/// The one error type of ChargeKit.
///
/// Every case names what failed: the field (by its wire name, such as `ifcc_amount`
/// or `foreign-tx-id`) and the rule it broke, so that an app can log or show a
/// precise reason and a test can assert on it.
///
/// ## How this type grows
///
/// `ChargeKitError` is an enum because typed throws and pattern matching on a field
/// name are what its users need most. It is **not frozen**: a minor release may add a
/// case (a new protocol rule, a new storage failure). Match the cases you act on and
/// keep a `default:` branch (show ``description``); never switch over it exhaustively
/// without one. Cases are never removed or changed in meaning within a major version,
/// and ``description`` always names the field and the rule. (The alternative, the
/// struct-with-code shape of swift-nio's `FileSystemError` and Hummingbird's errors,
/// was weighed and left for 1.0: it would give up `catch .replayedNonce` patterns.)
public enum ChargeKitError: Error, Equatable, Hashable, Sendable {
    /// A required field is absent.
    case missingField(String)
    /// A field's value breaks a rule; `rule` says which, in words.
    case invalidField(String, rule: String)
    /// A field is longer than its documented limit.
    case fieldTooLong(String, limit: Int)
    /// A field appears more than once, so its value is ambiguous.
    case duplicateField(String)
    /// A field is present that this message must not carry.
    case unexpectedField(String, rule: String)
    /// A URL cannot be used: wrong scheme or path, or not a URL at all.
    case invalidURL(String, rule: String)
    /// The URL is longer than the configured bound.
    case urlTooLong(limit: Int)
    /// A percent escape is malformed, or the decoded bytes are not UTF-8.
    case malformedPercentEncoding(field: String, rule: String)
    /// The currency code is not a known ISO 4217 code.
    case unknownCurrency(String)

    // MARK: Correlation (ledger)

    /// The callback carries no correlation nonce at all.
    case missingNonce(field: String)
    /// The nonce was never issued by this ledger: a forged or foreign callback.
    case unknownNonce
    /// The nonce was already consumed by an earlier callback: a replay.
    case replayedNonce
    /// The nonce was issued but its time to live has passed.
    case expiredNonce
    /// The hand-off was settled by hand (``ChargeLedger/resolve(_:as:note:)``): a callback
    /// for it is not counted, and it cannot be settled again.
    case settledByHand(outcome: ChargeOutcome, note: String)
    /// The callback does not match what was asked (another provider, return URL,
    /// currency, extra parameter or reference).
    case mismatch(field: String, rule: String)

    // MARK: Hand-off

    /// No app on this device handles the URL scheme (the payment app is not installed).
    case appNotInstalled(scheme: String)
    /// The opener refused or failed to open the request URL.
    case openFailed(String)
    /// The caller stopped waiting for the outcome (task cancelled).
    case cancelled

    // MARK: Storage

    /// Reading or writing the ledger's storage failed (I/O, permissions, locking).
    case storage(String)
    /// The stored ledger cannot be read back: not a ChargeKit file, another version,
    /// larger than its bound, or otherwise corrupt.
    case corruptStorage(String)
    /// The store is full: a new charge is refused (after expired and consumed entries
    /// were pruned) until outstanding charges are answered or expire. Callbacks of the
    /// outstanding charges keep verifying.
    case storageFull(String)
}

extension ChargeKitError: CustomStringConvertible {
    /// A one-line, human-readable reason naming the field and the rule.
    public var description: String {
        switch self {
        case .missingField(let field): return "\(field): required field is missing"
        case .invalidField(let field, let rule): return "\(field): \(rule)"
        case .fieldTooLong(let field, let limit): return "\(field): longer than \(limit) characters"
        case .duplicateField(let field): return "\(field): appears more than once"
        case .unexpectedField(let field, let rule): return "\(field): not allowed here (\(rule))"
        case .invalidURL(let field, let rule): return "\(field): \(rule)"
        case .urlTooLong(let limit): return "url: longer than \(limit) bytes"
        case .malformedPercentEncoding(let field, let rule): return "\(field): \(rule)"
        case .unknownCurrency(let code): return "currency: '\(code)' is not an ISO 4217 code known to ChargeKit"
        case .missingNonce(let field): return "\(field): callback carries no request nonce"
        case .unknownNonce: return "nonce: not issued by this ledger (forged or foreign callback)"
        case .replayedNonce: return "nonce: already used by an earlier callback (replay)"
        case .expiredNonce: return "nonce: the pending charge has expired"
        case .settledByHand(let outcome, let note):
            return "nonce: the hand-off was settled by hand as \(outcome.rawValue) (\(note)); nothing more is counted for it"
        case .mismatch(let field, let rule): return "\(field): does not match the request (\(rule))"
        case .appNotInstalled(let scheme): return "no app handles \(scheme):// (payment app not installed)"
        case .openFailed(let reason): return "could not open the payment app: \(reason)"
        case .cancelled: return "waiting for the payment outcome was cancelled"
        case .storage(let reason): return "ledger storage: \(reason)"
        case .corruptStorage(let reason): return "ledger storage is corrupt: \(reason)"
        case .storageFull(let reason): return "ledger storage is full: \(reason)"
        }
    }
}
