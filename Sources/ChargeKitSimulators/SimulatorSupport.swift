@_spi(Tools) import ChargeKit

/// Facts shared by the simulators: test cards and how they are shown.
public enum TestCard {
    /// `XXXXXXXXXXXX1111` for `4111111111111111`.
    public static func redacted(_ number: String) -> String {
        String(repeating: "X", count: max(0, number.count - 4)) + number.suffix(4)
    }

    /// `**** **** **** 1111` for `4111111111111111` (an obfuscated PAN in groups).
    public static func obfuscated(_ number: String) -> String {
        "**** **** **** " + number.suffix(4)
    }

    /// A fresh numeric transaction id of `digits` digits.
    static func randomID(digits: Int = 6) -> String {
        var generator = SystemRandomNumberGenerator()
        let low = Int(pow10(digits - 1)), high = Int(pow10(digits)) - 1
        return String(Int.random(in: low...high, using: &generator))
    }

    private static func pow10(_ exponent: Int) -> Int64 { (0..<exponent).reduce(1) { value, _ in value * 10 } }
}
