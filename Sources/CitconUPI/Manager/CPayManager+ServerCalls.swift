@_spi(Tools) import ChargeKit
import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension CPayManager {
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
}
