import ChargeKit
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The payment callback of ``CPayManager/requestOrder(_:callback:)``.
public typealias CPayOrderCallback = @Sendable (_ result: CPayResult?) -> Void
/// The callback of ``CPayManager/inquireOrder(_:callback:)`` and of the notifications.
public typealias CPayCheckCallback = @Sendable (_ result: CPayCheck?) -> Void
/// The seed's `[CPayRuntimeInst NTFY_ASYNC]` spelling.
public typealias CPayRuntimeInst = CPayManager

/// The runtime environment: the seed's `CPayENVMode` (`CPayENVModePROD` is `.prod`).
/// Each has its own base URL and its own tokens. To use a local sandbox or any other
/// host, call ``CPayManager/setBaseURL(_:)``.
public enum CPayENVMode: String, Sendable, CaseIterable {
    /// Citcon development.
    case dev = "DEV"
    /// Citcon QA.
    case qa = "QA"
    /// Citcon UAT, the sandbox merchants integrate against.
    case uat = "UAT"
    /// Production.
    case prod = "PROD"

    /// The environment's API root.
    public var baseURL: URL {
        let host = switch self {
        case .dev: "https://api.dev.citconpay.com"
        case .qa: "https://api.qa01.citconpay.com"
        case .uat: "https://api.sandbox.citconpay.com"
        case .prod: "https://api.citconpay.com"
        }
        return URL(string: host) ?? URL(fileURLWithPath: "/")
    }
}

/// The Citcon UPI SDK entry point: the seed's `CPayManager`.
///
/// Flow of ``requestOrder(_:callback:)``: validate the order (no network call for a
/// bad one) → confirm its charge token (`POST /v1/charges/{charge-token}`) → post
/// ``ORDER_CONFIRMED()`` → remember the order in the pending-order store → open the
/// wallet through the ``URLOpener`` → wait until the app is reopened on its return URL
/// (``handle(url:)``) → inquire the transaction (the URL's own status is never
/// trusted) → deliver the ``CPayResult`` → post ``NTFY_ASYNC()`` with the ``CPayCheck``.
///
/// Beyond the original SDK, a result is never lost: pending orders are kept in a
/// ``CPayPendingOrderStore`` and ``resumePendingOrders()`` inquires each after a
/// restart. A second return for the same order, or a return for an order this app
/// never started, changes nothing.
///
/// Callbacks and notifications arrive on ``callbackQueue`` (main by default).
public final class CPayManager: @unchecked Sendable {
    /// This SDK's version.
    public static let sdkVersion = "1.0.0"
    private static let shared = CPayManager()

    private struct State {
        var baseURL = CPayENVMode.uat.baseURL
        var accessToken: String?
        var callbackQueue = DispatchQueue.main
        var opener: (any URLOpener)?
        var timeout: TimeInterval = 15
        var log: (@Sendable (String) -> Void)?
        var claimed: Set<String> = []
        var waiters: [String: @Sendable (Result<CPayResult, CPayError>) -> Void] = [:]
    }

    private let lock = NSLock()
    private var state = State()
    /// The app's own session, if it gave one; otherwise one is made per timeout.
    private let givenSession: URLSession?
    private var timedSession: (timeout: TimeInterval, session: URLSession)?
    /// Where pending orders are kept.
    public let store: any CPayPendingOrderStore
    /// Where ``ORDER_CONFIRMED()`` and ``NTFY_ASYNC()`` are posted.
    public let notificationCenter: NotificationCenter

    /// The shared instance (the seed's `[CPayManager sharedInstance]`).
    public static func sharedInstance() -> CPayManager { shared }

    /// Makes a manager. Apps use ``sharedInstance()``; tests and apps that want the
    /// results to survive a restart pass a ``CPayFilePendingOrderStore``.
    public init(store: any CPayPendingOrderStore = CPayMemoryPendingOrderStore(),
                notificationCenter: NotificationCenter = .default, opener: (any URLOpener)? = nil,
                session: URLSession? = nil) {
        self.store = store
        self.notificationCenter = notificationCenter
        givenSession = session
        state.opener = opener
    }

