@testable import CitconSandbox
@_spi(Tools) import CitconUPI
import Foundation
import ProcessSupport
import Testing

/// The request log (`GET /v1/logs`, `chargekit upi logs tail`, the dashboard): every API
/// request with its status and bodies, keys, tokens and secrets masked, bounded.
@Suite("Request log")
struct RequestLogTests {
    static func list(_ answer: HTTPAnswer) -> [[String: Any]] { answer.json?["data"] as? [[String: Any]] ?? [] }

    @Test("each API request is listed in order with its bodies, every credential masked; after and limit are kept; the merchant key is required")
    func requestsAreListedMasked() async throws {
        let harness = try await Harness.start()
        try await withCleanup({ await harness.stop() }) {
            let server = try await harness.token("server")
            let (id, _) = try await harness.createCharge(server)
            _ = try await harness.inquire(server, id)

            let listed = try await harness.http.call("GET", "/v1/logs", token: harness.merchantKey)
            #expect(listed.status == 200, "\(listed.text)")
            let entries = Self.list(listed)
            #expect(entries.map { "\($0["method"] ?? "") \($0["route"] ?? "") \($0["status"] ?? "")" }
                    == ["POST /v1/access-tokens 200", "POST /v1/charges 200", "GET /v1/transactions/{id} 200"], "\(entries)")
            let token = try #require(entries.first)
            #expect((token["request_body"] as? String)?.contains(#""token_type":"server""#) == true, "a token's type is not a secret")
            let tokenAnswer = try #require(token["response_body"] as? String)
            #expect(tokenAnswer.contains(#""access_token":"…"#) && !tokenAnswer.contains(server), "the access token is masked: \(tokenAnswer)")
            let charge = try #require(entries.dropFirst().first?["response_body"] as? String)
            #expect(charge.contains(#""charge_token":"…"#) && charge.contains("k=…"), "the charge token and the wallet's capability are masked: \(charge)")
            #expect(!listed.text.contains(harness.merchantKey), "the merchant key appears nowhere")

            let first = try #require((entries.first?["id"] as? NSNumber)?.int64Value)
            let after = Self.list(try await harness.http.call("GET", "/v1/logs?after=\(first)&limit=1", token: harness.merchantKey))
            #expect(after.count == 1 && after.first?["route"] as? String == "/v1/charges")
            #expect(try await harness.http.call("GET", "/v1/logs", token: server).status == 401, "an access token is not the merchant key")
            let badLimit = try await harness.http.call("GET", "/v1/logs?limit=501", token: harness.merchantKey)
            #expect(badLimit.status == 400 && badLimit.message.contains("limit"))
            // Reading the log is not itself logged.
            #expect(Self.list(try await harness.http.call("GET", "/v1/logs?after=\(first)", token: harness.merchantKey)).count == 2)
            // The dashboard lists them, newest first.
            let page = try await DashboardTests.page(harness).text
            #expect(page.contains("id=\"requests\"") && page.contains("<code>GET /v1/transactions/{id}</code>"), "\(page.suffix(800))")
        }
    }

    @Test("a body cut at 4096 bytes; the journal keeps the newest requests only")
    func bounded() {
        let journal = RequestJournal(capacity: 3)
        for index in 0..<5 {
            journal.record(time: 1, method: "POST", route: "/v1/charges", status: 200, milliseconds: 1,
                           requestBody: Data(#"{"note":"\#(String(repeating: "x", count: 10_000))","i":\#(index)}"#.utf8), responseBody: nil)
        }
        let entries = journal.entries(after: 0, limit: 10)
        #expect(entries.map(\.id) == [3, 4, 5])
        #expect(entries.allSatisfy { ($0.requestBody?.utf8.count ?? 0) <= RequestJournal.maximumBodyBytes + 10 && $0.requestBody?.hasSuffix("(cut)") == true })
        #expect(RequestJournal.masked(Data("token=abcdefghijklmnopqrst&amount=5".utf8)) == "token=…qrst&amount=5")
        // A secret cut in half by the bound is still masked.
        let long = #"{"note":"\#(String(repeating: "x", count: 4060))","access_token":"st_0123456789abcdefSECRET"}"#
        let cut = RequestJournal.masked(Data(long.utf8)) ?? ""
        #expect(!cut.contains("st_0123") && cut.hasSuffix("(cut)"), "\(cut.suffix(60))")
    }
}
