import CitconSandbox
import CitconSandboxTesting
@_spi(Tools) import CitconUPI
import Foundation
import Hummingbird
import Logging
import Testing

/// A stand-in UPI server whose inquiry fails with 503 a given number of times first.
final class FlakyServer: @unchecked Sendable {
    private let lock = NSLock()
    private var failuresLeft: Int
    private(set) var hits = 0

    init(failures: Int) { failuresLeft = failures }

    func next() -> Int {
        lock.withLock {
            hits += 1
            guard failuresLeft > 0 else { return 200 }
            failuresLeft -= 1
            return 503
        }
    }

    var count: Int { lock.withLock { hits } }
}

@Suite("UPI client network behaviour")
struct ClientRetryTests {
    static func serve(_ flaky: FlakyServer, _ body: @Sendable (URL) async throws -> Void) async throws {
        try await serveRouter({ router in
            router.get("/v1/transactions/:id") { _, context -> Response in
                let id = context.parameters.get("id") ?? ""
                if id == "slow" { try? await Task.sleep(for: .seconds(3)) }
                let status = flaky.next()
                let json = status == 200
                    ? #"{"status":"success","app":"citcon_upi","version":"v0.1.1","data":{"id":"\#(id)","status":"succeeded"}}"#
                    : "upstream unavailable"
                return Response(status: .init(code: status), body: ResponseBody(byteBuffer: ByteBuffer(string: json)))
            }
        }, body)
    }

    @Test("an inquiry is retried after 5xx answers and succeeds")
    func retriesInquiry() async throws {
        let flaky = FlakyServer(failures: 2)
        try await Self.serve(flaky) { base in
            let client = UPIClient(baseURL: base, inquiryRetries: 2, retryDelay: .milliseconds(10))
            let check = try await client.inquire(transactionID: "abc", token: "t")
            #expect(check.data?.status == .succeeded)
        }
        #expect(flaky.count == 3)
    }

    @Test("retries are bounded: the last 5xx is surfaced")
    func boundedRetries() async throws {
        let flaky = FlakyServer(failures: 5)
        try await Self.serve(flaky) { base in
            let client = UPIClient(baseURL: base, inquiryRetries: 1, retryDelay: .milliseconds(10))
            await #expect(throws: CPayError.server(code: "503", message: "HTTP 503 without a UPI envelope", httpStatus: 503)) {
                try await client.inquire(transactionID: "abc", token: "t")
            }
        }
        #expect(flaky.count == 2)
    }

    @Test("a request that takes longer than the timeout fails with .timeout")
    func timeout() async throws {
        try await Self.serve(FlakyServer(failures: 0)) { base in
            let client = UPIClient(baseURL: base, timeout: 0.5, inquiryRetries: 0)   // its own session, 0.5 s
            // The server answers (200) after 3 s: `.timeout` shows the client gave up first,
            // whatever the load of the machine, with no wall-clock bound to flake.
            await #expect(throws: CPayError.timeout) {
                try await client.inquire(transactionID: "slow", token: "t")
            }
        }
    }

    @Test("a refused connection is a transport error, after the retries")
    func transportError() async throws {
        let gone = try await IPNReceiver.start()
        let url = try #require(URL(string: gone.url.replacingOccurrences(of: "/ipn", with: "")))
        await gone.stop()
        let client = UPIClient(baseURL: url, timeout: 2, inquiryRetries: 1, retryDelay: .milliseconds(10))
        do {
            _ = try await client.inquire(transactionID: "abc", token: "t")
            Issue.record("expected a failure")
        } catch {
            switch error {
            case .transport, .timeout: break
            default: Issue.record("unexpected \(error)")
            }
        }
    }
}
