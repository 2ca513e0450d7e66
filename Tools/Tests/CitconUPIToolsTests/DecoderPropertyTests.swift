import Foundation
import PropertyBased
import Testing
@_spi(Tools) @testable import CitconUPI

@Suite("UPI decoder properties")
struct DecoderPropertyTests {
    /// Mutations of the seed's JSON: a byte replaced, inserted or removed.
    static let mutations = Gen<Int>.value(in: 0...1_000_000).array(of: 1...6)

    @Test("mutated seed JSON never crashes a decoder; what decodes re-encodes and decodes the same")
    func mutatedJSON() async {
        let seeds = [SeedJSON.synchronous, SeedJSON.asynchronousComplete].map { Array($0.utf8) }
        let alphabet = Array(#"{}[]":,0123456789-.eE truefalsnul\"#.utf8) + [0, 0xFF, 0xC3]
        await propertyCheck(count: 1500, input: Self.mutations, Gen<Int>.value(in: 0...1)) { edits, which in
            var bytes = seeds[which]
            for edit in edits {
                let index = edit % bytes.count
                let byte = alphabet[(edit / 7) % alphabet.count]
                switch edit % 3 {
                case 0: bytes[index] = byte
                case 1: bytes.insert(byte, at: index)
                default: if bytes.count > 1 { bytes.remove(at: index) }
                }
            }
            let data = Data(bytes)
            if let check = try? JSONDecoder().decode(CPayCheck.self, from: data) {
                let again = try? JSONDecoder().decode(CPayCheck.self, from: UPIWire.encoder().encode(check))
                #expect(again == check)
            }
            if let result = try? JSONDecoder().decode(CPayResult.self, from: data) {
                let again = try? JSONDecoder().decode(CPayResult.self, from: JSONEncoder().encode(result))
                #expect(again?.data?.id == result.data?.id && again?.data?.status == result.data?.status)
            }
            let _: UPIWire.Failure? = try? UPIClient.decode(data, status: 200)
        }
    }

    @Test("random bytes never crash the envelope reader")
    func randomBytes() async {
        await propertyCheck(count: 1000, input: Gen<UInt8>.value(in: 0...255).array(of: 0...200), Gen<Int>.value(in: 100...599)) { bytes, status in
            do throws(CPayError) {
                let _: CPayCheckData = try UPIClient.decode(Data(bytes), status: status)
            } catch {
                #expect(!error.description.isEmpty)
            }
        }
    }
}
