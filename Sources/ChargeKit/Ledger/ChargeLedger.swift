import Foundation

/// The pending-charge ledger: every hand-off gets its own nonce, and a callback is
/// accepted only if its nonce is known, unconsumed and unexpired, and it fits the
/// request (provider, callback URL, extras, currency, reference). The first valid
/// callback consumes the nonce, so a replay or a forged callback is refused. Any
/// number of charges may be outstanding; with a ``FileLedgerStore`` they survive a
/// restart.
public actor ChargeLedger {
    private let store: any LedgerStore
    /// How long a charge waits for its callback.
    public let timeToLive: TimeInterval
    /// How long a consumed or expired entry is kept, so that a late replay is
    /// reported as a replay rather than as unknown.
    public let retention: TimeInterval
    private let now: @Sendable () -> Date
    private var entries: [String: PendingCharge] = [:]
    private var loaded = false
    private var loading: Task<Result<[PendingCharge], ChargeKitError>, Never>?

    /// Makes a ledger.
    /// - Parameters:
    ///   - store: where entries are kept (in memory by default).
    ///   - timeToLive: how long a charge may wait for its callback (30 minutes by default).
    ///   - retention: how long used or expired entries are remembered (1 day by default).
    ///   - now: the clock; tests pass their own.
    public init(
        store: any LedgerStore = InMemoryLedgerStore(), timeToLive: TimeInterval = 30 * 60,
        retention: TimeInterval = 24 * 60 * 60, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.timeToLive = timeToLive
        self.retention = retention
        self.now = now
    }

    /// Draws a nonce, lets `build` make the request with it, and records the charge
    /// before returning, so the request URL is never opened unrecorded.
    public func issue(
        _ build: @Sendable (Nonce) throws(ChargeKitError) -> HandoffRequest
    ) async throws(ChargeKitError) -> (charge: PendingCharge, request: HandoffRequest) {
        try await loadIfNeeded()
        var nonce = Nonce.random()
        while entries[nonce.value] != nil { nonce = Nonce.random() }
        let request = try build(nonce)
        let date = now()
        let charge = PendingCharge(
            nonce: nonce, provider: request.provider, createdAt: date, expiresAt: date.addingTimeInterval(timeToLive),
            amount: request.amount, currency: request.currency ?? request.amount?.currency, extras: request.extras,
            callbackURLs: request.callbackURLs, reference: request.reference, fileMakerFormat: request.fileMakerFormat
        )
        prune(at: date)
        entries[nonce.value] = charge
        try await persist()
        return (charge, request)
    }

    /// Parses a callback URL and verifies it; see ``verify(_:)``.
    public func verify(url: String, provider: PaymentProvider? = nil) async throws(ChargeKitError) -> PaymentResult {
        try await verify(PaymentCallback.parse(url, provider: provider))
    }

    /// Matches a parsed callback to its charge and consumes the nonce.
    /// - Throws: ``ChargeKitError/missingNonce(field:)``, ``ChargeKitError/unknownNonce``
    ///   (forged), ``ChargeKitError/replayedNonce``, ``ChargeKitError/expiredNonce``, or
    ///   ``ChargeKitError/mismatch(field:rule:)`` when it does not fit the request. A
    ///   refused callback consumes nothing.
    public func verify(_ callback: PaymentCallback) async throws(ChargeKitError) -> PaymentResult {
        try await loadIfNeeded()
        guard let nonce = callback.nonce else { throw .missingNonce(field: callback.nonceField) }
        guard var charge = entries[nonce.value] else { throw .unknownNonce }
        guard charge.consumedAt == nil else { throw .replayedNonce }
        let date = now()
        guard date < charge.expiresAt else { throw .expiredNonce }
        let flags = try Self.check(callback, against: charge)
        charge.consumedAt = date
        entries[nonce.value] = charge
        try await persist()
        return PaymentResult(callback: callback, charge: charge, flags: flags)
    }

    /// The charges still waiting for a callback, oldest first.
    public func outstanding() async throws(ChargeKitError) -> [PendingCharge] {
        try await loadIfNeeded()
        let date = now()
        return entries.values.filter { $0.isOutstanding(at: date) }.sorted { $0.createdAt < $1.createdAt }
    }

    /// The entry for a nonce, in whatever state.
    public func charge(for nonce: Nonce) async throws(ChargeKitError) -> PendingCharge? {
        try await loadIfNeeded()
        return entries[nonce.value]
    }

    // MARK: - Rules

    static func check(_ callback: PaymentCallback, against charge: PendingCharge) throws(ChargeKitError) -> [VerificationFlag] {
        guard callback.provider == charge.provider else {
            throw .mismatch(field: "provider", rule: "the charge went to \(charge.provider), the callback is from \(callback.provider)")
        }
        var expected: [QueryItem]?
        for url in charge.callbackURLs {
            guard let split = try? QueryURL(parsing: url), split.base == callback.callbackURL else { continue }
            expected = split.items + charge.extras
            break
        }
        guard let expected else {
            throw .mismatch(field: "url", rule: "opened on \(callback.callbackURL), not on the callback URL of the request")
        }
        let received = callback.extraItems
        guard received.count == expected.count, Set(received) == Set(expected) else {
            let differing = Set(received).symmetricDifference(expected).map(\.name).sorted().first ?? "extra parameters"
            throw .mismatch(field: differing, rule: "extra parameters must come back exactly as sent")
        }
        if let reference = charge.reference, callback.provider != .creditCardTerminal {
            guard callback.reference == reference else {
                throw .mismatch(field: callback.referenceField, rule: "must echo the reference sent")
            }
        }
        var flags: [VerificationFlag] = []
        guard case .creditCardTerminal(let response) = callback else { return flags }
        guard (response.format == .fileMaker) == charge.fileMakerFormat else {
            throw .mismatch(field: "ifcc_responseType", rule: charge.fileMakerFormat ? "FileMaker ($) names were asked" : "FileMaker names were not asked")
        }
        let asked = charge.currency ?? .usd
        if let currency = response.currency, currency != asked {
            throw .mismatch(field: response.format == .fileMaker ? "$ifcc_currency" : "ifcc_currency", rule: "charged in \(currency.code), asked in \(asked.code)")
        }
        if response.responseCode == .approved, let requested = charge.amount {
            if let subtotal = response.subtotal {
                if subtotal < requested { flags.append(.amountBelowRequested(requested: requested, approved: subtotal)) }
            } else {
                flags.append(.amountNotReported)
            }
        }
        return flags
    }

    // MARK: - Storage

    private func prune(at date: Date) {
        entries = entries.filter { _, charge in
            let end = charge.consumedAt ?? charge.expiresAt
            return date.timeIntervalSince(end) < retention
        }
    }

    private func persist() async throws(ChargeKitError) {
        try await store.save(entries.values.sorted { $0.createdAt < $1.createdAt })
    }

    private func loadIfNeeded() async throws(ChargeKitError) {
        if loaded { return }
        if loading == nil {
            let store = self.store
            loading = Task { () async -> Result<[PendingCharge], ChargeKitError> in
                do throws(ChargeKitError) { return .success(try await store.load()) } catch { return .failure(error) }
            }
        }
        guard let result = await loading?.value else { return }
        guard !loaded else { return }
        switch result {
        case .success(let charges):
            for charge in charges { entries[charge.nonce.value] = charge }
            loaded = true
        case .failure(let error):
            loading = nil
            throw error
        }
    }
}
