@_spi(Tools) import ChargeKit
@_spi(Tools) import CitconUPI
import Foundation

/// What the dashboard at `/sandbox/dashboard` reads and does, independent of HTTP:
/// the merchant key check, the recent charges with their IPNs, and the operator's
/// actions (expire a charge, send an IPN again). Paying, declining and canceling go
/// through ``SandboxAPI/walletAction(id:action:)``, exactly as the wallet page does.
extension SandboxAPI {
    /// One charge as the dashboard shows it.
    public struct DashboardCharge: Sendable, Equatable {
        /// The charge, with its status history.
        public var charge: ChargeRecord
        /// Its IPNs, oldest first: one per status change when it has an IPN URL.
        public var notifications: [OutboxEntry]
        /// Every delivery attempt at those IPNs, in the order they were made.
        public var attempts: [IPNAttempt]
    }

    /// The most charges the dashboard lists.
    public static let dashboardLimit = 50

    /// The merchant's credential from an `Authorization` header: `Bearer <key>`, or
    /// HTTP Basic authentication whose password is the key (any user name), so that a
    /// browser can open the dashboard.
    static func merchantCredential(_ header: String?) -> String? {
        guard let header, header.count <= 4096 else { return nil }
        if let bearer = bearer(header) { return bearer }
        let parts = header.split(separator: " ", maxSplits: 1)
        guard parts.count == 2, parts[0].lowercased() == "basic",
              let data = Data(base64Encoded: String(parts[1]).trimmingCharacters(in: .whitespaces)),
              let decoded = String(data: data, encoding: .utf8), let colon = decoded.firstIndex(of: ":")
        else { return nil }
        let password = String(decoded[decoded.index(after: colon)...])
        return password.isEmpty ? nil : password
    }

    /// Checks that `header` carries the merchant private key (`4010` otherwise).
    public func authenticateMerchant(_ header: String?) async throws {
        guard let key = Self.merchantCredential(header) else {
            throw APIError(.unauthorized, "Authorization: the merchant key is required (Bearer, or the password of Basic authentication)")
        }
        try await checkMerchantKey(key)
    }

    /// The charges most recently created, newest first, each with its IPNs and their
    /// attempts.
    public func dashboard(limit: Int = dashboardLimit) async throws -> [DashboardCharge] {
        let charges = try await store.recentCharges(limit: limit)
        let (notifications, attempts) = try await store.notificationLog(transactionIDs: charges.map(\.id))
        // Grouped by charge, each group in the order read (IPNs oldest first, attempts as made).
        let transactionOf = Dictionary(notifications.map { ($0.id, $0.transactionID) }, uniquingKeysWith: { first, _ in first })
        let notificationsByCharge = Dictionary(grouping: notifications, by: \.transactionID)
        let attemptsByCharge = Dictionary(grouping: attempts) { transactionOf[$0.notificationID] ?? "" }
        return charges.map { charge in
            DashboardCharge(charge: charge, notifications: notificationsByCharge[charge.id] ?? [], attempts: attemptsByCharge[charge.id] ?? [])
        }
    }

    /// Expires an unpaid charge now, as if its time had run out (`4090` when it is no
    /// longer initiated or pending).
    @discardableResult
    public func expireNow(id: String) async throws -> ChargeRecord {
        try Self.field { () throws(ChargeKitError) in try FieldRules.identifier(id, field: "charge", limit: 128) }
        let now = self.now
        let (charge, _) = try await store.updateCharge(id: id, reference: nil, now: now) { charge in
            guard charge.canMove(to: .expired) else {
                throw APIError(.illegalState, "status: the charge is \(charge.status); only an unpaid charge can expire")
            }
            charge.status = .expired
            charge.expiresAt = min(charge.expiresAt, now)
        }
        return charge
    }

    /// Sends an IPN again at once, whatever its state (`4004` when there is no such IPN).
    public func resendNotification(id: String) async throws {
        guard let number = Int64(id), number > 0 else { throw APIError(.invalidRequest, "ipn: must be an IPN's number") }
        guard try await store.resendNotification(id: number, now: now) else {
            throw APIError(.notFound, "ipn: no IPN \(number)")
        }
    }
}
