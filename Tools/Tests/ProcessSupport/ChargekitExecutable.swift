import Foundation

/// Where the tests find the built `chargekit` executable: beside the test bundle
/// (`swift test` builds it there), else in this package's `.build/debug`. Shared by
/// every test target that runs `chargekit` as a real process.
public enum ChargekitExecutable {
    /// The executable's URL.
    public static var url: URL {
        let besideTests = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("chargekit")
        if FileManager.default.isExecutableFile(atPath: besideTests.path) { return besideTests }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/chargekit")
    }
}
