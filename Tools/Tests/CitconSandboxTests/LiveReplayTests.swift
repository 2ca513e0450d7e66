import CitconSandbox
@_spi(Tools) import CitconUPI
import Foundation
import Hummingbird
import Logging
import Testing

/// Bodies in the live API's shapes (protocol notes §5), written here from the facts.
enum LiveBodies {
    static let token = #"{"status":"success","app":"citcon_upi","version":"v1.0.0","data":{"access_token":"UPI_live_token","token_type":"server","expiry":1763700000,"permission":["inquiry","charge","vault","consult","encryption-config","refund","capture"]}}"#
    static let charge = #"{"status":"success","app":"citcon_upi","version":"v1.0.0","data":{"object":"charge","charge_token":"ct_live","id":"2025112012345678901","reference":"order-1","amount":100,"currency":"USD","time_created":1763600000,"time_captured":null,"auto_capture":true,"status":"initiated","country":"US","exchange":{"amount":720,"currency":"CNY","rate":"7.2"},"payment":{"method":"alipay","client":[{"client":"mobile_browser","format":"redirect","method":"GET","content":"https://landing.example/pay"},{"client":"desktop","format":"qr","method":"GET","content":"https://landing.example/qr"}]}}}"#
    static let inquiry = #"{"status":"success","app":"citcon_upi","version":"v1.0.0","data":{"id":"2025112012345678901","object":"charge","amount":100,"currency":"USD","status":"succeeded","time_created":1763600000,"time_captured":1763600050,"country":"US","reference":"order-1","amount_captured":100,"amount_refunded":null,"auto_capture":true,"payment":{"method":"alipay","type":"","data":{"pan":""}},"exchange":{"amount":720,"currency":"CNY","rate":7.2},"refunds":{"data":[]},"risk":{"score":1}}}"#
    static let refund = #"{"status":"success","app":"citcon_upi","version":"v1.0.0","data":{"object":"refund","id":"2025112099999999999","amount_refunded":50,"status":"succeeded","time_created":1763600100,"time_completed":1763600101}}"#
    static let cancel = #"{"status":"success","app":"citcon_upi","version":"v1.0.0","data":{"id":"2025112012345678901","object":"cancel","status":"canceled","payment":{"type":"","data":{"pan":""}}}}"#
    static let duplicate = #"{"status":"fail","app":"citcon_upi","version":"v1.0.0","data":{"code":"4100","message":"duplicate request"}}"#
    static let refundFailed = #"{"status":"fail","app":"citcon_upi","version":"v1.0.0","data":{"code":"4202","message":"refund failed"}}"#
    static let gateway = #"{"status":"fail","app":"citcon_upi","data":{"code":"4107","message":"gateway error"}}"#
}

/// A local HTTP server that answers with the live bodies: `reference` `dup` gets
/// 4100, a refund of `unpaid` 4202, an inquiry of `gw` 4107.
final class LiveReplayServer: Sendable {
    let runner: ServiceRunner<Int>
    var base: String { "http://127.0.0.1:\(runner.value)" }

