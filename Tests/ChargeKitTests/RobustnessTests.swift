@_spi(Tools) @testable import ChargeKit
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
        for round in 0..<3000 {
            let url = MutationAgainstLedgerTests.mutate(Self.seeds[round % Self.seeds.count], edits: 1...6, using: &generator)
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
            for provider in PaymentProvider.allCases { _ = try? PaymentCallback.parse("app://x?" + url, provider: provider) }
        }
    }
}

/// Mutations of genuine callbacks, verified against a ledger that holds the genuine
/// charge: a mutation that changes what the callback says is refused, a refusal
/// consumes nothing (the genuine callback still goes through), and whatever mutation is
/// accepted says what the genuine one says.
@Suite struct MutationAgainstLedgerTests {
    static let alphabet = Array("%&=?#$+ _-.~0123456789ABCDEFabcdefXxifc\u{00}\u{7F}é€".utf8)

    /// `text` with 1 to `edits` random byte edits (replace, insert, delete).
    static func mutate(_ text: String, edits: ClosedRange<Int> = 1...4, using generator: inout SplitMix64) -> String {
        var bytes = Array(text.utf8)
        for _ in 0..<Int.random(in: edits, using: &generator) {
            let index = Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: bytes[index] = alphabet[Int.random(in: 0..<alphabet.count, using: &generator)]
            case 1: bytes.insert(alphabet[Int.random(in: 0..<alphabet.count, using: &generator)], at: index)
            default: if bytes.count > 1 { bytes.remove(at: index) }
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Every protocol of every app that takes extras (the others' answers are mutated by
    /// the conformance suite's hostile answers).
    @Test(arguments: appsKeepingExtras)
    func mutatedGenuineCallbacks(played: PlayedApp) async throws {
        let provider = played.provider
        var generator = SplitMix64(state: 0xBADC0DE &+ UInt64(played.description.utf8.count))
        let ledger = ChargeLedger()
        let order = played.order(1234, description: "Mug", reference: "R-7", extras: [QueryItem("record_id", "42"), QueryItem("note", "a&b c")])
        let app = played.app
        var accepted = 0, refused = 0
        for round in 0..<600 {
            let (_, handoff) = try await ledger.issue { nonce throws(ChargeKitError) in try app.handoff(for: order, nonce: nonce) }
            let genuine = try answer(handoff.url, round % 3 == 0 ? .failed : .approved)
            let truth = try PaymentCallback.parse(genuine, provider: provider)
            let mutated = Self.mutate(genuine, using: &generator)
            do throws(ChargeKitError) {
                let result = try await ledger.verify(url: mutated)
                accepted += 1
                // An approval stays an approval and a failure a failure (a mangled error
                // code is reported as it came, as another failure).
                #expect((result.outcome == .approved) == (truth.outcome == .approved), "\(mutated)")
                // The amount was not fixed: a different amount is accepted only with a flag.
                if result.callback.amount != truth.amount { #expect(!result.flags.isEmpty, "\(mutated)") }
                #expect(Set(result.callback.extraItems) == Set(truth.extraItems), "\(mutated)")
                #expect(result.provider == provider)
                await #expect(throws: ChargeKitError.replayedNonce) { try await ledger.verify(url: genuine) }
            } catch {
                refused += 1
                // The refusal consumed nothing: the genuine callback is accepted.
                let result = try await ledger.verify(url: genuine)
                #expect(result.outcome == truth.outcome)
            }
        }
        #expect(refused > 300, "most mutations must be refused (\(refused) refused, \(accepted) accepted)")
    }
}
