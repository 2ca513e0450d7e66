@_spi(Tools) import CitconUPI
import Foundation
import Testing

/// Bodies in the live API's shapes (protocol notes §5, written here from the facts),
/// decoded by the SDK's client: both worlds, seconds and milliseconds, `permission`
/// and `permissions`, envelopes with or without `version`, unknown keys ignored.
@Suite struct LiveWireTests {
    func body(_ text: String) -> Data { Data(text.utf8) }

    @Test func liveTokenWithSingularPermissionAndSeconds() throws {
        let live = body(#"{"status":"success","app":"citcon_upi","version":"v1.0.0","data":{"access_token":"UPI_abc","token_type":"client","expiry":1763700000,"permission":["inquiry","charge","vault","consult","encryption-config","refund","capture"]}}"#)
        let token: UPIWire.AccessToken = try UPIClient.decode(live, status: 200)
        #expect(token.expiry == 1_763_700_000_000, "seconds become milliseconds")
        #expect(token.permissions.contains("encryption-config") && token.permissions.count == 7)
        let seed = body(#"{"status":"success","app":"citcon_upi","version":"v0.1.1","data":{"access_token":"t","token_type":"server","expiry":1763700000123,"permissions":["charge"]}}"#)
        let old: UPIWire.AccessToken = try UPIClient.decode(seed, status: 201)
        #expect(old.expiry == 1_763_700_000_123 && old.permissions == ["charge"])
        // Written as the live API writes it.
        let written = String(decoding: try UPIWire.encoder().encode(token), as: UTF8.self)
        #expect(written.contains(#""permission":["#) && written.contains(#""expiry":1763700000"#) && !written.contains("permissions"))
    }

    @Test func liveChargeCreateAnswerWithUnknownKeys() throws {
        let live = body(#"""
        {"status":"success","app":"citcon_upi","version":"v1.0.0","data":{"object":"charge","charge_token":"ct_123","id":"1234567890123456789","reference":"order-1","amount":100,"currency":"USD","time_created":1763700000,"time_captured":null,"auto_capture":true,"status":"initiated","country":"US","exchange":{"amount":720,"currency":"CNY","rate":"7.2"},"payment":{"method":"alipay","client":[{"client":"mobile_native","format":"redirect","method":"GET","content":"https://example/landing"}]}}}
        """#)
        let created: UPIWire.ChargeCreated = try UPIClient.decode(live, status: 200)
        #expect(created.id == "1234567890123456789" && created.chargeToken == "ct_123" && created.status == .initiated)
        let check: CPayCheckData = try UPIClient.decode(live, status: 200)
        #expect(check.timeCreated == 1_763_700_000_000 && check.timeCaptured == nil && check.autoCapture == true)
    }

    @Test func liveErrorsAreTyped() throws {
        let duplicate = body(#"{"status":"fail","app":"citcon_upi","version":"v1.0.0","data":{"code":"4100","message":"duplicate request"}}"#)
        #expect(throws: CPayError.server(code: "4100", message: "duplicate request", httpStatus: 400)) {
            let _: UPIWire.ChargeCreated = try UPIClient.decode(duplicate, status: 400)
        }
        let refund = body(#"{"status":"fail","app":"citcon_upi","version":"v1.0.0","data":{"code":"4202","message":"refund failed"}}"#)
        do {
            let _: CPayCheckData = try UPIClient.decode(refund, status: 406)
            Issue.record("a fail envelope must throw")
        } catch {
            #expect(error.apiCode == .refundFailed && !error.isRetryable)
        }
        // 4107 arrives without a version key, and is worth retrying.
        let gateway = body(#"{"status":"fail","app":"citcon_upi","data":{"code":"4107","message":"gateway error"}}"#)
        do {
            let _: CPayCheckData = try UPIClient.decode(gateway, status: 400)
            Issue.record("a fail envelope must throw")
        } catch {
            #expect(error.apiCode == .gatewayError && error.isRetryable)
        }
    }

    @Test func envelopeWithoutVersionDecodes() throws {
        let noVersion = body(#"{"status":"success","app":"citcon_upi","data":{"status":"ok"}}"#)
        let data: [String: String] = try UPIClient.decode(noVersion, status: 200)
        #expect(data == ["status": "ok"])
    }

    @Test(arguments: [(Int64(1_763_700_000), Int64(1_763_700_000_000)), (1_763_700_000_123, 1_763_700_000_123), (0, 0)])
    func epochInEitherUnit(value: Int64, milliseconds: Int64) {
        #expect(UPIWire.epochMilliseconds(value) == milliseconds)
    }

    /// Found by the decoder property test: 164718815786000 ms is a whole second, but its
    /// 164718815786 seconds are beyond 10^11 and would be read back as milliseconds.
    @Test("a time written by wireTime reads back the same", arguments: [
        Int64(1_763_700_000_000), 1_763_700_000_123, 164_718_815_786_000, -164_718_815_786_000, 0, 5_000,
        100_000_000_000_000, 100_000_000_001_000, Int64.max / 1000 * 1000,
    ])
    func wireTimeRoundTrips(milliseconds: Int64) {
        #expect(UPIWire.epochMilliseconds(UPIWire.wireTime(milliseconds)) == milliseconds)
    }

    @Test("the live form: seconds for a whole second of our era, milliseconds otherwise")
    func wireTimeForm() {
        #expect(UPIWire.wireTime(1_763_700_000_000) == 1_763_700_000)
        #expect(UPIWire.wireTime(1_763_700_000_123) == 1_763_700_000_123)
        #expect(UPIWire.wireTime(164_718_815_786_000) == 164_718_815_786_000)
    }

    @Test("A failure that carries more than its code and message encodes what it carried: decoding what was encoded gives it back (a fuzz finding)")
    func aFailureWithMoreFieldsRoundTrips() throws {
        let body = #"{"status":"fail","app":"citcon_upi","version":"v0.1/1","data":{"code":"4010","me":"r1","amount":128,"cpn":"http://127.0.0.1:1/ipn"},"ext":{"devicessage":"unauthorized"}}"#
        let decoder = JSONDecoder()
        let check = try decoder.decode(CPayCheck.self, from: Data(body.utf8))
        #expect(check.data?.amount == 128)
        let again = try decoder.decode(CPayCheck.self, from: UPIWire.encoder().encode(check))
        #expect(again == check)
        // A plain failure keeps the live API's shape: code and message only.
        let plain = try decoder.decode(CPayCheck.self, from: Data(#"{"status":"fail","app":"citcon_upi","version":"v1","data":{"code":"4010","message":"no"}}"#.utf8))
        let written = String(decoding: try UPIWire.encoder().encode(plain), as: UTF8.self)
        #expect(written.contains(#""data":{"code":"4010","message":"no"}"#), "\(written)")
    }
}
