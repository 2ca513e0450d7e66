@_spi(Tools) import ChargeKit
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The Citcon UPI SDK entry point: the seed's `CPayManager`.
///
/// Its jobs live in one file each: configuration here; talking to the UPI server in
/// `CPayManager+ServerCalls.swift`; the payment hand-off in `CPayManager+Payment.swift`;
/// the return to the app and resuming after a restart in `CPayManager+Return.swift`;
/// turning a check into a result in `CPayManager+Results.swift`. The orders waiting
/// for an answer are kept by a `CPayOrderBook`.
///
/// Flow of ``requestOrder(_:callback:)``: validate the order (no network call for a
/// bad one) → confirm its charge token (`POST /v1/charges/{charge-token}`) → post
/// ``ORDER_CONFIRMED()`` → remember the order in the pending-order store → open the
/// wallet through the `URLOpener` → wait until the app is reopened on its return URL
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

    /// The configuration, behind ``withState(_:)``.
    struct State {
        var baseURL = CPayENVMode.uat.baseURL
        var accessToken: String?
        var callbackQueue = DispatchQueue.main
        var opener: (any URLOpener)?
        var timeout: TimeInterval = 15
        var log: (@Sendable (String) -> Void)?
    }

    private let lock = NSLock()
    private var state = State()
    /// The app's own session, if it gave one; otherwise one is made per timeout.
    private let givenSession: URLSession?
    private var timedSession: (timeout: TimeInterval, session: URLSession)?
    /// The orders handed to a wallet and not yet answered.
    let book: CPayOrderBook
    /// Where pending orders are kept.
    public var store: any CPayPendingOrderStore { book.store }
    /// Where ``ORDER_CONFIRMED()`` and ``NTFY_ASYNC()`` are posted.
    public let notificationCenter: NotificationCenter

    /// The shared instance (the seed's `[CPayManager sharedInstance]`).
    public static func sharedInstance() -> CPayManager { shared }

    /// Makes a manager. Apps use ``sharedInstance()``; tests and apps that want the
    /// results to survive a restart pass a ``CPayFilePendingOrderStore``.
    public init(store: any CPayPendingOrderStore = CPayMemoryPendingOrderStore(),
                notificationCenter: NotificationCenter = .default, opener: (any URLOpener)? = nil,
                session: URLSession? = nil) {
        self.notificationCenter = notificationCenter
        givenSession = session
        state.opener = opener
        book = CPayOrderBook(store: store)
        book.onStorageError = { [weak self] error in self?.reportStorage(error) }
    }

    /// Runs `body` on the configuration under the lock.
    func withState<T>(_ body: (inout State) throws -> T) rethrows -> T {
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

    /// A client for the current base URL, timeout and log.
    var client: UPIClient {
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

    /// The access token, or ``CPayError/missingAccessToken``.
    func token() throws(CPayError) -> String {
        guard let token = withState({ $0.accessToken }) else { throw .missingAccessToken }
        return token
    }

    /// Runs an async twin and hands its value, or `failure(error)`, to `callback` on
    /// ``callbackQueue``: the one shape of every callback API.
    func deliver<T: Sendable>(_ callback: @escaping @Sendable (T) -> Void, failure: @escaping @Sendable (CPayError) -> T,
                              _ work: @escaping @Sendable () async throws(CPayError) -> T) {
        let queue = callbackQueue
        Task {
            let value: T
            do throws(CPayError) { value = try await work() } catch { value = failure(error) }
            queue.async { callback(value) }
        }
    }

    /// Posts `check` under `name` on ``callbackQueue``.
    func post(_ name: String, _ check: CPayCheck) {
        let center = notificationCenter
        callbackQueue.async { center.post(name: Notification.Name(name), object: check) }
    }

    /// Logs a failure of the pending-order store and posts ``NTFY_STORAGE_ERROR()``.
    private func reportStorage(_ error: ChargeKitError) {
        let failure = CPayError.storage(error.description)
        withState { $0.log }?("pending-order store: \(error.description)")
        let center = notificationCenter
        withState { $0.callbackQueue }.async { center.post(name: Notification.Name(Self.NTFY_STORAGE_ERROR()), object: failure) }
    }
}