    init() async throws {
        let router = Router()
        @Sendable func answer(_ text: String, _ status: Int = 200) -> Response {
            Response(status: .init(code: status), headers: [.contentType: "application/json"],
                     body: ResponseBody(byteBuffer: ByteBuffer(string: text)))
        }
        @Sendable func body(_ request: Request) async -> String {
            var request = request
            return (try? await request.collectBody(upTo: 65536)).map { String(buffer: $0) } ?? ""
        }
        router.post("/v1/access-tokens") { _, _ in answer(LiveBodies.token) }
        router.post("/v1/charges") { request, _ in
            await body(request).contains(#""dup""#) ? answer(LiveBodies.duplicate, 400) : answer(LiveBodies.charge)
        }
        router.get("/v1/transactions/:id") { _, context in
            context.parameters.get("id") == "gw" ? answer(LiveBodies.gateway, 400) : answer(LiveBodies.inquiry)
        }
        router.post("/v1/refunds") { request, _ in
            await body(request).contains(#""unpaid""#) ? answer(LiveBodies.refundFailed, 406) : answer(LiveBodies.refund)
        }
        router.post("/v1/cancels") { _, _ in answer(LiveBodies.cancel) }
        var logger = Logger(label: "live-replay")
        logger.logLevel = .warning
        runner = try await ServiceRunner<Int>.start(logger: logger) { ready in
            Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                        onServerRunning: { ready($0.localAddress?.port ?? 0) }, logger: logger)
        }
    }

    func stop() async { await runner.stop() }
}

/// The SDK's client and `chargekit upi` against live-shaped answers.
@Suite("Live replay")
struct LiveReplayTests {
    @Test func theSDKDecodesEveryLiveAnswer() async throws {
        let server = try await LiveReplayServer()
        try await withCleanup({ await server.stop() }) {
            let client = UPIClient(baseURL: try #require(URL(string: server.base + "/")), inquiryRetries: 0)
            let token = try await client.accessToken(merchantKey: "sk", type: "server")
            #expect(token.accessToken == "UPI_live_token" && token.expiry == 1_763_700_000_000 && token.permissions.count == 7)
            var transaction = CPayTransaction()
            transaction.reference = "order-1"; transaction.amount = 100; transaction.currency = "USD"; transaction.country = "US"
            let created = try await client.createCharge(UPIWire.ChargeRequest(transaction: transaction), token: token.accessToken)
            #expect(created.chargeToken == "ct_live" && created.autoCapture == true && created.timeCreated == 1_763_600_000_000)
            #expect(created.payment?.client.map(\.format) == ["redirect", "qr"] && created.exchange?.rate == Decimal(string: "7.2"))
            let inquiry = try await client.inquire(transactionID: created.id, token: token.accessToken)
            #expect(inquiry.data?.status == .succeeded && inquiry.data?.timeCaptured == 1_763_600_050_000)
            let refund = try await client.refund(UPIWire.OperationRequest(transactionID: created.id, reference: "rf-1", amount: 50),
                                                 token: token.accessToken)
            #expect(refund.object == "refund" && refund.amountRefunded == 50 && refund.status == .succeeded)
            let cancel = try await client.cancel(UPIWire.OperationRequest(transactionID: created.id, reference: "cx-1"), token: token.accessToken)
            #expect(cancel.object == "cancel" && cancel.status == .canceled && cancel.payment?.data?.pan == "")

            transaction.reference = "dup"
            await #expect(throws: CPayError.server(code: "4100", message: "duplicate request", httpStatus: 400)) {
                try await client.createCharge(UPIWire.ChargeRequest(transaction: transaction), token: token.accessToken)
            }
            do throws(CPayError) {
                _ = try await client.refund(UPIWire.OperationRequest(transactionID: "unpaid", reference: "rf-2"), token: token.accessToken)
                Issue.record("4202 must throw")
            } catch {
                #expect(error.apiCode == .refundFailed)
            }
            do throws(CPayError) {
                _ = try await client.inquire(transactionID: "gw", token: token.accessToken)
                Issue.record("4107 must throw")
            } catch {
                #expect(error.apiCode == .gatewayError && error.isRetryable)
            }
        }
    }

    @Test func chargekitUPIDecodesEveryLiveAnswer() async throws {
        let server = try await LiveReplayServer()
        try await withCleanup({ await server.stop() }) {
            let base = server.base + "/v1"
            let token = try await chargekit(["upi", "token", "--base-url", base, "--key", "sk", "--json"])
            #expect(token.status == 0 && token.stdout.contains("UPI_live_token"), "\(token.stderr)")
            let charge = try await chargekit(["upi", "charge", "--base-url", base, "--key", "sk", "--reference", "order-1",
                                              "--amount", "100", "--currency", "USD", "--json"])
            #expect(charge.status == 0 && charge.stdout.contains(#""charge_token":"ct_live""#), "\(charge.stderr)")
            let inquiry = try await chargekit(["upi", "inquire", "--base-url", base, "--token", "t", "--id", "2025112012345678901"])
            #expect(inquiry.status == 0 && inquiry.stdout.contains("status: succeeded"), "\(inquiry.stdout)")
            let refund = try await chargekit(["upi", "refund", "--base-url", base, "--token", "t", "--id", "x", "--reference", "r", "--json"])
            #expect(refund.status == 0 && refund.stdout.contains(#""object":"refund""#))
            let cancel = try await chargekit(["upi", "cancel", "--base-url", base, "--token", "t", "--id", "x", "--reference", "c", "--json"])
            #expect(cancel.status == 0 && cancel.stdout.contains(#""status":"canceled""#))
            let duplicate = try await chargekit(["upi", "charge", "--base-url", base, "--token", "t", "--reference", "dup"])
            #expect(duplicate.status == 2 && duplicate.stderr.contains("4100"))
            let gateway = try await chargekit(["upi", "inquire", "--base-url", base, "--token", "t", "--id", "gw"])
            #expect(gateway.status == 2 && gateway.stderr.contains("4107"))
        }
    }
}
