@_spi(Tools) @testable import ChargeKit
import ChargeKitSimulators
import Foundation
import PropertyBased
import Testing

/// Generators for the properties below.
enum Gens {
    /// Any Unicode scalar except surrogates, weighted towards the characters that
    /// matter to a query codec.
    static let scalar = Gen<Character>.frequency(
        (3, Gen<UInt32>.value(in: 0...0x10FFFF).compactMap { UnicodeScalar($0).map(Character.init) }),
        (2, Gen<Character?>.element(of: Array("%&=?#+ /;:@!$'()*,[]~._-\u{0}\u{7F}é€😀\u{301}")).compactMap { $0 }),
        (2, Gen<UInt8>.value(in: 0x20...0x7E).map { Character(UnicodeScalar($0)) })
    )
    /// Any Unicode string of up to 40 characters.
    static let text = scalar.string(of: 0...40)
    /// Text a request field accepts: printable ASCII.
    static let printable = Gen<UInt8>.value(in: 0x20...0x7E).map { Character(UnicodeScalar($0)) }.string(of: 1...30)
    /// A query parameter name an app would use.
    static let name = Gen<Character>.frequency(
        (4, Gen.letterOrNumber.compactMap { $0 }), (1, Gen<Character?>.element(of: Array("_-.")).compactMap { $0 })
    ).string(of: 1...12)
}

@Suite("Properties")
struct PropertyTests {
    @Test("the query codec round-trips any Unicode string, as a name and as a value")
    func queryCodecRoundTrip() async {
        await propertyCheck(count: 500, input: Gens.text, Gens.text) { name, value in
            let encodedName = PercentEncoding.encode(name)
            #expect(encodedName.utf8.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: "&") && $0 != UInt8(ascii: "=") })
            #expect((try? PercentEncoding.decode(encodedName, field: "n")) == name)
            guard !name.isEmpty else { return }
            let url = QueryURL.appending([QueryItem(name, value), QueryItem("next", "1")], to: "app://x/path")
            let parsed = try? QueryURL(parsing: url)
            #expect(parsed?.items == [QueryItem(name, value), QueryItem("next", "1")], "\(url)")
        }
    }

    @Test("Money parse and format round-trip for every currency exponent", arguments: ["JPY", "USD", "BHD", "CLF"])
    func moneyRoundTrip(code: String) async throws {
        let currency = try Currency(code: code)
        await propertyCheck(count: 300, input: Gen<Int64>.value(in: 0...999_999_999_999_999)) { minor in
            let money = Money(minorUnits: minor, currency: currency)
            let text = money.formatted
            #expect((try? Money(parsing: text, currency: currency)) == money, "\(text)")
            let decimals = text.split(separator: ".", omittingEmptySubsequences: false).dropFirst().first?.count ?? 0
            #expect(decimals == currency.minorUnits)
            #expect((try? Money(exactly: money.amount, currency: currency)) == money)
        }
    }

    @Test("rounding to minor units: half-up and half-even agree off the midpoint and differ by at most one unit")
    func rounding() async throws {
        await propertyCheck(count: 300, input: Gen<Int64>.value(in: 0...9_999_999_999), Gen<Int>.value(in: 0...9)) { thousandths, last in
            let text = "\(thousandths / 1000).\(String(format: "%03d", Int(thousandths % 1000)))\(last)"
            guard let amount = Decimal(string: text) else { return }
            let up = try? Money(rounding: amount, currency: .usd, rule: .halfUp)
            let even = try? Money(rounding: amount, currency: .usd, rule: .halfEven)
            let down = try? Money(rounding: amount, currency: .usd, rule: .down)
            guard let up, let even, let down else { Issue.record("\(text) did not round"); return }
            #expect(abs(up.minorUnits - even.minorUnits) <= 1)
            #expect(up.minorUnits >= down.minorUnits && up.minorUnits - down.minorUnits <= 1)
            #expect(down.minorUnits == thousandths / 10, "truncation of \(text)")
        }
    }

