@_spi(Tools) import CitconUPI
import Foundation
import HTTPTypes
import OpenAPIRuntime

/// A request body, read once, before the generated server decodes it: bounded as every
/// body of the sandbox is (`4130` past ``UPIWire/maximumBodyBytes``, or the operation's own
/// bound in ``limits``, the connection then closed), and refused when it repeats a member name (the generated server's decoder
/// would keep one of them), naming it. The operation gets the bytes read.
struct JSONBodyEdge: ServerMiddleware {
    /// How much of an over-limit body is read and discarded before answering.
    let discardLimit: Int

    /// The bound of an operation whose body is smaller than the API's (``UPIWire/maximumBodyBytes``).
    static let limits: [String: Int] = [Operations.ClockAdvance.id: 1024, Operations.IpnForwarded.id: 4096]

    func intercept(
        _ request: HTTPRequest, body: HTTPBody?, metadata: ServerRequestMetadata, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, ServerRequestMetadata) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        guard let body, request.method == .post || request.method == .put || request.method == .patch else {
            return try await next(request, body, metadata)
        }
        let limit = Self.limits[operationID] ?? UPIWire.maximumBodyBytes
        var bytes: [UInt8] = []
        let within: Bool
        do {
            within = try await BoundedBody.read(body, limit: limit, discardLimit: discardLimit, size: \.count) { bytes += $0 }
        } catch {
            throw APIError.unreadableBody
        }
        guard within else { throw APIError.bodyTooLarge(limit: limit) }
        guard !bytes.isEmpty else { throw APIError.bodyRequired }
        let data = Data(bytes)
        if let repeated = RepeatedJSONNames.first(in: data) { throw APIError.repeated(repeated) }
        do {
            return try await next(request, HTTPBody(bytes), metadata)
        } catch let error as ServerError {
            // The generated decoder's refusal, named as every body's is (the field and why).
            guard let decoding = error.underlyingError as? DecodingError else { throw error }
            throw SandboxAPI.refusal(of: data, decoding)
        }
    }
}
