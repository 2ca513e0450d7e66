@_spi(Tools) @testable import ChargeKit
import Foundation
import Testing

@Suite struct MoneyTests {
    let jpy = try! Currency(code: "JPY")
    let bhd = try! Currency(code: "BHD")

    @Test func currencyExponents() throws {
        #expect(jpy.minorUnits == 0)
        #expect(Currency.usd.minorUnits == 2)
        #expect(bhd.minorUnits == 3)
        #expect(try Currency(code: "CLF").minorUnits == 4)
    }

    @Test func currencyCodeRules() {
        #expect(throws: ChargeKitError.invalidField("currency", rule: "must be three upper-case letters (ISO 4217)")) { try Currency(code: "usd") }
        #expect(throws: ChargeKitError.invalidField("currency", rule: "must be three upper-case letters (ISO 4217)")) { try Currency(code: "US") }
        #expect(throws: ChargeKitError.unknownCurrency("XYZ")) { try Currency(code: "XYZ") }
    }

    @Test(arguments: [("10.99", 1099), ("1.00", 100), ("0.90", 90), ("10", 1000), ("0", 0), ("10.5", 1050)])
    func parsesPlainDecimals(text: String, cents: Int64) throws {
        #expect(try Money(parsing: text, currency: .usd).minorUnits == cents)
    }

    @Test(arguments: ["", "1e5", "1,000.00", "-1.00", "+1", "01.00", ".5", "10.", "10.999", " 1.00", "1.00 ", "١٢", "1.0.0", "0x10", "NaN"])
    func refusesNonPlainDecimals(text: String) {
        #expect(throws: ChargeKitError.self) { try Money(parsing: text, currency: .usd, field: "amount") }
    }

    @Test func errorsNameTheField() {
        #expect(throws: ChargeKitError.invalidField("price", rule: "has more than 0 decimal places for JPY")) {
            try Money(parsing: "100.5", currency: jpy, field: "price")
        }
    }

    @Test func formatsWithExactlyTheCurrencyDigits() throws {
        #expect(Money(minorUnits: 1099, currency: .usd).formatted == "10.99")
        #expect(Money(minorUnits: 5, currency: .usd).formatted == "0.05")
        #expect(Money(minorUnits: 1000, currency: jpy).formatted == "1000")
        #expect(Money(minorUnits: 1500, currency: bhd).formatted == "1.500")
        #expect(Money(minorUnits: -250, currency: .usd).formatted == "-2.50")
        #expect(Money(minorUnits: 0, currency: .usd).formatted == "0.00")
        #expect(Money(minorUnits: 0, currency: jpy).formatted == "0")
        #expect(Money(minorUnits: .min, currency: .usd).formatted == "-92233720368547758.08")
        #expect(Money(minorUnits: .max, currency: try Currency(code: "CLF")).formatted == "922337203685477.5807")
        #expect(try Money(parsing: "1.5", currency: bhd).formatted == "1.500")
    }

    @Test func decimalRoundTrip() throws {
        let money = try Money(parsing: "12345.67", currency: .usd)
        #expect(money.amount == Decimal(string: "12345.67"))
        #expect(try Money(exactly: money.amount, currency: .usd) == money)
        #expect(throws: ChargeKitError.self) { try Money(exactly: Decimal(string: "1.234")!, currency: .usd) }
    }

    @Test func statedRounding() throws {
        let value = Decimal(string: "2.345")!
        #expect(try Money(rounding: value, currency: .usd, rule: .halfUp).formatted == "2.35")
        #expect(try Money(rounding: value, currency: .usd, rule: .halfEven).formatted == "2.34")
        #expect(try Money(rounding: Decimal(string: "2.355")!, currency: .usd, rule: .halfEven).formatted == "2.36")
        #expect(try Money(rounding: value, currency: .usd, rule: .down).formatted == "2.34")
        #expect(try Money(rounding: Decimal(string: "2.341")!, currency: .usd, rule: .up).formatted == "2.35")
        #expect(try Money(rounding: Decimal(string: "-2.345")!, currency: .usd, rule: .halfUp).formatted == "-2.35")
        #expect(try Money(rounding: Decimal(string: "0.5")!, currency: jpy).formatted == "1")
    }

    @Test func salesTaxRoundsHalfUpToTheCent() throws {
        let fifty = try Money(parsing: "50.00", currency: .usd)
        #expect(try fifty.percentage(Decimal(string: "8.5")!).formatted == "4.25")
        #expect(try Money(parsing: "10.99", currency: .usd).percentage(Decimal(string: "8.5")!).formatted == "0.93")
        #expect(try Money(parsing: "1.00", currency: .usd).percentage(Decimal(string: "8.5")!).formatted == "0.09")
        #expect(try Money(parsing: "10.00", currency: .usd).percentage(Decimal(string: "8.125")!).formatted == "0.81")
    }

    @Test func tooManyDigitsIsRefused() {
        #expect(throws: ChargeKitError.invalidField("amount", rule: "has more than 18 digits")) {
            try Money(parsing: "12345678901234567.00", currency: .usd)
        }
    }

    @Test func arithmeticRefusesMixedCurrencies() throws {
        let usd = Money(minorUnits: 100, currency: .usd)
        #expect(usd.adding(Money(minorUnits: 1, currency: .eur)) == nil)
        #expect(usd.subtracting(Money(minorUnits: 1, currency: .usd))?.minorUnits == 99)
    }

    @Test func codableAsStrings() throws {
        let money = Money(minorUnits: 1099, currency: .usd)
        let data = try JSONEncoder().encode(money)
        #expect(String(decoding: data, as: UTF8.self).contains("\"10.99\""))
        #expect(try JSONDecoder().decode(Money.self, from: data) == money)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(Money.self, from: Data(#"{"amount":"1e3","currency":"USD"}"#.utf8)) }
    }
}