    @Test("random valid requests of every provider: request → simulator → callback → parser gives back what was asked")
    func providersRoundTrip() async throws {
        let input = Gen<Int64>.value(in: 1...9_999_999)
        #expect(appsKeepingExtras.count >= 2)
        for played in appsKeepingExtras {
            let app = played.app
            await propertyCheck(count: 40, input: input, Gens.name, Gens.text, Gens.printable) { minor, extraName, extraValue, reference in
                let (coordinator, _, _) = await makeStack()
                let amount = Money(minorUnits: minor, currency: played.currency)
                let extras = [QueryItem("x" + extraName, extraValue)]
                let ref = String(reference.filter { $0.isLetter || $0.isNumber }.prefix(20))
                let order = ChargeOrder(amount: amount, description: "Item", reference: ref.isEmpty ? "R1" : ref, extras: extras)
                do {
                    let result = try await coordinator.charge(order, via: app)
                    #expect(result.outcome == .approved, "\(app.provider)")
                    #expect(result.callback.extraItems == extras, "\(app.provider) extras")
                    #expect(result.charge.request.amount == amount, "\(app.provider) amount")
                    if let paid = result.callback.amount { #expect(paid >= amount, "\(app.provider) paid amount") }
                    #expect(result.flags.isEmpty, "\(app.provider) flags \(result.flags)")
                } catch {
                    Issue.record("\(app.provider): \(error) for \(order)")
                }
            }
        }
    }

    @Test("no random byte string crashes a parser or passes a ledger that issued nothing")
    func randomBytes() async {
        let ledger = ChargeLedger()
        let bytes = Gen<UInt8>.value(in: 0...255).array(of: 0...300)
        await propertyCheck(count: 1000, input: bytes, Gen<Int>.value(in: 0...4)) { bytes, prefix in
            let tail = String(decoding: bytes, as: UTF8.self)
            let url = ["", "app://x?", "com-your-app://action/?ifcc_responseType=approved&", "app://x?smp-status=success&",
                       "app://x?reference=R&"][prefix] + tail
            for provider in PaymentProvider.allCases { _ = try? PaymentCallback.parse(url, provider: provider) }
            _ = try? PaymentCallback.parse(url)
            await #expect(throws: ChargeKitError.self) { try await ledger.verify(url: url) }
        }
    }

    @Test("the scanner splits any URL as a byte-at-a-time reading does, at every length around its sixteen-byte steps")
    func scannerAgreesWithReference() async {
        let alphabet = Array("aZ09-+.:?#&=%%2F41 \u{7F}\u{1}é/")
        let text = Gen<Character?>.element(of: alphabet).compactMap { $0 }.string(of: 0...50)
        let prefixes = ["", "a:", "app://x", "app://x?", "1a:", "com-your-app://action/?"]
        await propertyCheck(count: 3000, input: Gen<Int>.value(in: 0...5), text) { prefix, tail in
            let url = prefixes[prefix] + tail
            let scanned = Result { () throws(ChargeKitError) in try QueryURL(parsing: url) }
            switch (scanned, Self.referenceSplit(url)) {
            case (.success(let got), .success(let want)):
                #expect(got == want, "\(url.debugDescription)")
            case (.failure(let got), .failure(let want)):
                // Control characters and the scheme are judged on the whole URL before any escape.
                if case .invalidURL = want { #expect(got == want, "\(url.debugDescription)") }
            case (let got, let want):
                Issue.record("\(url.debugDescription): scanner \(got), reference \(want)")
            }
        }
    }

    /// The rules of ``QueryURL/init(parsing:maximumLength:)`` read one byte at a time.
    static func referenceSplit(_ url: String) -> Result<QueryURL, ChargeKitError> {
        let bytes = Array(url.utf8)
        if bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F }) {
            return .failure(.invalidURL("url", rule: "contains a space or control character"))
        }
        let baseEnd = bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.count
        let colon = bytes[..<baseEnd].firstIndex(of: UInt8(ascii: ":")) ?? 0
        let scheme = bytes[..<colon]
        let isScheme = scheme.first.map { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A } ?? false
            && scheme.allSatisfy { $0 < 0x80 && (Character(UnicodeScalar($0)).isLetter || Character(UnicodeScalar($0)).isNumber
                                                 || "+-.".utf8.contains($0)) }
        guard isScheme else { return .failure(.invalidURL("url", rule: "must start with a scheme such as 'my-app:'")) }
        var queryEnd = baseEnd, fragment: String?
        if let hash = bytes[baseEnd...].firstIndex(of: UInt8(ascii: "#")) {
            queryEnd = hash
            fragment = String(decoding: bytes[(hash + 1)...], as: UTF8.self)
        } else {
            queryEnd = bytes.count
        }
        var items: [QueryItem] = []
        if baseEnd < bytes.count && bytes[baseEnd] == UInt8(ascii: "?") {
            for pair in bytes[(baseEnd + 1)..<queryEnd].split(separator: UInt8(ascii: "&")) {
                let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.endIndex
                let value = equals < pair.endIndex ? pair[(equals + 1)...] : []
                do throws(ChargeKitError) {
                    let name = try PercentEncoding.decode(String(decoding: pair[..<equals], as: UTF8.self), field: "name")
                    items.append(QueryItem(name, try PercentEncoding.decode(String(decoding: value, as: UTF8.self), field: name)))
                } catch {
                    return .failure(error)
                }
            }
        }
        return .success(QueryURL(base: String(decoding: bytes[..<baseEnd], as: UTF8.self), items: items, fragment: fragment))
    }
}
