@_spi(Tools) @testable import ChargeKit
import ChargeKitSimulators
import Foundation
import PropertyBased
import Testing

@Suite("Square properties")
struct SquarePropertyTests {
    @Test("random valid Square requests: request → Point of Sale simulator → callback → ledger gives back what was asked")
    func squareRoundTrip() async throws {
        let currencies = ["USD", "JPY", "KWD", "EUR", "GBP", "CAD", "AUD"]
        let input = Gen<Int64>.value(in: 1...99_999)
        await propertyCheck(count: 60, input: input, Gen<Int>.value(in: 0...6), Gens.text, Gens.printable) { units, index, state, notes in
            let currency = try! Currency(code: currencies[index])
            var minor = units
            for _ in 0..<currency.minorUnits { minor *= 10 }
            let amount = Money(minorUnits: minor, currency: currency)
            let ledger = ChargeLedger()
            let device = SimulatedDevice(apps: SimulatedApps(SquareSimulator(sellerCurrency: currency.code))) { _ in }
            let app = PaymentApp.square(clientID: "sq0idp-APP", callbackURL: "my-shop://paid")
            let clean = String(state.unicodeScalars.filter { $0.properties.generalCategory != .control }.prefix(40))
            let order = ChargeOrder(amount: amount, description: notes, reference: clean.isEmpty ? nil : clean)
            do {
                let (_, request) = try await ledger.issue { nonce throws(ChargeKitError) in try app.handoff(for: order, nonce: nonce) }
                let callback = try await device.callback(for: request.url)
                let result = try await ledger.verify(url: callback)
                #expect(result.outcome == .approved && result.provider == .square, "\(currency) \(amount)")
                #expect(result.charge.request.amount == amount)
                #expect(result.callback.square?.state == order.reference, "state comes back unchanged")
                #expect(result.callback.reference == order.reference)
            } catch {
                Issue.record("\(error) for \(order)")
            }
        }
    }

    @Test("the data JSON reader agrees with JSONSerialization on the members it reads")
    func squareJSONAgreesWithFoundation() async throws {
        let fixed = [
            #"{"status":"ok","transaction_id":"T-1","client_transaction_id":"C\u00e9\ud83d\ude00","state":"a\"b\\c\/d\n"}"#,
            #" { "status" : "error" , "error_code" : "payment_canceled", "extra": [1, -2.5e3, {"x": [true, false, null]}] } "#,
            #"{"status":"ok","n":0,"m":-0.0,"e":1E+2,"s":"\u0000"}"#, #"{}"#, #"[]"#, #""ok""#, #"{"status":"ok""#, #"{"a":01}"#,
            #"{"a":1.}"#, #"{"a":.5}"#, #"{"a":"\x"}"#, #"{"a":tru}"#, #"{"a":1}}"#, #"{"a" 1}"#, #"{"a":"é"}"#,
        ]
        let generated = Gen<Character?>.element(of: Array(#"{}[]":,0123456789.-+eEtrufalsn\ "abcé"#)).compactMap { $0 }.string(of: 0...40)
        func check(_ text: String) {
            let ours = SquareJSON.members(of: text)
            let foundation = (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any]
            #expect((ours != nil) == (foundation != nil), "\(text)")
            guard let ours, let foundation else { return }
            for (name, string) in ours {
                if let string { #expect(foundation[name] as? String == string, "\(text): \(name)") }
                else { #expect(!(foundation[name] is String), "\(text): \(name)") }
            }
        }
        for text in fixed { check(text) }
        await propertyCheck(count: 2000, input: generated) { text in check(text) }
    }
}
