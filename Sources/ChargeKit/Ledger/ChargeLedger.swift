import Foundation

/// The pending-charge ledger: every hand-off gets its own nonce, and a callback is
/// accepted only if its nonce is known, unconsumed and unexpired, and it fits the
/// request exactly (provider, callback URL and its marker, extras, currency,
/// reference, amount rules). The first valid callback consumes the nonce, so a replay
/// or a forged callback is refused, and a refused callback consumes nothing.
///
/// The ledger keeps nothing in memory that matters: every step is one atomic
/// operation of its ``LedgerStore``, so any number of ledger instances, threads and
/// processes may share one store, and a restart loses nothing.
public actor ChargeLedger {
    private let store: any LedgerStore
    /// How long a charge waits for its callback.
    public let timeToLive: TimeInterval
    /// How long a consumed or expired entry is kept, so that a late replay is
    /// reported as a replay rather than as unknown.
    public let retention: TimeInterval
    /// How often a waiting call looks at the store for a callback accepted by another
    /// ledger instance or process.
    public let pollInterval: TimeInterval
    private let now: @Sendable () -> Date
    private var sleepers: [String: [Int: CheckedContinuation<Void, Never>]] = [:]
    private var nextSleeper = 0
    private var recent: [String: PaymentResult] = [:]

    /// Makes a ledger.
    /// - Parameters:
    ///   - store: where entries are kept (in memory by default).
    ///   - timeToLive: how long a charge may wait for its callback (30 minutes by default).
    ///   - retention: how long used or expired entries are remembered (1 day by default).
    ///   - pollInterval: how often a waiting call checks the store (1 second by default).
    ///   - now: the clock; tests pass their own.
    public init(
        store: any LedgerStore = InMemoryLedgerStore(), timeToLive: TimeInterval = 30 * 60,
        retention: TimeInterval = 24 * 60 * 60, pollInterval: TimeInterval = 1,
        now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.store = store
        self.timeToLive = timeToLive.isFinite && timeToLive > 0 ? timeToLive : 30 * 60
        self.retention = retention.isFinite && retention >= 0 ? retention : 24 * 60 * 60
        self.pollInterval = pollInterval.isFinite && pollInterval > 0 ? min(pollInterval, 60) : 1
        self.now = now
    }

    /// The bound on the size of one entry's app-supplied parts (extras), in bytes of
    /// their encoded form, so that a ledger of bounded size holds many charges.
    public static let maximumExtrasBytes = FieldRules.maximumExtrasBytes

    /// Draws a nonce, lets `build` make the request with it, and records the charge
    /// before returning, so the request URL is never opened unrecorded.
    /// - Throws: the builder's error, ``ChargeKitError/storageFull(_:)`` when the store
    ///   holds as many outstanding charges as it can, or a storage error.
    public func issue(
        _ build: @Sendable (Nonce) throws(ChargeKitError) -> HandoffRequest
    ) async throws(ChargeKitError) -> (charge: PendingCharge, request: HandoffRequest) {
        for attempt in 0..<4 {
            let nonce = Nonce.random()
            let request = try build(nonce)
            let charge = PendingCharge(nonce: nonce, request: request, createdAt: now(), timeToLive: timeToLive)
            do throws(ChargeKitError) {
                try await store.insert(charge, now: charge.createdAt, retention: retention)
                return (charge, request)
            } catch .duplicateField("nonce") where attempt < 3 {
                continue
            }
        }
        throw .storage("could not draw an unused nonce")
    }

    /// Verifies a callback URL: finds the nonce it carries, takes the pending charge
    /// that nonce names, parses the URL with that charge's provider, checks it against
    /// the request and consumes the nonce.
    ///
    /// Because the provider comes from the charge, an extra parameter of the app's own
    /// is never mistaken for another provider's field.
    /// - Parameters:
    ///   - url: the URL the app was opened with.
    ///   - provider: when given, the callback must be for that provider.
    /// - Throws: ``ChargeKitError/missingNonce(field:)``, ``ChargeKitError/unknownNonce``
    ///   (forged), ``ChargeKitError/replayedNonce``, ``ChargeKitError/expiredNonce``,
    ///   ``ChargeKitError/mismatch(field:rule:)``, or the parser's error. A refused
    ///   callback consumes nothing.
    public func verify(url: String, provider: PaymentProvider? = nil) async throws(ChargeKitError) -> PaymentResult {
        // The URL is scanned once: the nonce is found in its fields, and the charge's
        // app reads the same fields.
        var fields: FieldReader
        var found: Found
        var known: PendingCharge?
        var unencoded = false
        do {
            fields = try FieldReader(scanning: url, maximumLength: QueryURL.defaultMaximumLength)
            found = try Self.nonce(in: fields, url: url, provider: provider)
        } catch {
            // An app that writes its answer unencoded (raw spaces), whose scan stopped at
            // the first one: read it escaped, and only for a charge that went to such an app.
            guard let escaped = UnencodedAnswer.escaped(url),
                  let escapedFields = try? FieldReader(scanning: escaped, maximumLength: QueryURL.defaultMaximumLength),
                  let escapedFound = try? Self.nonce(in: escapedFields, url: escaped, provider: provider) else { throw error }
            guard let charge = try await store.charge(for: escapedFound.nonce) else {
                // Unknown either way; say so when it reads as such an app's answer.
                guard UnencodedAnswer.app(answering: escaped) != nil else { throw error }
                throw .unknownNonce
            }
            guard charge.provider.definition.answersUnencoded else { throw error }
            (fields, found, known, unencoded) = (escapedFields, escapedFound, charge, true)
        }
        if known == nil { known = try await store.charge(for: found.nonce) }
        guard let charge = known else { throw .unknownNonce }
        // A card number is masked to the app's documented form before the answer is read
        // or kept: the URL is rewritten (its other bytes kept) and scanned again.
        var url = url
        if let masked = charge.provider.definition.maskingCardNumbers(in: url) {
            url = masked
            fields = try FieldReader(scanning: unencoded ? UnencodedAnswer.escaped(masked) ?? masked : masked,
                                     maximumLength: QueryURL.defaultMaximumLength)
            found.callback = nil
        }
        if let provider, provider != charge.provider {
            throw .mismatch(field: "provider", rule: "the charge went to \(charge.provider), not \(provider)")
        }
        let callback: PaymentCallback
        if let read = found.callback, read.provider == charge.provider {
            callback = read
        } else {
            callback = try charge.provider.definition.parse(fields: &fields)
        }
        return try await accept(callback, charge: charge, url: url)
    }

    private func accept(_ callback: PaymentCallback, charge: PendingCharge, url: String) async throws(ChargeKitError) -> PaymentResult {
        try charge.refuseSettling()
        try charge.refuseDamaged()
        let date = now()
        guard date < charge.expiresAt else { throw .expiredNonce }
        let flags = try Self.check(callback, against: charge)
        let consumed: PendingCharge
        do {
            consumed = try await store.consume(charge.nonce, at: date, accepting: AcceptedCallback(url: url, callback: callback, flags: flags))
        } catch .replayedNonce {
            // Settled in between, by another callback or by hand: say which.
            try await store.charge(for: charge.nonce)?.refuseSettling()
            throw .replayedNonce
        }
        let result = PaymentResult(callback: callback, charge: consumed, flags: flags)
        if sleepers[charge.nonce.value] != nil {
            if recent.count >= 256 { recent.removeAll() }
            recent[charge.nonce.value] = result
            wakeAll(charge.nonce.value)
        }
        return result
    }

    /// Waits for the callback that answers `nonce`, whichever ledger instance or
    /// process accepts it.
    /// - Throws: ``ChargeKitError/expiredNonce`` once the charge's time to live has
    ///   passed, ``ChargeKitError/cancelled`` when the task is cancelled,
    ///   ``ChargeKitError/unknownNonce`` when the store does not know it.
    public func result(for nonce: Nonce) async throws(ChargeKitError) -> PaymentResult {
        while true {
            if let result = recent.removeValue(forKey: nonce.value) { return result }
            guard !Task.isCancelled else { throw .cancelled }
            guard let charge = try await store.charge(for: nonce) else { throw .unknownNonce }
            if charge.consumedAt != nil {
                if let result = recent.removeValue(forKey: nonce.value) { return result }
                if let resolution = charge.resolution { throw .settledByHand(outcome: resolution.outcome, note: resolution.note) }
                // The result the accepting ledger kept: neither parsed nor checked again.
                guard let accepted = charge.accepted else { throw .replayedNonce }
                return PaymentResult(callback: accepted.callback, charge: charge, flags: accepted.flags)
            }
            let date = now()
            guard date < charge.expiresAt else { throw .expiredNonce }
            await sleep(nonce.value, seconds: min(charge.expiresAt.timeIntervalSince(date), pollInterval))
        }
    }

    /// Settles a hand-off whose callback never came, as someone found it in the
    /// payment app's history: its entry keeps the outcome and the note, and a callback
    /// that comes later is refused (``ChargeKitError/settledByHand(outcome:note:)``), so
    /// that the payment is never counted twice. An expired hand-off can be settled too.
    /// - Throws: ``ChargeKitError/invalidField(_:rule:)`` for the outcome or the note
    ///   (see ``Resolution/init(outcome:note:resolvedAt:)``),
    ///   ``ChargeKitError/unknownNonce``, ``ChargeKitError/replayedNonce`` when a
    ///   callback answered it, ``ChargeKitError/settledByHand(outcome:note:)`` when it
    ///   was settled before.
    @discardableResult
    public func resolve(_ nonce: Nonce, as outcome: ChargeOutcome, note: String) async throws(ChargeKitError) -> PendingCharge {
        let resolved = try await store.resolve(nonce, as: try Resolution(outcome: outcome, note: note, resolvedAt: now()))
        wakeAll(nonce.value)
        return resolved
    }

    /// The hand-offs no callback or settlement answered, oldest first, those past their
    /// time to live included while the ledger keeps them (a callback for one of those
    /// is refused as expired, but the customer may have paid: check and
    /// ``resolve(_:as:note:)``).
    public func unanswered() async throws(ChargeKitError) -> [PendingCharge] {
        try await store.charges().filter { $0.consumedAt == nil }
    }

    /// The charges still waiting for a callback, oldest first.
    public func outstanding() async throws(ChargeKitError) -> [PendingCharge] {
        let date = now()
        return try await store.charges().filter { $0.isOutstanding(at: date) }
    }

    /// The entry for a nonce, in whatever state.
    public func charge(for nonce: Nonce) async throws(ChargeKitError) -> PendingCharge? {
        try await store.charge(for: nonce)
    }

    // MARK: - Waking

    private func sleep(_ key: String, seconds: TimeInterval) async {
        let id = nextSleeper
        nextSleeper += 1
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                sleepers[key, default: [:]][id] = continuation
                Task {
                    try? await Task.sleep(nanoseconds: UInt64(max(0.001, seconds) * 1_000_000_000))
                    self.wake(key, id)
                }
            }
        } onCancel: {
            Task { await self.wake(key, id) }
        }
    }

    private func wake(_ key: String, _ id: Int) {
        guard let continuation = sleepers[key]?.removeValue(forKey: id) else { return }
        if sleepers[key]?.isEmpty == true { sleepers[key] = nil }
        continuation.resume()
    }

    private func wakeAll(_ key: String) {
        for continuation in (sleepers.removeValue(forKey: key) ?? [:]).values { continuation.resume() }
    }

    // MARK: - Rules

    /// The nonce a callback carries, in whichever registered app's nonce field; more
    /// than one is refused. The URL is scanned, not parsed: the parser of the charge's
    /// app reads it once the nonce has named the charge.
    static func nonce(in fields: FieldReader, url: String, provider: PaymentProvider?) throws(ChargeKitError) -> Found {
        var found: (item: QueryItem, callback: PaymentCallback?)?
        var asked = Set<String>()
        for app in RegisteredApps.all where asked.insert(app.nonceField).inserted {
            let finding = app.findNonce(in: fields)
            for item in finding.items {
                guard found == nil else { throw .duplicateField(item.name) }
                found = (item, finding.callback)
            }
        }
        guard let found else {
            // Only to name the field in the error: the URL is split to guess the app.
            var named = provider
            if named == nil { named = PaymentCallback.detectProvider(try QueryURL(parsing: url)) }
            throw .missingNonce(field: named?.nonceField ?? ChargeKitParameter.nonce)
        }
        return Found(nonce: try Nonce(found.item.value, field: found.item.name), callback: found.callback)
    }

    /// The nonce a callback carries, and the callback itself when finding the nonce read it whole.
    struct Found {
        var nonce: Nonce
        var callback: PaymentCallback?
    }

    /// Which of the request's callback URLs a callback was opened on.
    enum Arrival { case success, failure, either }

    static func check(_ callback: PaymentCallback, against charge: PendingCharge) throws(ChargeKitError) -> [VerificationFlag] {
        guard callback.provider == charge.provider else {
            throw .mismatch(field: "provider", rule: "the charge went to \(charge.provider), the callback is from \(callback.provider)")
        }
        let arrival = try Self.arrival(of: callback, for: charge)
        if arrival == .failure, callback.outcome == .approved {
            throw .mismatch(field: "url", rule: "an approval arrived on the failure callback URL")
        }
        if let reference = charge.request.reference, let echoed = callback.reference, echoed != reference {
            throw .mismatch(field: callback.referenceField, rule: "must echo the reference sent")
        }
        // What only the provider knows (Credit Card Terminal: format, currency, amount, tax).
        return try charge.provider.definition.check(any: callback.base, against: charge)
    }

    private static func arrival(of callback: PaymentCallback, for charge: PendingCharge) throws(ChargeKitError) -> Arrival {
        var received = callback.extraItems
        if let marker = callback.callbackMarker { received.append(QueryItem(ChargeKitParameter.callback, marker)) }
        let receivedSet = Set(received)
        var nearest: [QueryItem]?
        for (index, url) in charge.request.callbackURLs.enumerated() {
            guard let split = Self.split(url), split.base == callback.callbackURL else { continue }
            var expected = split.items + charge.request.extras
            let arrival: Arrival
            if charge.request.marksCallbacks {
                arrival = index == 0 ? .success : .failure
                expected.append(QueryItem(ChargeKitParameter.callback, arrival == .success ? "success" : "failure"))
            } else {
                arrival = url == charge.request.failureURL ? .failure : .either
            }
            if received.count == expected.count, receivedSet == Set(expected) { return arrival }
            nearest = nearest ?? expected
        }
        guard let nearest else {
            throw .mismatch(field: "url", rule: "opened on \(callback.callbackURL), not on a callback URL of the request")
        }
        let differing = receivedSet.symmetricDifference(nearest).map(\.name).sorted().first ?? "extra parameters"
        throw .mismatch(field: differing, rule: "extra parameters must come back exactly as sent")
    }

    /// A callback URL of the request as its base and items: read only when it has a
    /// query or fragment of its own (most are a bare `scheme://path`).
    private static func split(_ url: String) -> (base: String, items: [QueryItem])? {
        guard url.contains("?") || url.contains("#") else { return (url, []) }
        return (try? QueryURL(parsing: url)).map { ($0.base, $0.items) }
    }
}
