@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI
import Foundation
import SandboxScenarios

/// The UPI API's rules, independent of HTTP: tokens and permissions, validation,
/// legal status changes, idempotent references, expiry. Every failure is an
/// ``APIError`` whose message names the field.
public struct SandboxAPI: Sendable {
    let store: any SandboxStore
    let configuration: SandboxConfiguration
    let baseURL: @Sendable () -> String
    /// New charges' ids and charge tokens.
    let identifiers: ChargeIdentifiers
    /// Derives each wallet link's capability (``walletPath(for:)``).
    let walletKeys: FormTokens
    /// The one clock every rule reads.
    public let clock: SandboxClock
    private let tokens = TokenCache()

    init(store: any SandboxStore, configuration: SandboxConfiguration, baseURL: @escaping @Sendable () -> String,
         identifiers: ChargeIdentifiers = ChargeIdentifiers(), walletKeys: FormTokens = FormTokens(secret: randomHex(bytes: 24)),
         clock: SandboxClock = SandboxClock()) {
        self.clock = clock
        self.store = store
        self.configuration = configuration
        self.baseURL = baseURL
        self.identifiers = identifiers
        self.walletKeys = walletKeys
    }

    // MARK: Wallet links

    /// The wallet page of charge `id`, with its capability: `/sandbox/wallet/ID?k=…`.
    /// Ids follow the clock and are no secret (one id tells its neighbours'), so the
    /// page is reached only through a link the sandbox handed out: the `k` is derived
    /// from the id and the sandbox's secret, and shared by every instance of a shared
    /// sandbox.
    package func walletPath(for id: String) -> String { "/sandbox/wallet/\(id)?k=\(walletCapability(id))" }

    /// The QR page of charge `id`, with the same capability.
    package func qrPath(for id: String) -> String { "/sandbox/qr/\(id)?k=\(walletCapability(id))" }

    func walletCapability(_ id: String) -> String { walletKeys.token(for: Self.walletLinkSubject(id)) }

    /// What a wallet link's capability is derived from: never what a form token is
    /// derived from (the bare id), so that neither can stand for the other.
    private static func walletLinkSubject(_ id: String) -> String { "wallet-link:" + id }

    /// Refuses (`4004`, as for an unknown charge: a bare id tells nothing) a wallet or
    /// QR request without the capability of charge `id`.
    func checkWalletCapability(_ capability: String?, for id: String) throws(APIError) {
        guard let capability, walletKeys.check(capability, for: Self.walletLinkSubject(id)) else {
            throw APIError(.notFound, "k: not a wallet link of this sandbox; open the link the charge's answer holds")
        }
    }

    /// A token read once is kept in memory (bounded) instead of being read from the
    /// database on every request, but only for ``lifetime``: a merchant-key rotation
    /// on another instance of a shared sandbox deletes the tokens from the database,
    /// and each instance then stops honouring them within that time.
    final class TokenCache: @unchecked Sendable {
        private let lock = NSLock()
        private var tokens: [String: (record: AccessTokenRecord, readAt: ContinuousClock.Instant)] = [:]
        static let capacity = 10_000
        /// How long a token read from the store is trusted without reading it again.
        static let lifetime: Duration = .seconds(1)

        func get(_ value: String) -> AccessTokenRecord? {
            lock.withLock {
                guard let entry = tokens[value] else { return nil }
                guard ContinuousClock.now - entry.readAt < Self.lifetime else {
                    tokens[value] = nil
                    return nil
                }
                return entry.record
            }
        }

        func put(_ record: AccessTokenRecord) {
            lock.withLock {
                if tokens.count >= Self.capacity { tokens.removeAll(keepingCapacity: true) }
                tokens[record.token] = (record, ContinuousClock.now)
            }
        }
    }

    // MARK: Decoding

