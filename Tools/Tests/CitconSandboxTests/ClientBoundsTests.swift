import CitconSandbox
@_spi(Tools) import CitconUPI
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

    @Test("a redirect is an error: the key and the body never reach the other host")
    func redirectsAreNotFollowed() async throws {
        let elsewhere = Hits()
        try await serveRouter({ router in
            router.post("/v1/access-tokens") { request, _ -> Response in
                elsewhere.add(request.headers[.authorization])
                return Response(status: .ok, body: ResponseBody(byteBuffer: ByteBuffer(string: #"{"status":"success","data":{}}"#)))
            }
        }) { other in
            let asked = Hits()
            try await serveRouter({ router in
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
        // Blocking writes on a raw socket: a write returns only once the client has read
        // enough to make room, so the count is what the client took in (plus the kernel's
        // buffers, a few MiB).
        let written = Hits()
        let server = try RawServer.endless(head: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n") { written.add(nil) }
        defer { server.stop() }
        let client = UPIClient(baseURL: try #require(URL(string: "http://127.0.0.1:\(server.port)/")), timeout: 60, inquiryRetries: 0)
        await #expect(throws: CPayError.malformedResponse("answer larger than \(UPIWire.maximumBodyBytes) bytes")) {
            try await client.inquire(transactionID: "abc", token: "t")
        }
        // The client gave up before the end (one that buffers the whole answer first reads
        // all 4 GiB, then refuses it). What it keeps is the first 64 KiB; what URLSession
        // reads ahead before the cancellation lands is dropped as it comes (tens of MiB on
        // a quiet machine, a GiB on a loaded one).
        #expect(written.all.count < 4096, "\(written.all.count) MiB were read")
    }

    @Test("an answer that trickles forever ends at the total deadline")
    func tricklingAnswer() async throws {
        try await serveRouter({ router in
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
