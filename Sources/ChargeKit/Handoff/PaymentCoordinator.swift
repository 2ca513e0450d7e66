/// Turns a hand-off to a payment app into an `async` call.
///
/// ``charge(_:via:)`` (or a provider-specific `submit`) records the request in the
/// ledger, opens the payment app through the ``URLOpener``, and returns when
/// ``handle(url:)`` receives the matching, verified callback. A callback that is
/// forged, replayed, stale or does not fit its request never completes a waiting call.
///
/// After a restart the coordinator that asked is gone but the ledger is not: a new
/// coordinator's ``handle(url:)`` still verifies the callback and returns the result.
public actor PaymentCoordinator {
    /// The ledger every charge is recorded in.
    public let ledger: ChargeLedger
    private let opener: any URLOpener
    private var waiters: [String: CheckedContinuation<Result<PaymentResult, ChargeKitError>, Never>] = [:]

    /// Makes a coordinator.
    public init(ledger: ChargeLedger, opener: any URLOpener) {
        self.ledger = ledger
        self.opener = opener
    }

    /// Charges `order` through `app` and waits for the verified result.
    public func charge(_ order: ChargeOrder, via app: PaymentApp) async throws(ChargeKitError) -> PaymentResult {
        try await submit { nonce throws(ChargeKitError) in try app.handoff(for: order, nonce: nonce) }
    }

    /// Submits a Credit Card Terminal request (like `-[IFChargeRequest submit]`) and waits.
    public func submit(_ request: CreditCardTerminal.ChargeRequest) async throws(ChargeKitError) -> PaymentResult {
        try await submit { nonce throws(ChargeKitError) in try request.handoff(nonce: nonce) }
    }

    /// Submits a SumUp request (like `-[SMPPaymentRequest openSumUpMerchantApp]`) and waits.
    public func submit(_ request: SumUp.PaymentRequest, extras: [QueryItem] = []) async throws(ChargeKitError) -> PaymentResult {
        try await submit { nonce throws(ChargeKitError) in try request.handoff(nonce: nonce, extras: extras) }
    }

    /// Submits an iZettle 1.0 payment and waits.
    public func submit(_ request: Zettle.PaymentRequest, extras: [QueryItem] = []) async throws(ChargeKitError) -> PaymentResult {
        try await submit { nonce throws(ChargeKitError) in try request.handoff(nonce: nonce, extras: extras) }
    }

    /// Submits a Zettle `izettle://api/` operation and waits.
    public func submit(_ request: Zettle.APIRequest, extras: [QueryItem] = []) async throws(ChargeKitError) -> PaymentResult {
        try await submit { nonce throws(ChargeKitError) in try request.handoff(nonce: nonce, extras: extras) }
    }

    /// Records the hand-off `build` makes, opens it, and waits for its callback.
    public func submit(
        _ build: @Sendable (Nonce) throws(ChargeKitError) -> HandoffRequest
    ) async throws(ChargeKitError) -> PaymentResult {
        let (charge, request) = try await ledger.issue(build)
        let key = charge.nonce.value
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<PaymentResult, ChargeKitError>, Never>) in
                waiters[key] = continuation
                let opener = self.opener
                Task {
                    do throws(ChargeKitError) {
                        try await opener.open(request.url)
                    } catch {
                        self.resume(key, with: .failure(error))
                    }
                }
            }
        } onCancel: {
            Task { await self.resume(key, with: .failure(.cancelled)) }
        }
        return try result.get()
    }

    /// Handles a URL the app was opened with.
    ///
    /// Parses it (for `provider`, or the provider its fields name), verifies it in the
    /// ledger, completes the call waiting for it if there is one, and returns the result.
    /// - Throws: the parse or ledger error; a refused callback completes nothing.
    @discardableResult
    public func handle(url: String, provider: PaymentProvider? = nil) async throws(ChargeKitError) -> PaymentResult {
        let result = try await ledger.verify(url: url, provider: provider)
        resume(result.charge.nonce.value, with: .success(result))
        return result
    }

    /// The number of calls waiting for a callback.
    public var waitingCount: Int { waiters.count }

    private func resume(_ key: String, with result: Result<PaymentResult, ChargeKitError>) {
        waiters.removeValue(forKey: key)?.resume(returning: result)
    }
}
