/// Turns a hand-off to a payment app into an `async` call.
///
/// ``charge(_:via:)`` (or a `submit` of an app's own request, which each app's folder adds) records the request in the
/// ledger, opens the payment app through the ``URLOpener``, and returns when
/// ``handle(url:provider:)`` receives the matching, verified callback. A callback that is
/// forged, replayed, stale or does not fit its request never completes a waiting call.
///
/// After a restart the coordinator that asked is gone but the ledger is not: a new
/// coordinator's ``handle(url:provider:)`` still verifies the callback and returns the result.
public actor PaymentCoordinator {
    /// The ledger every charge is recorded in.
    public let ledger: ChargeLedger
    private let opener: any URLOpener
    private var waiting = 0

    /// Makes a coordinator.
    public init(ledger: ChargeLedger, opener: any URLOpener) {
        self.ledger = ledger
        self.opener = opener
    }

    /// Charges `order` through `app` and waits for the verified result.
    public func charge(_ order: ChargeOrder, via app: PaymentApp) async throws(ChargeKitError) -> PaymentResult {
        try await submit { nonce throws(ChargeKitError) in try app.handoff(for: order, nonce: nonce) }
    }

    /// Records the hand-off `build` makes, opens it, and waits for its callback.
    ///
    /// The wait ends with the verified result whichever coordinator (or ledger instance
    /// on the same store, in this process or another) accepts the callback, with
    /// ``ChargeKitError/expiredNonce`` once the charge's time to live has passed, or
    /// with ``ChargeKitError/cancelled`` when the task is cancelled.
    public func submit(
        _ build: @Sendable (Nonce) throws(ChargeKitError) -> HandoffRequest
    ) async throws(ChargeKitError) -> PaymentResult {
        let (charge, request) = try await ledger.issue(build)
        try await opener.open(request.url)
        waiting += 1
        defer { waiting -= 1 }
        return try await ledger.result(for: charge.nonce)
    }

    /// Handles a URL the app was opened with.
    ///
    /// Verifies it in the ledger (the nonce it carries names the charge, and so the
    /// provider whose rules parse it), completes the call waiting for it if there is
    /// one, in this coordinator or any other sharing the ledger, and returns the result.
    /// - Parameters:
    ///   - url: the URL the app was opened with.
    ///   - provider: when given, the callback must be for that provider.
    /// - Throws: the parse or ledger error; a refused callback completes nothing.
    @discardableResult
    public func handle(url: String, provider: PaymentProvider? = nil) async throws(ChargeKitError) -> PaymentResult {
        try await ledger.verify(url: url, provider: provider)
    }

    /// The hand-offs no callback answered, oldest first, in this process or any other
    /// sharing the ledger: call it at launch, and after a callback error, to learn what
    /// may have been charged without an answer (the payment app or this app was killed
    /// during the hand-off). Those past their time to live are included while the
    /// ledger keeps them (``PendingCharge/expiresAt``): an app opened an hour later still
    /// learns of them, and settles them with ``resolve(_:as:note:)``.
    public func pending() async throws(ChargeKitError) -> [PendingCharge] {
        try await ledger.unanswered()
    }

    /// Settles a hand-off that never came back, after checking the payment app's
    /// history: see ``ChargeLedger/resolve(_:as:note:)``. A waiting ``charge(_:via:)``
    /// for it ends with ``ChargeKitError/settledByHand(outcome:note:)``.
    @discardableResult
    public func resolve(_ nonce: Nonce, as outcome: ChargeOutcome, note: String) async throws(ChargeKitError) -> PendingCharge {
        try await ledger.resolve(nonce, as: outcome, note: note)
    }

    /// The number of calls of this coordinator waiting for a callback.
    public var waitingCount: Int { waiting }
}
