@_spi(Tools) @testable import ChargeKit
import ChargeKitSimulators
import Foundation
import Testing

/// No card number is kept or printed: a callback's card number is masked to the form
/// its app documents before the ledger reads or keeps it, for every registered app.
@Suite("Card numbers in callbacks")
struct CardNumberTests {
    static let unmasked = "4111111111111111"

    /// `url` with `field` set to `value` (added when the answer lacks it).
    static func setting(_ field: String, to value: String, in url: String) -> String {
        let pattern = "(?<=[?&])" + NSRegularExpression.escapedPattern(for: field) + "=[^&#]*"
        if let range = url.range(of: pattern, options: .regularExpression) {
            return url.replacingCharacters(in: range, with: field + "=" + value)
        }
        return url + (url.contains("?") ? "&" : "?") + field + "=" + value
    }

    @Test("An unmasked number fed through each registered app's card-number fields is kept and read masked, in the app's form")
    func everyAppMasksItsCardNumbers() async throws {
        var fed = 0
        // The number plain, and behind a combining mark (one Character with the `=` before
        // it, which a reader of Characters finds no `=` in; the URL reader reads bytes).
        // And under a name whose first letter is escaped (`%70an`), which the parsers decode.
        for (value, escapedName) in [(Self.unmasked, false), ("\u{301}" + Self.unmasked, false), (Self.unmasked, true)] {
            for simulator in SimulatedApps.registered {
                let definition = simulator.provider.definition
                for app in simulator.sampleApps(callbackURL: "masking-app://done") {
                    let ledger = ChargeLedger()
                    let order = ChargeOrder(amount: Money(minorUnits: 1000, currency: .eur), description: "Flat white", reference: "ord-1")
                    let (_, request) = try await ledger.issue { nonce throws(ChargeKitError) in try app.handoff(for: order, nonce: nonce) }
                    var apps = SimulatedApps()
                    let answer = try apps.respond(to: request.url, outcome: .approved, options: AnswerOptions())
                    var url = answer
                    for field in definition.cardNumberFields where answer.contains(field.name + "=") || field.name == definition.cardNumberFields.first?.name {
                        url = Self.setting(field.name, to: value, in: url)
                    }
                    guard url != answer else { continue }
                    if escapedName, let field = definition.cardNumberFields.first, let letter = field.name.unicodeScalars.first {
                        let escaped = "%" + String(letter.value, radix: 16, uppercase: true) + field.name.dropFirst()
                        url = url.replacingOccurrences(of: "&" + field.name + "=", with: "&" + escaped + "=")
                            .replacingOccurrences(of: "?" + field.name + "=", with: "?" + escaped + "=")
                        #expect(url.contains(escaped + "="), "\(simulator.provider): \(url)")
                    }
                    fed += 1
                    guard let result = try? await ledger.verify(url: url) else {
                        #expect(value != Self.unmasked, "\(simulator.provider): the plain number's answer was refused")
                        continue
                    }
                    let kept = try #require(await ledger.charge(for: result.charge.nonce)?.accepted)
                    #expect(!kept.url.contains(Self.unmasked) && !String(describing: kept.callback).contains(Self.unmasked),
                            "\(simulator.provider): the card number is kept: \(kept.url)")
                    let form = try #require(definition.cardNumberFields.first?.mask.masked(Self.unmasked))
                    #expect(kept.url.contains(form), "\(simulator.provider): \(kept.url)")
                    // Read without a ledger, as `chargekit parse` does: masked too.
                    let parsed = try PaymentCallback.parse(url, provider: simulator.provider)
                    #expect(!String(describing: parsed).contains(Self.unmasked))
                }
            }
        }
        // The apps that document a card-number field in their answer (each names it in
        // its definition); the others carry none.
        let declaring = RegisteredApps.all.filter { !$0.cardNumberFields.isEmpty }
        #expect(CardNumberMask.lastFour(padding: "X").masked("XXXXXXXXXXXX1111") == nil, "a masked value passes unchanged")
        #expect(CardNumberMask.lastFour(padding: "X").masked("4111 1111 1111 1111") == "XXXXXXXXXXXX1111")
        #expect(CardNumberMask.firstSixLastFour(padding: "*").masked("5356860000001364") == "535686******1364")
        #expect(CardNumberMask.firstSixLastFour(padding: "*").masked("535686******1364") == nil)
        #expect(declaring.count >= 2 && fed >= 3 * declaring.count, "fed \(fed) apps")
    }
}
