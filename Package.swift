// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ChargeKit",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "ChargeKit", targets: ["ChargeKit"]),
        .library(name: "ChargeKitSimulators", targets: ["ChargeKitSimulators"]),
        .executable(name: "chargekit", targets: ["chargekit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    ],
    targets: [
        // Platform-neutral core: Foundation only.
        .target(name: "ChargeKit"),
        // Simulators that play each payment app; used by tests, the CLI and apps' own tests.
        .target(name: "ChargeKitSimulators", dependencies: ["ChargeKit"]),
        .executableTarget(
            name: "chargekit",
            dependencies: [
                "ChargeKit",
                "ChargeKitSimulators",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(name: "ChargeKitTests", dependencies: ["ChargeKit", "ChargeKitSimulators"]),
    ],
    swiftLanguageModes: [.v6]
)
