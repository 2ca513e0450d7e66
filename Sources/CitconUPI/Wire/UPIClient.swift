@_spi(Tools) import ChargeKit
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An HTTP client for the Citcon UPI REST API (`/v1/`), on URLSession. It is what
/// ``CPayManager`` uses, and what ChargeKit's own tools (the `chargekit upi` commands
/// and the tests that play a merchant's server) use to get tokens, create charges,
/// capture, refund and cancel. Not API for apps: it is SPI, reached with
/// `@_spi(Tools) import CitconUPI`.
///
/// Network behaviour: every request has a total deadline (`timeout`, however slowly the
/// answer trickles in), an answer is read as a stream and refused past
/// 64 KiB (`UPIWire.maximumBodyBytes`), and a redirect is never followed (the API never sends
/// one; following it would carry the key to another host); inquiries (`GET`, idempotent) are
/// retried on transport errors and 5xx answers with a doubling delay; `POST`s are
/// not retried (their reference makes a retry safe for the caller to do, but the
/// client does not guess). `4010` is surfaced as ``CPayError/unauthorized(message:)``.
/// The log never sees a token, key or charge token: paths are redacted and headers
/// are not logged.
@_spi(Tools) public struct UPIClient: Sendable {
    /// The API root, such as `https://api.sandbox.citconpay.com` or a local sandbox.
    public var baseURL: URL
    /// Per-request timeout in seconds: the whole exchange, from sending to the answer's last byte.
    public var timeout: TimeInterval
    /// How many times an inquiry is retried after the first attempt.
    public var inquiryRetries: Int
    /// The delay before the first retry; doubled for each next one.
    public var retryDelay: Duration
    /// Receives one line per request (method, redacted path, HTTP status, duration).
    public var log: (@Sendable (String) -> Void)?
    private let transport: any UPITransport

    /// Makes a client on URLSession (`session`'s configuration, or an ephemeral one).
    public init(baseURL: URL, timeout: TimeInterval = 15, inquiryRetries: Int = 2,
                retryDelay: Duration = .milliseconds(200), session: URLSession? = nil,
                log: (@Sendable (String) -> Void)? = nil) {
        self.init(baseURL: baseURL, timeout: timeout, inquiryRetries: inquiryRetries, retryDelay: retryDelay,
                  transport: URLSessionTransport(configuration: (session ?? Self.session(timeout: timeout)).configuration), log: log)
    }

    /// Makes a client whose requests go through `transport` (the tools' own HTTP client).
    public init(baseURL: URL, timeout: TimeInterval = 15, inquiryRetries: Int = 2,
                retryDelay: Duration = .milliseconds(200), transport: any UPITransport,
                log: (@Sendable (String) -> Void)? = nil) {
        self.baseURL = baseURL
        self.timeout = timeout
        self.inquiryRetries = inquiryRetries
        self.retryDelay = retryDelay
        self.log = log
        self.transport = transport
    }

