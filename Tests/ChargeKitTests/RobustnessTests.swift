import ChargeKit
import ChargeKitSimulators
import Testing

/// A small deterministic generator (SplitMix64) so failures reproduce.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct RobustnessTests {
    static let seeds = [
        "com-your-app://action/?ifcc_responseType=approved&ifcc_transactionId=100001&ifcc_amount=10.99&ifcc_currency=USD&ifcc_redactedCardNumber=XXXXXXXXXXXX1111&ifcc_cardType=Visa&ifcc_taxAmount=0.93&ifcc_taxRate=8.5&ifcc_tipAmount=1.50",
        "samplepaymentapp://?smp-status=success&smp-tx-code=TX1&foreign-tx-id=F1&smp-message=OK",
        "app://fail?reference=R1&errorCode=CancelledByUser",
        "app://ok?reference=R1&referenceNumber=1&entryMode=EMV&obfuscatedPan=****%20****%20****%201111",
    ]

    /// Random mutations of the seeds' callbacks never crash a parser, and never get
    /// past a ledger that issued nothing.
    @Test func mutatedCallbacksNeverCrashNorVerify() async throws {
        var generator = SplitMix64(state: 0xC0FFEE)
        let ledger = ChargeLedger()
        let alphabet = Array("%&=?#$+ _-.~0123456789ABCDEFabcdefXxifc\u{00}\u{7F}é€".utf8)
        for round in 0..<3000 {
            var bytes = Array(Self.seeds[round % Self.seeds.count].utf8)
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[index] = alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
                case 1: bytes.insert(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)], at: index)
                default: if bytes.count > 1 { bytes.remove(at: index) }
                }
            }
            let url = String(decoding: bytes, as: UTF8.self)
            for provider in PaymentProvider.allCases { _ = try? PaymentCallback.parse(url, provider: provider) }
            await #expect(throws: ChargeKitError.self) { try await ledger.verify(url: url) }
        }
    }

    @Test func randomBytesNeverCrash() {
        var generator = SplitMix64(state: 42)
        for _ in 0..<2000 {
            let bytes = (0..<Int.random(in: 0...200, using: &generator)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let url = String(decoding: bytes, as: UTF8.self)
            _ = try? PaymentCallback.parse(url)
            _ = try? CreditCardTerminal.ChargeResponse(url: "app://x?" + url)
            _ = try? SumUp.Callback(url: "app://x?" + url)
            _ = try? Zettle.Callback(url: "app://x?" + url)
        }
    }
}
