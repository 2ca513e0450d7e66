@testable import CitconSandbox
@_spi(Tools) import CitconUPI
import Foundation
import Testing

@Suite("New charges' identifiers")
struct ChargeIdentifiersTests {
    static func isDigits(_ text: String) -> Bool { text.utf8.allSatisfy { (0x30...0x39).contains($0) } }
    static func isHex(_ text: String) -> Bool {
        text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    @Test("ids are 19 digits led by the time in milliseconds and only ever increase; tokens are 32 hex digits led by it")
    func shape() {
        let identifiers = ChargeIdentifiers()
        let now: Int64 = 1_795_000_000_123
        let drawn = (0..<5000).map { _ in identifiers.next(now: now) }
        // The first is led by the time; the others follow it, one past the one before
        // when the draw is lower (they may run into the next milliseconds).
        #expect(drawn[0].id.hasPrefix("1795000000123"))
        for (id, token) in drawn {
            #expect(id.utf8.count == 19 && Self.isDigits(id))
            #expect((1_795_000_000_123_000_000..<1_795_000_000_124_005_000).contains(UInt64(id) ?? 0))
            #expect(token.utf8.count == 32 && Self.isHex(token) && token.hasPrefix(String(now, radix: 16)))
        }
        let numbers = drawn.compactMap { UInt64($0.id) }
        #expect(numbers.count == drawn.count && zip(numbers, numbers.dropFirst()).allSatisfy { $0 < $1 },
                "one generator's ids increase, even within one millisecond")
        #expect(Set(drawn.map(\.chargeToken)).count == drawn.count)
        // The token's 84 random bits: its last 21 digits take every hex digit about equally often.
        var counts = [Character: Int]()
        for (_, token) in drawn { for digit in token.suffix(21) { counts[digit, default: 0] += 1 } }
        #expect(counts.count == 16 && counts.values.allSatisfy { abs($0 - 5000 * 21 / 16) < 500 })
        // A later time gives a larger id than any before.
        let later = identifiers.next(now: now + 1)
        #expect(later.id.hasPrefix("1795000000124") || UInt64(later.id) ?? 0 > numbers.last ?? .max)
    }

    @Test("a clock outside 2001 to 2286 is clamped: the id keeps its 19 digits")
    func clampedClock() {
        let identifiers = ChargeIdentifiers()
        for now in [Int64.min, -1, 0, 999_999_999_999, 10_000_000_000_000, .max] {
            let (id, token) = identifiers.next(now: now)
            #expect(id.utf8.count == 19 && Self.isDigits(id) && id.first != "0", "\(now): \(id)")
            #expect(token.utf8.count == 32 && Self.isHex(token), "\(now): \(token)")
        }
    }

    static let server = AccessTokenRecord(token: "t", type: "server", permissions: ["charge"], expiresAt: .max)

    static func charge(_ id: String, reference: String) -> ChargeRecord {
        ChargeRecord(id: id, chargeToken: "ct-" + id, reference: reference, amount: 100, currency: "USD", country: "US",
                     autoCapture: false, note: "", method: "alipay", status: .initiated, urls: CPayUrls(), returnURL: nil,
                     timeCreated: 1000, expiresAt: 10_000)
    }

    /// A store holding, for every millisecond of the next few seconds, the ids a
    /// generator whose random source gives 0 draws first (`taken` per millisecond).
    static func crowdedStore(taken: Int) async throws -> (InMemorySandboxStore, Set<String>) {
        let store = InMemorySandboxStore()
        let start = UInt64(epochMilliseconds())
        var ids = Set<String>()
        for time in start..<start + 3000 {
            for offset in 0..<UInt64(taken) {
                let id = String(time * 1_000_000 + offset)
                ids.insert(id)
                try await store.insertCharge(charge(id, reference: "held-\(id)"))
            }
        }
        return (store, ids)
    }

    @Test("when another charge has the id drawn (another sandbox process drew it), the sandbox draws again")
    func drawsAgain() async throws {
        let (store, held) = try await Self.crowdedStore(taken: 2)
        let api = SandboxAPI(store: store, configuration: SandboxConfiguration(), baseURL: { "http://127.0.0.1:1" },
                             identifiers: ChargeIdentifiers(random: { (0, 0) }))
        let created = try await api.createCharge(NewCharge(JSONDecoder().decode(ChargeBody.self, from: Data(Harness.chargeBody(reference: "order-1").utf8)), remoteIPN: false))
        #expect(!held.contains(created.id), "the charge has an id no other charge has")
        #expect(created.id.hasSuffix("000002"), "the third id drawn (two were taken): \(created.id)")
        #expect(try await store.charge(id: created.id)?.reference == "order-1")
        #expect(try await store.chargeCount() == held.count + 1)
    }

    @Test("after eight draws that are all taken the create fails, writes nothing and leaves the reference free")
    func givesUp() async throws {
        let (store, held) = try await Self.crowdedStore(taken: SandboxAPI.identifierAttempts)
        let api = SandboxAPI(store: store, configuration: SandboxConfiguration(), baseURL: { "http://127.0.0.1:1" },
                             identifiers: ChargeIdentifiers(random: { (0, 0) }))
        await #expect(throws: ChargeIdentifiersTaken.self) {
            _ = try await api.createCharge(NewCharge(JSONDecoder().decode(ChargeBody.self, from: Data(Harness.chargeBody(reference: "order-1").utf8)), remoteIPN: false))
        }
        #expect(try await store.chargeCount() == held.count)
        let free = SandboxAPI(store: store, configuration: SandboxConfiguration(), baseURL: { "http://127.0.0.1:1" })
        let created = try await free.createCharge(NewCharge(JSONDecoder().decode(ChargeBody.self, from: Data(Harness.chargeBody(reference: "order-1").utf8)), remoteIPN: false))
        #expect(created.reference == "order-1")
    }
}
