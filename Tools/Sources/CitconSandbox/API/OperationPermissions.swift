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
        /// `Authorization: Bearer <access token>`, known and unexpired: the operation
        /// reads it as ``caller`` (the API checks what it may do).
        case accessToken
    }

    /// The access token of the request being answered, for an `accessToken` operation.
    @TaskLocal static var caller: AccessTokenRecord?
    /// The merchant key the request being answered presented, for a `merchantKey`
    /// operation (checked: the merchant key as the store has it).
    @TaskLocal static var merchantKey: String?

    /// The caller's token, as the permission check found it.
    static func requireCaller() throws(APIError) -> AccessTokenRecord {
        guard let caller else { throw APIError(.unauthorized, "Authorization: 'Bearer <access token>' is required") }
        return caller
    }

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
        Operations.Inquire.id: .accessToken,
        Operations.CreateCharge.id: .accessToken,
        Operations.ConfirmCharge.id: .accessToken,
        Operations.Capture.id: .accessToken,
        Operations.Refund.id: .accessToken,
        Operations.Cancel.id: .accessToken,
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
            try await throttle.requireMerchantKey(authorization, from: OpenAPIEdge.clientAddress, api: api)
            return try await Self.$merchantKey.withValue(SandboxAPI.bearer(authorization)) { try await next(request, body, metadata) }
        case .accessToken:
            let token = try await api.authenticate(request.headerFields[.authorization])
            return try await Self.$caller.withValue(token) { try await next(request, body, metadata) }
        case nil:
            throw APIError(.forbidden, "operation: \(operationID) has no permission in the sandbox's table")
        }
        return try await next(request, body, metadata)
    }
}
