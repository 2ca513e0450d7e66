// swift-tools-version:6.0
import Foundation
import PackageDescription

// The SDK: what an app adds. It depends on no other package, so an app that depends on
// this repository resolves nothing else. The chargekit tool, the Citcon UPI sandbox
// server, the PostgreSQL stores and every test live in Tools/, a second package that
// depends on this one by path (see Sources/ChargeKit/ChargeKit.docc/Development.md).
let package = Package(
    name: "ChargeKit",
    platforms: [.iOS(.v15), .macOS(.v14), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "ChargeKit", targets: ["ChargeKit"]),
        .library(name: "CitconUPI", targets: ["CitconUPI"]),
        .library(name: "ChargeKitSimulators", targets: ["ChargeKitSimulators"]),
        // The behaviour suite every LedgerStore must pass, for anyone writing a store.
        .library(name: "ChargeKitTesting", targets: ["ChargeKitTesting"]),
        // The Objective-C face of ChargeKit and CitconUPI, for apps still in Objective-C
        // (empty where there is no Objective-C runtime; scripts/objc-typecheck.sh checks it on Linux).
        .library(name: "ChargeKitObjC", targets: ["ChargeKitObjC"]),
    ],
    // Each target apps link ships its privacy manifest (PrivacyInfo.xcprivacy), as Apple
    // asks of SDKs: no tracking, no data collected, the required-reason APIs it calls.
    targets: [
        // Foundation only. The C library through one file (ChargeKitPlatform), its
        // platforms' branches side by side (scripts/portability-check.sh).
        .target(name: "ChargeKitPlatform", resources: [.copy("PrivacyInfo.xcprivacy")]),
        .target(name: "ChargeKit", dependencies: ["ChargeKitPlatform"], resources: [.copy("PrivacyInfo.xcprivacy")]),
        .target(name: "CitconUPI", dependencies: ["ChargeKit"], resources: [.copy("PrivacyInfo.xcprivacy")]),
        // Simulators that play each payment app; used by tests, the CLI and apps' own tests.
        .target(name: "ChargeKitSimulators", dependencies: ["ChargeKit"], resources: [.copy("PrivacyInfo.xcprivacy")]),
        .target(name: "ChargeKitTesting", dependencies: ["ChargeKit", "ChargeKitSimulators"], resources: [.copy("PrivacyInfo.xcprivacy")]),
        .target(name: "ChargeKitObjC", dependencies: ["ChargeKit", "CitconUPI"], resources: [.copy("PrivacyInfo.xcprivacy")]),
        // Links only the SDK libraries; scripts/linkage-check.sh proves they bring nothing else with them.
        .executableTarget(name: "LinkageProbe", dependencies: ["ChargeKit", "CitconUPI"], path: "Tests/LinkageProbe"),
        // The SDK's own example-based tests: `swift test` here builds no server stack (the
        // property tests and what needs the tools are in Tools/Tests).
        .testTarget(name: "ChargeKitTests", dependencies: ["ChargeKit", "ChargeKitSimulators", "ChargeKitTesting", "ChargeKitPlatform"]),
        .testTarget(name: "CitconUPITests", dependencies: ["CitconUPI", "ChargeKit"]),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer harnesses, built only by scripts/fuzz.sh (CHARGEKIT_FUZZ=1, --sanitize fuzzer and address):
// every folder of Fuzz/ but the corpora is one, so an app's own harness (Fuzz/Fuzz<App>/)
// lives in its home and no list names it. Each may use any SDK product.
if Context.environment["CHARGEKIT_FUZZ"] == "1" {
    let fuzz = Context.packageDirectory + "/Fuzz"
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: fuzz)) ?? []).filter { $0.hasPrefix("Fuzz") }.sorted()
    for name in names {
        package.targets.append(.executableTarget(name: name, dependencies: ["ChargeKit", "ChargeKitSimulators", "CitconUPI"],
                                                 path: "Fuzz/\(name)"))
    }
}