    private func withState<T>(_ body: (inout State) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&state)
    }

    // MARK: Configuration

    /// The name of the notification posted with the checked ``CPayCheck`` after a payment.
    public static func NTFY_ASYNC() -> String { "CPayNotificationAsyncResult" }
    /// The name of the notification posted with a ``CPayCheck`` when a charge is confirmed.
    public static func ORDER_CONFIRMED() -> String { "CPayNotificationOrderConfirmed" }
    /// The name of the notification posted with a ``CPayError/storage(_:)`` when the
    /// pending-order store fails (the order stays where it was: an order not removed
    /// is inquired again by ``resumePendingOrders()``).
    public static func NTFY_STORAGE_ERROR() -> String { "CPayNotificationStorageError" }

    /// Selects an environment. Always `true`.
    @discardableResult
    public func setMode(_ mode: CPayENVMode) -> Bool {
        withState { $0.baseURL = mode.baseURL }
        return true
    }

    /// Points the SDK at any UPI host, such as the local sandbox
    /// (`http://127.0.0.1:8790`). `false` for a URL without `http`/`https` and host.
    @discardableResult
    public func setBaseURL(_ url: URL) -> Bool {
        guard let scheme = url.scheme, ["http", "https"].contains(scheme), url.host != nil else { return false }
        withState { $0.baseURL = url }
        return true
    }

    /// The current API root.
    public var baseURL: URL { withState { $0.baseURL } }

    /// Sets the client access token. `false` (and nothing set) for an empty token or one
    /// with spaces or control characters.
    @discardableResult
    public func setAccessToken(_ token: String) -> Bool {
        guard !token.isEmpty, token.utf8.count <= 4096, token.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            return false
        }
        withState { $0.accessToken = token }
        return true
    }

    /// The queue callbacks and notifications arrive on (main by default).
    public var callbackQueue: DispatchQueue {
        get { withState { $0.callbackQueue } }
        set { withState { $0.callbackQueue = newValue } }
    }

    /// Opens the wallet (on iOS, ChargeKit's `UIApplicationOpener`).
    public var opener: (any URLOpener)? {
        get { withState { $0.opener } }
        set { withState { $0.opener = newValue } }
    }

    /// Per-request timeout in seconds (15 by default).
    public var timeout: TimeInterval {
        get { withState { $0.timeout } }
        set { withState { $0.timeout = newValue } }
    }

    /// Receives one line per HTTP request; tokens, keys and charge tokens never appear.
    public var log: (@Sendable (String) -> Void)? {
        get { withState { $0.log } }
        set { withState { $0.log = newValue } }
    }

    /// The SDK version (the seed's `getVersion()`).
    public func getVersion() -> String { Self.sdkVersion }

    private var client: UPIClient {
        let (url, timeout, log) = withState { ($0.baseURL, $0.timeout, $0.log) }
        return UPIClient(baseURL: url, timeout: timeout, session: session(timeout: timeout), log: log)
    }

    /// The app's session, or an ephemeral one whose configuration carries `timeout`
    /// (remade only when the timeout changes).
    private func session(timeout: TimeInterval) -> URLSession {
        if let givenSession { return givenSession }
        return withState { _ in
            if let timed = timedSession, timed.timeout == timeout { return timed.session }
            let session = UPIClient.session(timeout: timeout)
            timedSession = (timeout, session)
            return session
        }
    }

    private func token() throws(CPayError) -> String {
        guard let token = withState({ $0.accessToken }) else { throw .missingAccessToken }
        return token
    }

    // MARK: Access token and order generation (published SDK)

    /// Exchanges a credential for a client access token, sets it, and returns it.
    /// `credential` is the merchant key the sandbox printed; in production your server
    /// should do this and hand the app only the token.
    public func getAccessToken(_ credential: String) async throws(CPayError) -> String {
        let answer = try await client.accessToken(merchantKey: credential, type: "client")
        withState { $0.accessToken = answer.accessToken }
        return answer.accessToken
    }

    /// Callback form of ``getAccessToken(_:)``: `nil` on failure.
    public func getAccessToken(_ credential: String, onComplete: @escaping @Sendable (String?) -> Void) {
        deliver(onComplete, failure: { _ in nil }) { () async throws(CPayError) -> String? in try await self.getAccessToken(credential) }
    }

    /// Runs an async twin and hands its value, or `failure(error)`, to `callback` on
    /// ``callbackQueue``: the one shape of every callback API.
    private func deliver<T: Sendable>(_ callback: @escaping @Sendable (T) -> Void, failure: @escaping @Sendable (CPayError) -> T,
                                      _ work: @escaping @Sendable () async throws(CPayError) -> T) {
        let queue = callbackQueue
        Task {
            let value: T
            do throws(CPayError) { value = try await work() } catch { value = failure(error) }
            queue.async { callback(value) }
        }
    }

    /// Creates the charge for `order` (`POST /v1/charges`) with the current token, which
    /// must be a server token, and returns it with `data.chargeToken` set. Meant for
    /// tests and demos: a real app gets the charge token from its own server.
    public func generateOrder(_ order: CPayRequest) async throws(CPayError) -> CPayResult {
        let token = try token()
        do {
            try FieldRules.identifier(order.transaction.reference, field: "transaction.reference", limit: 128)
            _ = try Currency(code: order.transaction.currency, field: "transaction.currency")
            _ = try Country(code: order.transaction.country, field: "transaction.country")
        } catch {
            throw .invalidOrder(error)
        }
        let created = try await client.createCharge(UPIWire.ChargeRequest(order: order), token: token)
        var data = CPayResultData()
        data.id = created.id
        data.object = "charge"
        data.reference = created.reference
        data.amount = created.amount
        data.currency = created.currency
        data.status = created.status
        data.chargeToken = created.chargeToken
        return CPayResult(status: "success", version: UPIWire.version, data: data)
    }

    /// Callback form of ``generateOrder(_:)``; a failure arrives as a `fail` result.
    @discardableResult
    public func generateOrder(_ order: CPayRequest, callback: @escaping CPayOrderCallback) -> Bool {
        deliver(callback, failure: { Self.failure($0) }) { () async throws(CPayError) -> CPayResult? in
            try await self.generateOrder(order)
        }
        return true
    }

    // MARK: Inquiry

    /// Inquires a transaction (`GET /v1/transactions/{id}`), retrying transport errors.
    public func inquireOrder(_ transId: String) async throws(CPayError) -> CPayCheck {
        do { try FieldRules.identifier(transId, field: "transId", limit: 128) } catch { throw .invalidOrder(error) }
        return try await client.inquire(transactionID: transId, token: try token())
    }

    /// Callback form of ``inquireOrder(_:)``: a failure arrives as a `fail` check whose
    /// `data.code`/`data.message` say why (`4010` when the token must be refreshed).
    /// `false` when `transId` is invalid (the callback still receives the failure).
    @discardableResult
    public func inquireOrder(_ transId: String, callback: @escaping CPayCheckCallback) -> Bool {
        deliver(callback, failure: { Self.failureCheck($0) }) { () async throws(CPayError) -> CPayCheck? in
            try await self.inquireOrder(transId)
        }
        return (try? FieldRules.identifier(transId, field: "transId", limit: 128)) != nil
    }

    // MARK: Payment

    /// Pays `order` and returns the synchronous result once the app is reopened on its
    /// return URL. Throws when nothing was paid: an invalid order (before any network
    /// call), no token, a `4010`, a network failure, a wallet that cannot be opened.
    /// A declined, cancelled (`data.code` `-2`) or expired payment is a result, not an error.
    ///
    /// Cancelling the calling task stops the wait with ``CPayError/cancelled``; an order
    /// already handed to the wallet stays pending, and ``resumePendingOrders()`` or the
    /// app's return delivers it later.
    public func requestOrder(_ order: CPayRequest) async throws(CPayError) -> CPayResult {
        let once = ResumeOnce()
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<CPayResult, CPayError>, Never>) in
                once.set(continuation)
                Task { await self.start(order, cancelled: { once.isDone }) { once.resume($0) } }
            }
        } onCancel: {
            once.resume(.failure(.cancelled))
        }
        return try outcome.get()
    }

    /// Resumes a continuation once, whoever comes first: the result or a cancellation.
    private final class ResumeOnce: @unchecked Sendable {
        private let lock = NSLock()
        private var continuation: CheckedContinuation<Result<CPayResult, CPayError>, Never>?
        private var early: Result<CPayResult, CPayError>?
        private var done = false

        var isDone: Bool { lock.withLock { done } }

        func set(_ continuation: CheckedContinuation<Result<CPayResult, CPayError>, Never>) {
            let pending: Result<CPayResult, CPayError>? = lock.withLock {
                if let early { return early }
                self.continuation = continuation
                return nil
            }
            if let pending { continuation.resume(returning: pending) }
        }

        func resume(_ result: Result<CPayResult, CPayError>) {
            let target: CheckedContinuation<Result<CPayResult, CPayError>, Never>? = lock.withLock {
                guard !done else { return nil }
                done = true
                guard let continuation else {
                    early = result
                    return nil
                }
                self.continuation = nil
                return continuation
            }
            target?.resume(returning: result)
        }
    }

    /// Callback form of ``requestOrder(_:)`` (the seed's signature). Every outcome
    /// reaches `callback`: errors as a `fail` result with `data.code` and a message
    /// naming the problem. `false` when the order is invalid (nothing was sent).
    @discardableResult
    public func requestOrder(_ order: CPayRequest, callback: @escaping CPayOrderCallback) -> Bool {
        let queue = callbackQueue
        do throws(ChargeKitError) {
            try CPayOrderValidator.validate(order)
        } catch {
            let failure = Self.failure(CPayError.invalidOrder(error))
            queue.async { callback(failure) }
            return false
        }
        Task {
            await self.start(order, validated: true) { outcome in
                let result: CPayResult
                switch outcome {
                case .success(let value): result = value
                case .failure(let error): result = Self.failure(error)
                }
                queue.async { callback(result) }
            }
        }
        return true
    }

    /// Validates, confirms, records and opens the wallet; `completion` runs once, when
    /// the order is answered or fails.
    private func start(_ order: CPayRequest, validated: Bool = false, cancelled: @Sendable () -> Bool = { false },
                       completion: @escaping @Sendable (Result<CPayResult, CPayError>) -> Void) async {
        let pending: CPayPendingOrder
        let wallet: String
        do {
            if !validated {
                do { try CPayOrderValidator.validate(order) } catch { throw CPayError.invalidOrder(error) }
            }
            let token = try token()
            // Without a way to open the wallet, confirming would use the charge up for nothing.
            guard withState({ $0.opener }) != nil else {
                throw CPayError.walletUnavailable(.openFailed("no URLOpener set on CPayManager"))
            }
            let returnURL = Self.returnURL(for: order)
            let body = UPIWire.ConfirmRequest(payment: order.payment, consumer: order.consumer, returnURL: returnURL,
                                              ext: order.ext, installments: order.installments)
            let confirmation = try await client.confirmCharge(chargeToken: order.chargeToken, body, token: token)
            guard let id = confirmation.transaction.id else { throw CPayError.malformedResponse("confirmation without id") }
            pending = CPayPendingOrder(id: id, reference: confirmation.transaction.reference ?? order.transaction.reference,
                                       amount: confirmation.transaction.amount ?? order.transaction.amount,
                                       currency: confirmation.transaction.currency ?? order.transaction.currency,
                                       method: order.payment.method, returnURL: returnURL, started: Date())
            wallet = confirmation.nextAction.url
            try record(pending, waiter: completion)
            post(Self.ORDER_CONFIRMED(), CPayCheck(status: "success", version: UPIWire.version, data: confirmation.transaction))
        } catch let error as CPayError {
            completion(.failure(error))
            return
        } catch {
            completion(.failure(.malformedResponse("\(error)")))
            return
        }
        if cancelled() {
            // The caller stopped waiting before the wallet opened: nothing to keep.
            fail(pending.id, .cancelled)
            return
        }
        guard let opener = self.opener else {
            fail(pending.id, .walletUnavailable(.openFailed("no URLOpener set on CPayManager")))
            return
        }
        do {
            try await opener.open(wallet)
        } catch {
            fail(pending.id, .walletUnavailable(error))
        }
    }

    /// The URL the wallet returns to: the universal link for wechatpay (or when no
    /// scheme is set), otherwise `<scheme>://cpay/return`.
    static func returnURL(for order: CPayRequest) -> String {
        if let link = order.universalLink, order.payment.method == "wechatpay" || order.scheme == nil { return link }
        return "\(order.scheme ?? "cpay")://cpay/return"
    }

    /// Keeps the order in the store (outside the lock: no file I/O while holding it),
    /// then registers its waiter.
    private func record(_ order: CPayPendingOrder, waiter: @escaping @Sendable (Result<CPayResult, CPayError>) -> Void) throws {
        do throws(ChargeKitError) { try store.insert(order) } catch { throw CPayError.storage(error.description) }
        withState { $0.waiters[order.id] = waiter }
    }

    /// The stored pending orders; a store failure is reported and reads as none.
    private func storedOrders() -> [CPayPendingOrder] {
        do throws(ChargeKitError) { return try store.load() } catch {
            reportStorage(error)
            return []
        }
    }

    /// Removes an order from the store; `true` when this call removed it.
    private func removeStored(_ id: String) -> Bool {
        do throws(ChargeKitError) { return try store.remove(id: id) } catch {
            reportStorage(error)
            return false
        }
    }

    private func reportStorage(_ error: ChargeKitError) {
        let failure = CPayError.storage(error.description)
        withState { $0.log }?("pending-order store: \(error.description)")
        let center = notificationCenter
        withState { $0.callbackQueue }.async { center.post(name: Notification.Name(Self.NTFY_STORAGE_ERROR()), object: failure) }
    }

    /// The wallet could not be opened: the order is forgotten and its waiter told.
    private func fail(_ id: String, _ error: CPayError) {
        let waiter = withState { $0.waiters.removeValue(forKey: id) }
        _ = removeStored(id)
        waiter?(.failure(error))
    }

    // MARK: Returning to the app

    /// Handles a URL the app was opened with (platform-neutral; the UIKit entry points
    /// call it). `true` when it is the return of an order this manager is waiting for:
    /// the transaction is then inquired and the result delivered. `false`, and nothing
    /// changes, for any other URL, including a second return for the same order.
    @discardableResult
    public func handle(url: URL) -> Bool {
        guard let claimed = claim(url) else { return false }
        Task { await finish(claimed) }
        return true
    }

    /// Like ``handle(url:)``, but waits until the result has been delivered and returns
    /// the checked transaction (`nil` when the URL was not one this manager waits for).
    @discardableResult
    public func handleAndWait(url: URL) async -> CPayCheck? {
        guard let claimed = claim(url) else { return nil }
        return await finish(claimed)
    }

    /// Finds the pending order a return URL belongs to and marks it as being answered.
    private func claim(_ url: URL) -> CPayPendingOrder? {
        guard let query = try? QueryURL(parsing: url.absoluteString) else { return nil }
        let ids = query.items.filter { $0.name == "charge_id" }.map(\.value)
        guard ids.count == 1, let id = ids.first else { return nil }
        guard let order = storedOrders().first(where: { $0.id == id }),
              Self.sameEndpoint(url.absoluteString, order.returnURL)
        else { return nil }
        return withState { state -> CPayPendingOrder? in
            guard state.claimed.insert(id).inserted else { return nil }
            return order
        }
    }

    /// Whether `url` is `returnURL` plus a query: same scheme, host and path.
    static func sameEndpoint(_ url: String, _ returnURL: String) -> Bool {
        func base(_ text: String) -> Substring {
            let end = text.firstIndex(where: { $0 == "?" || $0 == "#" }) ?? text.endIndex
            var base = text[..<end]
            while base.hasSuffix("/") { base = base.dropLast() }
            return base
        }
        return base(url).lowercased() == base(returnURL).lowercased()
    }

    /// Inquires a claimed order and delivers its result. When the inquiry fails, the
    /// order stays pending for ``resumePendingOrders()``.
    @discardableResult
    private func finish(_ order: CPayPendingOrder, onlyIfFinal: Bool = false) async -> CPayCheck {
        let check: CPayCheck
        do {
            check = try await client.inquire(transactionID: order.id, token: try token())
        } catch {
            let waiter = withState { state in
                state.claimed.remove(order.id)
                return onlyIfFinal ? nil : state.waiters.removeValue(forKey: order.id)
            }
            waiter?(.failure(error))
            return Self.failureCheck(error)
        }
        let isFinal = check.data?.status?.isFinal ?? false
        if onlyIfFinal && !isFinal {
            _ = withState { $0.claimed.remove(order.id) }
            return check
        }
        // Only the one call that removes a final order posts NTFY_ASYNC: once per order,
        // whichever manager or process gets there first, also after a restart.
        let removed = isFinal && removeStored(order.id)
        let waiter = withState { state -> (@Sendable (Result<CPayResult, CPayError>) -> Void)? in
            state.claimed.remove(order.id)
            return state.waiters.removeValue(forKey: order.id)
        }
        waiter?(.success(Self.result(from: check)))
        if removed { post(Self.NTFY_ASYNC(), check) }
        return check
    }

    // MARK: Resuming after a restart

    /// The orders handed to a wallet and not yet answered.
    public func pendingOrders() -> [CPayPendingOrder] {
        storedOrders().sorted { $0.started < $1.started }
    }

    /// Inquires every pending order (for instance at launch, after the app was killed
    /// while the consumer paid). An order whose transaction reached a final status is
    /// delivered (to a waiting ``requestOrder(_:)`` if there is one, and as
    /// ``NTFY_ASYNC()``) and forgotten; one still pending stays. Returns every check made.
    @discardableResult
    public func resumePendingOrders() async -> [CPayCheck] {
        var checks: [CPayCheck] = []
        for order in pendingOrders() {
            let claimed = withState { $0.claimed.insert(order.id).inserted }
            guard claimed else { continue }
            checks.append(await finish(order, onlyIfFinal: true))
        }
        return checks
    }

    /// Callback form of ``resumePendingOrders()``.
    public func resumePendingOrders(callback: @escaping @Sendable ([CPayCheck]) -> Void) {
        deliver(callback, failure: { _ in [] }) { () async throws(CPayError) -> [CPayCheck] in await self.resumePendingOrders() }
    }

    // MARK: Results

    private func post(_ name: String, _ check: CPayCheck) {
        let center = notificationCenter
        callbackQueue.async { center.post(name: Notification.Name(name), object: check) }
    }

    /// The synchronous result for a checked transaction. Cancelled payments carry the
    /// documented cancellation code `-2`; declined and expired ones `-1`.
    public static func result(from check: CPayCheck) -> CPayResult {
        var data = check.data ?? CPayResultData()
        var status = "fail"
        switch data.status {
        case .succeeded?, .authorized?:
            status = check.status
        case .canceled?:
            data.code = CPayClientCode.cancelled.rawValue
            data.message = "payment canceled by the user"
        case .failed?:
            data.code = CPayClientCode.commonError.rawValue
            data.message = "payment declined"
        case .expired?:
            data.code = CPayClientCode.commonError.rawValue
            data.message = "payment expired before it was completed"
        default:
            data.code = data.code ?? CPayClientCode.commonError.rawValue
            data.message = data.message ?? "payment not completed (status \(data.status?.rawValue ?? "unknown"))"
        }
        return CPayResult(status: status, app: check.app, version: check.version, data: data)
    }

    /// A `fail` result for an error.
    public static func failure(_ error: any Error) -> CPayResult {
        var data = CPayResultData()
        let error = error as? CPayError ?? .malformedResponse("\(error)")
        data.code = error.code
        data.message = error.description
        return CPayResult(status: "fail", version: UPIWire.version, data: data)
    }

    /// A `fail` check for an error (the same value as ``failure(_:)``: a check and a
    /// result are one type).
    public static func failureCheck(_ error: any Error) -> CPayCheck { failure(error) }
}
