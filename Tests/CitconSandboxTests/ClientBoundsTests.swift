import CitconSandbox
import CitconUPI
import Foundation
import Hummingbird
import Logging
import NIOCore
import Testing

/// What a hostile or broken server can do to `UPIClient` (and so to `CPayManager` and
/// `chargekit upi`): redirect it elsewhere, stream without end, trickle forever.
@Suite("UPI client bounds")
struct ClientBoundsTests {
    /// Counts the requests a host received, and whether they carried `Authorization`.
    final class Hits: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [String] = []
        func add(_ authorization: String?) { lock.withLock { values.append(authorization ?? "") } }
        var all: [String] { lock.withLock { values } }
    }

    static func serve(_ build: @escaping @Sendable (Router<BasicRequestContext>) -> Void,
                      _ body: @Sendable (URL) async throws -> Void) async throws {
        let router = Router()
        build(router)
        var logger = Logger(label: "bounds")
        logger.logLevel = .critical
        let runner = try await ServiceRunner<Int>.start(logger: logger) { ready in
            Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                        onServerRunning: { ready($0.localAddress?.port ?? 0) }, logger: logger)
        }
        try await withCleanup({ await runner.stop() }) {
            try await body(try #require(URL(string: "http://127.0.0.1:\(runner.value)/")))
        }
    }

    @Test("a redirect is an error: the key and the body never reach the other host")
    func redirectsAreNotFollowed() async throws {
        let elsewhere = Hits()
        try await Self.serve({ router in
            router.post("/v1/access-tokens") { request, _ -> Response in
                elsewhere.add(request.headers[.authorization])
                return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"status":"success","data":{}}"#)))
            }
        }) { other in
            let asked = Hits()
            try await Self.serve({ router in
                // 301, 302, 307, 308 in turn.
                router.post("/v1/access-tokens") { _, _ -> Response in
                    asked.add(nil)
                    let status = [HTTPResponse.Status.movedPermanently, .found, .temporaryRedirect, .permanentRedirect][(asked.all.count - 1) % 4]
                    return Response(status: status, headers: [.location: other.absoluteString + "v1/access-tokens"])
                }
            }) { base in
                for status in [301, 302, 307, 308] {
                    let client = UPIClient(baseURL: base, timeout: 5)
                    await #expect(throws: CPayError.malformedResponse("HTTP \(status): a redirect, which the UPI API never sends; not followed")) {
                        _ = try await client.accessToken(merchantKey: "sk_secret_merchant_key", type: "server")
                    }
                }
            }
        }
        #expect(elsewhere.all.isEmpty, "the other host got \(elsewhere.all)")
    }

    @Test("an endless answer is cut at the bound, never buffered whole")
    func endlessAnswer() async throws {
        let written = Hits()
        try await Self.serve({ router in
            router.get("/v1/transactions/:id") { _, _ -> Response in
                Response(status: .ok, body: ResponseBody { writer in
                    let chunk = ByteBuffer(repeating: UInt8(ascii: "x"), count: 1 << 20)
                    // 4 GiB unless the client hangs up first.
                    for _ in 0..<4096 {
                        try await writer.write(chunk)
                        written.add(nil)
                    }
                    try await writer.finish(nil)
                })
            }
        }) { base in
            let client = UPIClient(baseURL: base, timeout: 30, inquiryRetries: 0)
            await #expect(throws: CPayError.malformedResponse("answer larger than \(UPIWire.maximumBodyBytes) bytes")) {
                try await client.inquire(transactionID: "abc", token: "t")
            }
        }
        // The client hung up at the bound: the server could not write the 4 GiB (a client
        // that buffers the whole answer first reads every chunk).
        #expect(written.all.count < 256, "\(written.all.count) MiB were written")
    }

    @Test("an answer that trickles forever ends at the total deadline")
    func tricklingAnswer() async throws {
        try await Self.serve({ router in
            router.get("/v1/transactions/:id") { _, _ -> Response in
                Response(status: .ok, body: ResponseBody { writer in
                    // A byte every 100 ms: never silent long enough for URLSession's own timeout.
                    for _ in 0..<600 {
                        try await writer.write(ByteBuffer(string: " "))
                        try await Task.sleep(for: .milliseconds(100))
                    }
                    try await writer.finish(nil)
                })
            }
        }) { base in
            let client = UPIClient(baseURL: base, timeout: 1, inquiryRetries: 0)
            await #expect(throws: CPayError.timeout) {
                try await client.inquire(transactionID: "abc", token: "t")
            }
        }
    }
}
