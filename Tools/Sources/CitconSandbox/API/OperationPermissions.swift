import Foundation
import HTTPTypes
import OpenAPIRuntime

/// Who may call each operation of the generated server, in one table keyed by the
/// operation's identifier in `sandbox.yaml`, checked before the operation reads anything
/// of the request (its body included): an operation missing from the table is refused.
struct OperationPermissions: ServerMiddleware {
    /// What an operation asks of its caller.
    enum Permission: Sendable {
        /// Nothing: anyone may call it.
        case anyone
        /// `Authorization: Bearer <merchant private key>`, wrong keys counted by the
        /// ``FailureThrottle`` per client address.
        case merchantKey
        /// `Authorization: Bearer <access token>`, known, unexpired and granting this
        /// permission (`charge`, `confirm`, `inquiry`…: a server token grants the
        /// merchant's, a client token the app's).
        case accessToken(String)
    }
    /// The merchant key the request being answered presented, for a `merchantKey`
    /// operation (checked: the merchant key as the store has it).
    @TaskLocal static var merchantKey: String?

    /// Every generated operation and what it asks.
    static let table: [String: Permission] = [
        Operations.Health.id: .anyone,
        Operations.IssueToken.id: .merchantKey,
        Operations.ScenarioList.id: .anyone,
        Operations.ClockRead.id: .merchantKey,
        Operations.ClockAdvance.id: .merchantKey,
        Operations.ClockReset.id: .merchantKey,
        Operations.IpnList.id: .merchantKey,
        Operations.IpnForwarded.id: .merchantKey,
        Operations.LogList.id: .merchantKey,
        Operations.Inquire.id: .accessToken("inquiry"),
        Operations.CreateCharge.id: .accessToken("charge"),
        Operations.ConfirmCharge.id: .accessToken("confirm"),
        Operations.Capture.id: .accessToken("capture"),
        Operations.Refund.id: .accessToken("refund"),
        Operations.Cancel.id: .accessToken("cancel"),
        Operations.IpnEvents.id: .merchantKey,
    ]

    let api: SandboxAPI
    let throttle: FailureThrottle

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        switch Self.table[operationID] {
        case .anyone:
            break
        case .merchantKey:
            let authorization = request.headerFields[.authorization]
            try await throttle.guarded(authorization: authorization, address: OpenAPIEdge.clientAddress) {
                try await api.requireMerchantKey(authorization: authorization)
            }
            return try await Self.$merchantKey.withValue(SandboxAPI.bearer(authorization)) { try await next(request, body, metadata) }
        case .accessToken(let permission):
            try SandboxAPI.require(try await api.authenticate(request.headerFields[.authorization]), permission)
        case nil:
            throw APIError(.forbidden, "operation: \(operationID) has no permission in the sandbox's table")
        }
        return try await next(request, body, metadata)
    }
}