    /// What a body whose decoding failed with `error` is refused with, naming the field
    /// (``JSONBodyEdge`` asks it of every refusal of the generated decoder).
    static func refusal(of data: Data, _ error: DecodingError) -> APIError {
        // Foundation reports a fractional or oversized number where an integer is
        // expected as "not valid JSON", without a path: find the field ourselves.
        if case .dataCorrupted(let context) = error, context.codingPath.isEmpty,
           let tree = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]),
           let field = nonInteger(in: tree, at: "") {
            return APIError(.invalidRequest, "\(field): must be an integer (minor units), within 64 bits")
        }
        return describe(error)
    }

    /// The path of the first number in `value` that is not a 64-bit integer (every
    /// number in the UPI request bodies is one).
    static func nonInteger(in value: Any, at path: String) -> String? {
        if let object = value as? [String: Any] {
            for key in object.keys.sorted() {
                if let found = nonInteger(in: object[key] as Any, at: path.isEmpty ? key : "\(path).\(key)") { return found }
            }
        } else if let array = value as? [Any] {
            for (index, element) in array.enumerated() {
                if let found = nonInteger(in: element, at: "\(path)[\(index)]") { return found }
            }
        } else if !(value is Bool), !(value is String), let number = value as? NSNumber {
            let double = number.doubleValue
            if double != double.rounded() || abs(double) >= 9.2e18 { return path.isEmpty ? "body" : path }
        }
        return nil
    }

    static func path(_ codingPath: [any CodingKey], _ last: (any CodingKey)? = nil) -> String {
        let keys = codingPath + (last.map { [$0] } ?? [])
        var text = ""
        for key in keys {
            if let index = key.intValue { text += "[\(index)]" } else { text += (text.isEmpty ? "" : ".") + key.stringValue }
        }
        return text.isEmpty ? "body" : text
    }

    static func describe(_ error: DecodingError) -> APIError {
        switch error {
        case .keyNotFound(let key, let context):
            return APIError(.invalidRequest, "\(path(context.codingPath, key)): required field is missing")
        case .valueNotFound(let type, let context):
            return APIError(.invalidRequest, "\(path(context.codingPath)): must not be null (expected \(typeName(type)))")
        case .typeMismatch(let type, let context):
            return APIError(.invalidRequest, "\(path(context.codingPath)): expected \(typeName(type))")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return APIError(.malformedJSON, "body: not valid JSON") }
            if context.debugDescription.contains("does not fit") {
                return APIError(.invalidRequest, "\(path(context.codingPath)): must be an integer (minor units)")
            }
            return APIError(.invalidRequest, "\(path(context.codingPath)): \(context.debugDescription)")
        @unknown default:
            return APIError(.invalidRequest, "body: \(error)")
        }
    }

    static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is Int.Type, is Int64.Type: "an integer"
        case is String.Type: "a string"
        case is Bool.Type: "true or false"
        default: "\(type)".hasPrefix("Array") ? "an array" : "an object"
        }
    }

    static func field(_ body: () throws(ChargeKitError) -> Void) throws(APIError) {
        do { try body() } catch { throw APIError(.invalidRequest, error.description) }
    }

    /// Now, as the sandbox's clock reads it (see ``SandboxClock``).
    var now: Int64 { clock.now }

    // MARK: Tokens

    /// The credential of an `Authorization: Bearer …` header, without the spaces around
    /// it (Foundation's `.whitespaces`), or `nil` when there is none.
    static func bearer(_ header: String?) -> String? {
        guard let header, header.hasPrefix(UPIWire.bearer) else { return nil }
        let value = header.utf8.dropFirst(UPIWire.bearer.utf8.count)
        // A value that starts and ends with a visible ASCII character has nothing to trim
        // (every token and key does): Foundation's trimming, which costs more than the
        // rest of the token check, is left for the others.
        if let first = value.first, let last = value.last, (0x21...0x7E).contains(first), (0x21...0x7E).contains(last) {
            return String(Substring(value))
        }
        let trimmed = String(Substring(value)).trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    /// Checks an `Authorization: Bearer <merchant key>` header against the stored
    /// merchant key, in constant time (`4010` otherwise): what `POST /v1/access-tokens`
    /// requires before it reads its body.
    public func requireMerchantKey(authorization: String?) async throws {
        guard let key = Self.bearer(authorization) else {
            throw APIError(.unauthorized, "Authorization: 'Bearer <merchant private key>' is required")
        }
        try await checkMerchantKey(key)
    }

    /// Checks `key` against the stored merchant key, in constant time (`4010` otherwise).
    func checkMerchantKey(_ key: String) async throws {
        guard let stored = try await store.setting("merchant_key"), constantTimeEquals(stored, key) else {
            throw APIError(.unauthorized, "Authorization: the merchant key is not valid")
        }
    }

    /// `POST /v1/access-tokens`, for a caller that presented the merchant key
    /// (``requireMerchantKey(authorization:)``).
    package func issueToken(_ request: AccessTokenBody) async throws -> UPIWire.AccessToken {
        guard let permissions = AccessTokenRecord.permissions[request.tokenType] else {
            throw APIError(.invalidRequest, "token_type: must be \"server\" or \"client\"")
        }
        let record = AccessTokenRecord(token: "\(request.tokenType.prefix(1))t_" + randomHex(bytes: 24),
                                       type: request.tokenType, permissions: permissions,
                                       expiresAt: now + configuration.tokenLifetime.milliseconds)
        try await store.insertToken(record)
        tokens.put(record)
        return UPIWire.AccessToken(accessToken: record.token, tokenType: record.type, expiry: wholeSeconds(record.expiresAt),
                                   permissions: record.permissions)
    }

    /// The access token an `Authorization: Bearer …` header names, if it is known and
    /// unexpired (`4010` otherwise). What the HTTP layer's authentication middleware runs.
    public func authenticate(_ header: String?) async throws -> AccessTokenRecord {
        guard let value = Self.bearer(header) else {
            throw APIError(.unauthorized, "Authorization: 'Bearer <access token>' is required")
        }
        var found = tokens.get(value)
        if found == nil, let stored = try await store.token(value) {
            tokens.put(stored)
            found = stored
        }
        guard let token = found else { throw APIError(.unauthorized, "Authorization: unknown access token") }
        guard token.expiresAt > now else { throw APIError(.unauthorized, "Authorization: the access token has expired") }
        return token
    }

    /// Checks that `token` grants `permission` (`4030` otherwise).
    static func require(_ token: AccessTokenRecord, _ permission: String) throws {
        guard token.permissions.contains(permission) else {
            throw APIError(.forbidden, "Authorization: a \(token.type) token lacks the '\(permission)' permission")
        }
    }

    // MARK: Charges

    /// `POST /v1/charges`: stores `request`, a charge of `scenario` whose IPNs meet `ipnFault`.
    package func createCharge(_ request: NewCharge, scenario: SandboxScenario? = nil,
                              ipnFault: IPNFault? = nil) async throws -> ChargeCreatedAnswer {
        let methodName = request.method?.name
        let created = now
        let (id, chargeToken) = identifiers.next(now: created)
        var charge = ChargeRecord(
            id: id, chargeToken: chargeToken, reference: request.transaction.reference,
            amount: request.transaction.amount, currency: request.transaction.currency,
            country: request.transaction.country, autoCapture: request.autoCapture,
            note: request.transaction.note, method: methodName, status: .initiated, urls: request.urls, returnURL: nil,
            timeCreated: created, expiresAt: created + configuration.chargeLifetime.milliseconds)
        charge.scenario = scenario?.rawValue
        charge.ipnFault = ipnFault?.text
        try await insert(&charge)
        let wallet = baseURL() + walletPath(for: charge.id)
        // A desktop pays by scanning the QR page; a phone is redirected to the wallet.
        let entries = request.clients.map { client in
            client == "desktop"
                ? ChargeCreatedAnswer.Client(client: client, format: "qr", content: baseURL() + qrPath(for: charge.id))
                : ChargeCreatedAnswer.Client(client: client, format: "redirect", content: wallet)
        }
        return ChargeCreatedAnswer(id: charge.id, chargeToken: charge.chargeToken, status: charge.status,
                                   reference: charge.reference, amount: charge.amount, currency: charge.currency,
                                   expiry: wholeSeconds(charge.expiresAt), timeCreated: wholeSeconds(charge.timeCreated),
                                   autoCapture: charge.autoCapture, country: charge.country,
                                   // The live answer's exchange: the charge's own currency at rate 1.
                                   exchange: CPayExchange(amount: charge.amount, currency: charge.currency, rate: 1),
                                   payment: .init(method: methodName, client: entries))
    }

    /// Stores a new charge; when another charge has its id or charge token (another
    /// sandbox process on the same database drew them), draws new ones and tries again.
    private func insert(_ charge: inout ChargeRecord) async throws {
        for attempt in 1... {
            do {
                return try await store.insertCharge(charge)
            } catch is ChargeIdentifiersTaken where attempt < Self.identifierAttempts {
                (charge.id, charge.chargeToken) = identifiers.next(now: charge.timeCreated)
            }
        }
    }

    /// How many times a new charge is given identifiers before its creation fails.
    static let identifierAttempts = 8

    private enum Step: Sendable { case done, expired }

    /// `POST /v1/charges/{charge-token}`: the charge confirmed with `request`'s method.
    package func confirm(_ request: ChargeConfirmation, scenario: SandboxScenario? = nil) async throws -> ConfirmationAnswer {
        let chosen = request.method
        guard let found = try await store.charge(chargeToken: request.chargeToken) else {
            throw APIError(.notFound, "charge_token: no charge has this token")
        }
        let now = self.now
        let (charge, step) = try await store.updateCharge(id: found.id, reference: nil, now: now) { charge throws -> Step in
            if charge.expireIfOverdue(now: now) { return .expired }
            if charge.status == .expired { throw APIError(.expired, "charge_token: the charge expired unpaid") }
            guard charge.status == .initiated else {
                throw APIError(.illegalState, "status: the charge is \(charge.status), only an initiated charge can be confirmed")
            }
            if let method = charge.method, method != chosen.name {
                throw APIError(.invalidRequest, "payment.method: the charge was created for '\(method)'")
            }
            charge.method = chosen.name
            charge.returnURL = request.returnURL
            charge.status = .pending
            if let scenario { charge.scenario = scenario.rawValue }
            return .done
        }
        if step == .expired { throw APIError(.expired, "charge_token: the charge expired unpaid") }
        return ConfirmationAnswer(transaction: charge.checkData, walletURL: baseURL() + walletPath(for: charge.id))
    }

    /// `GET /v1/transactions/{id}`. An unpaid charge whose time is up is expired first.
    public func inquire(id: String) async throws -> CPayCheckData {
        try await currentCharge(id: id).checkData
    }

    /// Expires a charge if it is still unpaid and overdue.
    @discardableResult
    func expire(id: String) async throws -> ChargeRecord? {
        let now = self.now
        let (charge, _) = try await store.updateCharge(id: id, reference: nil, now: now) { $0.expireIfOverdue(now: now) }
        return charge
    }

    /// Expires every overdue charge; returns how many.
    func expireOverdue() async throws -> Int {
        let ids = try await store.overdueCharges(now: now, limit: 256)
        for id in ids { try await expire(id: id) }
        return ids.count
    }

    /// Refuses (`4000` naming the field) an operation whose `currency` or
    /// `transaction_reference` contradicts the charge it names.
    static func checkAgreement(_ request: OperationBody, with charge: ChargeRecord) throws(APIError) {
        if let currency = request.currency, currency.uppercased() != charge.currency.uppercased() {
            throw APIError(.invalidRequest, "currency: the charge is in \(charge.currency), not \(currency)")
        }
        if let reference = request.transactionReference, reference != charge.reference {
            throw APIError(.invalidRequest, "transaction_reference: not the reference of charge \(charge.id)")
        }
    }

    /// The one shape of captures, refunds and cancels: claim the operation's reference
    /// and change the charge in one transaction.
    private func operate(_ operation: ChargeOperation,
                         _ change: @escaping @Sendable (inout ChargeRecord, OperationBody, Int64) throws -> Void)
        async throws -> CPayCheckData
    {
        let request = operation.body
        let now = self.now
        let (charge, _) = try await store.updateCharge(id: request.transactionID, reference: request.reference, now: now) {
            try Self.checkAgreement(request, with: $0)
            try change(&$0, request, now)
        }
        return charge.checkData
    }

    /// `POST /v1/captures`: captures an authorized charge, all or part of it.
    package func capture(_ operation: ChargeOperation, scenario: SandboxScenario? = nil) async throws -> CPayCheckData {
        try await operate(operation) { charge, request, now in
            guard charge.status == .authorized else {
                throw APIError(.illegalState, "status: the charge is \(charge.status), only an authorized charge can be captured")
            }
            if (scenario ?? charge.scenario.flatMap(SandboxScenario.named)) == .captureFails {
                throw APIError(.gatewayError, "capture failed: the processor refused it (ChargeKit-Scenario: capture-fails)")
            }
            let amount = request.amount ?? charge.amount
            guard amount <= charge.amount else {
                throw APIError(.amountExceeded, "amount: \(charge.money(amount)) exceeds the authorized \(charge.money(charge.amount))")
            }
            charge.amountCaptured = amount
            charge.timeCaptured = now
            charge.status = .succeeded
            charge.captures.append(CPayOperation(id: randomDigits(19), object: "capture", reference: request.reference,
                                                 amount: amount, currency: charge.currency, status: .succeeded,
                                                 timeCreated: now))
        }
    }

    /// `POST /v1/refunds`: refunds a settled charge; partial refunds only where the
    /// method allows them (`4208` otherwise). The answer is the refund itself, in the
    /// live API's shape: `object` "refund", its own `id`, `amount_refunded` (this
    /// refund's amount), `status` "succeeded", `time_created`, `time_completed`; the
    /// charge's inquiry lists it under `refunds`.
    package func refund(_ operation: ChargeOperation, scenario: SandboxScenario? = nil) async throws -> CPayCheckData {
        let charge = try await operate(operation) { charge, request, now in
            guard charge.status == .succeeded else {
                // The live API: refunding a charge never paid is 4202 "refund failed" (HTTP 406).
                throw APIError(.refundFailed, "refund failed: the charge is \(charge.status), only a succeeded charge can be refunded")
            }
            if (scenario ?? charge.scenario.flatMap(SandboxScenario.named)) == .refundDeclined {
                throw APIError(.refundFailed, "refund failed: the processor declined it (ChargeKit-Scenario: refund-declined)")
            }
            let refundable = charge.refundable
            let amount = request.amount ?? refundable
            guard amount > 0, amount <= refundable else {
                throw APIError(.amountExceeded, "amount: \(charge.money(amount)) exceeds the refundable \(charge.money(refundable))")
            }
            if amount < refundable, let method = charge.method.flatMap(SandboxMethod.named), !method.allowsPartialRefund {
                throw APIError(.partialRefundIneligible,
                               "amount: \(method.name) does not allow a partial refund (refund all \(charge.money(refundable)) or nothing)")
            }
            charge.amountRefunded = (charge.amountRefunded ?? 0) + amount
            charge.refunds.append(CPayOperation(id: randomDigits(19), object: "refund", reference: request.reference,
                                                amount: amount, currency: charge.currency, status: .succeeded,
                                                timeCreated: wholeSeconds(now), reason: request.reason))
        }
        guard let made = charge.refunds?.data.last else { return charge }
        var answer = CPayCheckData()
        answer.object = "refund"
        answer.id = made.id
        answer.reference = made.reference
        answer.amount = made.amount
        answer.currency = made.currency
        answer.amountRefunded = made.amount
        answer.status = .succeeded
        answer.timeCreated = made.timeCreated.map(wholeSeconds)
        answer.timeCompleted = made.timeCreated.map(wholeSeconds)
        return answer
    }

    /// `POST /v1/cancels`: cancels a charge not yet paid, or voids an authorization.
    /// The answer has the live API's shape: the charge's `id`, `object` "cancel",
    /// `status` "canceled", and `payment.type` and `payment.data.pan` as empty strings.
    package func cancel(_ operation: ChargeOperation) async throws -> CPayCheckData {
        var answer = try await operate(operation) { charge, _, now in
            guard charge.canMove(to: .canceled) else {
                throw APIError(.illegalState, "status: the charge is \(charge.status) and cannot be canceled")
            }
            charge.status = .canceled
            charge.timeCanceled = now
        }
        answer.object = "cancel"
        var payment = answer.payment ?? CPayCheckDataPayment()
        payment.type = payment.type ?? ""
        var card = payment.data ?? CPayPaymentData()
        card.pan = card.pan ?? ""
        payment.data = card
        answer.payment = payment
        return answer
    }

    // MARK: Wallet

    /// What the consumer does on the wallet page.
    public enum WalletAction: String, Sendable, CaseIterable {
        /// Pay.
        case pay
        /// The wallet declines.
        case decline
        /// The consumer cancels.
        case cancel
    }

    /// Schemes the wallet never redirects to: those that run or embed content in the
    /// page, and those the operating system hands to its own programs: Windows' search,
    /// diagnostics, settings and shell handlers; iOS's install-an-app, store, settings,
    /// shortcut, call and message handlers; Android's intents and store; file transfer,
    /// Java archives.
    static let refusedSchemes: Set<String> = [
        "javascript", "data", "vbscript", "file", "blob", "about", "filesystem", "view-source",
        "search-ms", "search", "ms-msdt", "ms-settings", "ms-officecmd", "ms-word", "ms-excel", "ms-powerpoint",
        "ms-cxh", "ms-cxh-full", "ms-appinstaller", "ms-its", "mk", "its", "hcp", "res", "shell", "ftp", "ftps",
        "sftp", "smb", "nfs", "jar", "ldap", "ldaps", "telnet", "ssh", "gopher",
        "itms", "itmss", "itms-apps", "itms-appss", "itms-services", "itms-books", "itms-bookss", "itms-itunesu",
        "itms-messages", "itms-watch", "prefs", "app-prefs", "app-settings", "shortcuts", "workflow", "facetime",
        "facetime-audio", "facetime-group", "tel", "telprompt", "sms", "imessage", "maps", "music", "photos-redirect",
        "intent", "market", "android-app", "content", "chrome", "chrome-extension", "googlechrome", "edge", "firefox",
    ]

    /// Scheme prefixes refused whole: Windows' `ms-` handlers and Apple's `x-apple-` ones.
    static let refusedSchemePrefixes = ["ms-", "x-apple-", "itms"]

    /// Whether the wallet may redirect a browser to `url`: `http(s)` without user
    /// information (`https://user:password@host` would hand a credential along, and
    /// reads as another host to a person), or an app's own scheme (RFC 3986 syntax),
    /// never one of ``refusedSchemes`` nor a scheme of ``refusedSchemePrefixes``.
    ///
    /// Read as bytes, as a browser reads it: an `@` or `\` followed by a combining mark
    /// is one `Character` equal to neither, but a browser still finds the byte.
    static func isSafeRedirect(_ url: String) -> Bool {
        let bytes = url.utf8
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { return false }
        let scheme = String(decoding: bytes[..<colon], as: UTF8.self).lowercased()
        guard FieldRules.isScheme(scheme) else { return false }
        if scheme == "http" || scheme == "https" {
            let rest = bytes[colon...].dropFirst()
            guard rest.starts(with: "//".utf8) else { return false }
            let authority = rest.dropFirst(2).prefix { !"/?#".utf8.contains($0) }
            return !authority.isEmpty && !authority.contains(UInt8(ascii: "@")) && !authority.contains(UInt8(ascii: "\\"))
        }
        return !refusedSchemes.contains(scheme) && !refusedSchemePrefixes.contains { scheme.hasPrefix($0) }
    }

    /// Refuses (`4000` naming `field`) a URL the wallet may not redirect to, or one that
    /// already carries `charge_id` or `status`: the wallet adds those, and a copy in
    /// front of them would be read first by many return pages.
    static func checkRedirect(_ url: String, field: String) throws(APIError) {
        guard isSafeRedirect(url) else {
            throw APIError(.invalidRequest,
                           "\(field): must be an http(s) URL without user information or an app's own scheme, never javascript:, data:, file: "
                           + "or an operating-system handler (itms-services:, intent:, x-apple-…, ms-…)")
        }
        let query = url.split(separator: "#", maxSplits: 1).first.flatMap { $0.split(separator: "?", maxSplits: 1).dropFirst().first } ?? ""
        for pair in query.split(separator: "&") {
            let name = pair.split(separator: "=", maxSplits: 1).first.map(String.init) ?? ""
            let decoded = (name.replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? name).lowercased()
            if decoded == "charge_id" || decoded == "status" {
                throw APIError(.invalidRequest, "\(field): must not carry '\(decoded)'; the wallet adds it")
            }
        }
    }

    /// A charge as it stands now: one whose time ran out unpaid is expired first.
    func currentCharge(id: String) async throws -> ChargeRecord {
        try Self.field { () throws(ChargeKitError) in try FieldRules.identifier(id, field: "id", limit: 128) }
        guard let charge = try await store.charge(id: id) else { throw APIError(.notFound, "id: no transaction '\(id)'") }
        if charge.isOverdue(now: now) { return try await expire(id: id) ?? charge }
        return charge
    }

    /// Applies the consumer's choice to a pending charge and returns the charge and the
    /// URL to redirect to (the app's return URL, else `urls.success`/`fail`/`cancel`),
    /// with `charge_id` and `status` added. A charge no longer pending is left as it is.
    ///
    /// A charge only initiated (created, never confirmed by an app) is confirmed here
    /// first, as a hosted payment page does: with `method`, else the method it was
    /// created for (`4000` naming `method` when there is neither).
    public func walletAction(id: String, action: WalletAction, method: String? = nil) async throws -> (ChargeRecord, String?) {
        try Self.field { () throws(ChargeKitError) in try FieldRules.identifier(id, field: "id", limit: 128) }
        let chosen = try method.map { name throws(APIError) in try SandboxMethod.checked(name) }
        let now = self.now
        let (charge, _) = try await store.updateCharge(id: id, reference: nil, now: now) { charge in
            if charge.expireIfOverdue(now: now) { return }
            if charge.status == .initiated {
                if let chosen, let created = charge.method, created != chosen.name {
                    throw APIError(.invalidRequest, "method: the charge was created for '\(created)'")
                }
                guard let name = chosen?.name ?? charge.method else {
                    throw APIError(.invalidRequest, "method: choose how to pay (\(SandboxMethod.all.map(\.name).joined(separator: ", ")))")
                }
                charge.method = name
                charge.status = .pending
            }
            guard charge.status == .pending else { return }
            switch action {
            case .pay:
                // The outcome a test asked for (ChargeKit-Scenario), in place of paying.
                switch charge.scenario.flatMap(SandboxScenario.named) {
                case .declined?:
                    charge.status = .failed
                    return
                case .expires?:
                    charge.status = .expired
                    charge.expiresAt = min(charge.expiresAt, now)
                    return
                case .canceled?:
                    charge.status = .canceled
                    charge.timeCanceled = now
                    return
                case .staysPending?:
                    return
                default:
                    break
                }
                let method = charge.method.flatMap(SandboxMethod.named)
                charge.timeAuthorized = now
                if method?.supportsCapture == true {
                    if charge.autoCapture {
                        charge.status = .succeeded
                        charge.amountCaptured = charge.amount
                        charge.timeCaptured = now
                    } else {
                        charge.status = .authorized
                    }
                } else {
                    charge.status = .succeeded
                }
            case .decline:
                charge.status = .failed
            case .cancel:
                charge.status = .canceled
                charge.timeCanceled = now
            }
        }
        let target: String
        if let returnURL = charge.returnURL {
            target = returnURL
        } else {
            switch charge.status {
            case .succeeded, .authorized: target = charge.urls.success
            case .canceled: target = charge.urls.cancel
            default: target = charge.urls.fail
            }
        }
        guard !target.isEmpty else { return (charge, nil) }
        let items = [QueryItem("charge_id", charge.id), QueryItem("status", charge.status.rawValue)]
        return (charge, QueryURL.appending(items, to: target))
    }
}
