@_spi(Tools) import ChargeKit
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension CPayManager {
    // MARK: Returning to the app

    /// Handles a URL the app was opened with (platform-neutral; the UIKit entry points
    /// call it). `true` when it is the return of an order this manager is waiting for:
    /// the transaction is then inquired and the result delivered. `false`, and nothing
    /// changes, for any other URL, including a second return for the same order.
    @discardableResult
    public func handle(url: URL) -> Bool {
        guard let claimed = book.claim(returnURL: url) else { return false }
        Task { await finish(claimed) }
        return true
    }

    /// Like ``handle(url:)``, but waits until the result has been delivered and returns
    /// the checked transaction (`nil` when the URL was not one this manager waits for).
    @discardableResult
    public func handleAndWait(url: URL) async -> CPayCheck? {
        guard let claimed = book.claim(returnURL: url) else { return nil }
        return await finish(claimed)
    }

    /// Inquires a claimed order and delivers its result. When the inquiry fails, the
    /// order stays pending for ``resumePendingOrders()``.
    @discardableResult
    private func finish(_ order: CPayPendingOrder, onlyIfFinal: Bool = false) async -> CPayCheck {
        let check: CPayCheck
        do {
            check = try await client.inquire(transactionID: order.id, token: try token())
        } catch {
            let waiter = book.release(order.id, keepWaiter: onlyIfFinal)
            waiter?(.failure(error))
            return Self.failureCheck(error)
        }
        let isFinal = check.data?.status?.isFinal ?? false
        if onlyIfFinal && !isFinal {
            _ = book.release(order.id, keepWaiter: true)
            return check
        }
        // Only the one call that removes a final order posts NTFY_ASYNC: once per order,
        // whichever manager or process gets there first, also after a restart.
        let removed = isFinal && book.remove(order.id)
        let waiter = book.release(order.id)
        waiter?(.success(Self.result(from: check)))
        if removed { post(Self.NTFY_ASYNC(), check) }
        return check
    }


    // MARK: Resuming after a restart

    /// The orders handed to a wallet and not yet answered.
    public func pendingOrders() -> [CPayPendingOrder] {
        book.stored().sorted { $0.started < $1.started }
    }

    /// Inquires every pending order (for instance at launch, after the app was killed
    /// while the consumer paid). An order whose transaction reached a final status is
    /// delivered (to a waiting ``requestOrder(_:)`` if there is one, and as
    /// ``NTFY_ASYNC()``) and forgotten; one still pending stays. Returns every check made.
    @discardableResult
    public func resumePendingOrders() async -> [CPayCheck] {
        var checks: [CPayCheck] = []
        for order in pendingOrders() {
            guard book.claim(order.id) else { continue }
            checks.append(await finish(order, onlyIfFinal: true))
        }
        return checks
    }

    /// Callback form of ``resumePendingOrders()``.
    public func resumePendingOrders(callback: @escaping @Sendable ([CPayCheck]) -> Void) {
        deliver(callback, failure: { _ in [] }) { () async throws(CPayError) -> [CPayCheck] in await self.resumePendingOrders() }
    }
}
