@_spi(Tools) import ChargeKit
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension CPayManager {
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
            try book.record(pending, waiter: completion)
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
            book.fail(pending.id, .cancelled)
            return
        }
        guard let opener = self.opener else {
            book.fail(pending.id, .walletUnavailable(.openFailed("no URLOpener set on CPayManager")))
            return
        }
        do {
            try await opener.open(wallet)
        } catch {
            book.fail(pending.id, .walletUnavailable(error))
        }
    }

    /// The URL the wallet returns to: the universal link for wechatpay (or when no
    /// scheme is set), otherwise `<scheme>://cpay/return`.
    static func returnURL(for order: CPayRequest) -> String {
        if let link = order.universalLink, order.payment.method == "wechatpay" || order.scheme == nil { return link }
        return "\(order.scheme ?? "cpay")://cpay/return"
    }
}
