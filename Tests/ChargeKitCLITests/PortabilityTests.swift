import Foundation
import Testing

/// watchOS (a declared platform) has a 32-bit `Int` on some devices, where an integer
/// literal above `Int32.max` does not compile unless it is typed 64-bit. No 32-bit
/// toolchain is on this machine, so the sources are checked for such literals.
@Suite struct PortabilityTests {
    @Test func noIntegerLiteralNeedsA64BitInt() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let sources = root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil))
        let literal = try Regex(#"(^|[^\w.])([0-9][0-9_]*)(?![\w.])"#)
        var offenders: [String] = []
        var checked = 0
        for case let file as URL in files where file.pathExtension == "swift" {
            checked += 1
            let text = try String(contentsOf: file, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let code = line.split(separator: "//", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
                guard !code.contains("\"") else { continue }
                for match in code.matches(of: literal) {
                    let digits = code[match.range].filter(\.isNumber)
                    guard digits.count >= 10, let value = UInt64(digits), value > UInt64(Int32.max) else { continue }
                    let typed = ["Int64", "UInt64", "Double", "Decimal", "TimeInterval", "UInt32"].contains { code.contains($0) }
                    if !typed { offenders.append("\(file.lastPathComponent):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))") }
                }
            }
        }
        #expect(checked > 20)
        #expect(offenders.isEmpty, "integer literals that need a 64-bit Int: \(offenders)")
    }
}