    /// An ephemeral session whose requests time out after `timeout` seconds. (URLSession
    /// on Linux honours the configuration's timeout, not a request's own
    /// `timeoutInterval`; the client sets both.)
    public static func session(timeout: TimeInterval) -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        return URLSession(configuration: configuration)
    }

    // MARK: Operations

    /// `POST /v1/access-tokens`: exchanges the merchant's private key for an access token.
    public func accessToken(merchantKey: String, type: String) async throws(CPayError) -> UPIWire.AccessToken {
        try await send("POST", "/v1/access-tokens", bearer: merchantKey, body: UPIWire.AccessTokenRequest(tokenType: type))
    }

    /// `POST /v1/charges`: creates a charge (server token) and returns its charge token.
    public func createCharge(_ body: UPIWire.ChargeRequest, token: String) async throws(CPayError) -> UPIWire.ChargeCreated {
        try await send("POST", "/v1/charges", bearer: token, body: body)
    }

    /// `POST /v1/charges/{charge-token}`: confirms a charge with a payment method (client token).
    public func confirmCharge(chargeToken: String, _ body: UPIWire.ConfirmRequest, token: String)
        async throws(CPayError) -> UPIWire.Confirmation
    {
        try checked { () throws(ChargeKitError) in try FieldRules.identifier(chargeToken, field: "chargeToken", limit: 128) }
        return try await send("POST", "/v1/charges/\(chargeToken)", redacted: "/v1/charges/<charge-token>",
                              bearer: token, body: body)
    }

    /// `GET /v1/transactions/{id}`: the transaction, with captures, refunds and chargebacks.
    /// Retried on transport errors and 5xx.
    public func inquire(transactionID: String, token: String) async throws(CPayError) -> CPayCheck {
        try checked { () throws(ChargeKitError) in try FieldRules.identifier(transactionID, field: "transId", limit: 128) }
        var attempt = 0
        var delay = retryDelay
        while true {
            do {
                let data: CPayCheckData = try await send("GET", "/v1/transactions/\(transactionID)", bearer: token,
                                                         body: Optional<UPIWire.Failure>.none)
                return CPayCheck(status: "success", version: UPIWire.version, data: data)
            } catch {
                guard attempt < inquiryRetries, error.isRetryable else { throw error }
                attempt += 1
                try? await Task.sleep(for: delay)
                delay *= 2
            }
        }
    }

    /// `POST /v1/captures`.
    public func capture(_ body: UPIWire.OperationRequest, token: String) async throws(CPayError) -> CPayCheckData {
        try await send("POST", "/v1/captures", bearer: token, body: body)
    }

    /// `POST /v1/refunds`.
    public func refund(_ body: UPIWire.OperationRequest, token: String) async throws(CPayError) -> CPayCheckData {
        try await send("POST", "/v1/refunds", bearer: token, body: body)
    }

    /// `POST /v1/cancels`.
    public func cancel(_ body: UPIWire.OperationRequest, token: String) async throws(CPayError) -> CPayCheckData {
        try await send("POST", "/v1/cancels", bearer: token, body: body)
    }

    /// Sends a request body as given (JSON bytes, or none) and returns the answer's
    /// HTTP status and body, unread: for tools that pass a merchant's own JSON through
    /// (`chargekit upi`). The body is bounded like every other answer.
    /// `headers` are added to the request as given (the local sandbox's
    /// `ChargeKit-Scenario`, say).
    public func exchange(_ method: String, path: String, bearer: String, body: Data?,
                         headers: [(name: String, value: String)] = []) async throws(CPayError) -> (status: Int, body: Data) {
        try await exchange(method, path, redacted: nil, bearer: bearer, body: body, headers: headers)
    }

    // MARK: Transport

    private func checked(_ body: () throws(ChargeKitError) -> Void) throws(CPayError) {
        do { try body() } catch { throw .invalidOrder(error) }
    }

    /// Encodes `body`, sends it and reads the envelope of the answer.
    private func send<Body: Encodable, Payload: Decodable & Sendable>(
        _ method: String, _ path: String, redacted: String? = nil, bearer: String, body: Body?
    ) async throws(CPayError) -> Payload {
        var data: Data?
        if let body {
            do { data = try UPIWire.encoder().encode(body) } catch {
                throw .malformedResponse("cannot encode the request: \(error)")
            }
        }
        let (status, answer) = try await exchange(method, path, redacted: redacted, bearer: bearer, body: data)
        return try Self.decode(answer, status: status)
    }

    /// The one HTTP round trip: the request, a timeout, a bounded answer, one log line
    /// (with the path redacted where it holds a secret).
    private func exchange(_ method: String, _ path: String, redacted: String?, bearer: String, body: Data?,
                          headers: [(name: String, value: String)] = [])
        async throws(CPayError) -> (status: Int, body: Data)
    {
        let shown = redacted ?? path
        guard let url = URL(string: path, relativeTo: baseURL) else { throw .transport("bad URL for \(shown)") }
        var request = URLRequest(url: url, timeoutInterval: timeout)
        request.httpMethod = method
        request.setValue(UPIWire.bearer + bearer, forHTTPHeaderField: "Authorization")
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = body
        }
        let started = ContinuousClock.now
        let status: Int
        let data: Data
        do throws(UPITransportFailure) {
            (status, data) = try await transport.exchange(request, limit: UPIWire.maximumBodyBytes, deadline: .seconds(timeout))
        } catch {
            switch error {
            case .tooLarge:
                log?("\(method) \(shown) answered more than \(UPIWire.maximumBodyBytes) bytes")
                throw .malformedResponse("answer larger than \(UPIWire.maximumBodyBytes) bytes")
            case .deadline:
                log?("\(method) \(shown) timed out")
                throw .timeout
            case .transport(let reason):
                log?("\(method) \(shown) failed: \(reason)")
                throw .transport(reason)
            }
        }
        log?("\(method) \(shown) → \(status) in \(ContinuousClock.now - started)")
        // The API never redirects; a 3xx was not followed (it would carry the key elsewhere).
        if (300..<400).contains(status) {
            throw .malformedResponse("HTTP \(status): a redirect, which the UPI API never sends; not followed")
        }
        return (status, data)
    }

    /// Reads a UPI envelope (an API answer, or an IPN body a merchant server received):
    /// the payload of a `success`, or the error of a `fail` (`4010` as
    /// ``CPayError/unauthorized(message:)``). Bodies over 64 KiB (`UPIWire.maximumBodyBytes`) are refused.
    public static func decode<Payload: Decodable & Sendable>(_ data: Data, status: Int) throws(CPayError) -> Payload {
        guard data.count <= UPIWire.maximumBodyBytes else {
            throw .malformedResponse("answer larger than \(UPIWire.maximumBodyBytes) bytes")
        }
        let decoder = JSONDecoder()
        guard let head = try? decoder.decode(EnvelopeHead.self, from: data) else {
            if status >= 500 { throw .server(code: String(status), message: "HTTP \(status) without a UPI envelope", httpStatus: status) }
            throw .malformedResponse("HTTP \(status): not a UPI envelope")
        }
        if head.status == "success", (200..<300).contains(status) {
            do {
                return try decoder.decode(UPIWire.Envelope<Payload>.self, from: data).data
            } catch {
                throw .malformedResponse("\(Payload.self): \(error)")
            }
        }
        let failure = (try? decoder.decode(UPIWire.Envelope<UPIWire.Failure>.self, from: data))?.data
            ?? UPIWire.Failure(code: String(status), message: "HTTP \(status)")
        if failure.code == CPayAPICode.unauthorized.rawValue || status == 401 {
            throw .unauthorized(message: failure.message)
        }
        throw .server(code: failure.code, message: failure.message, httpStatus: status)
    }
}

/// The `status` of any envelope.
private struct EnvelopeHead: Decodable { var status: String }
