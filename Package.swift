// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ChargeKit",
    platforms: [.iOS(.v15), .macOS(.v14), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "ChargeKit", targets: ["ChargeKit"]),
        .library(name: "CitconUPI", targets: ["CitconUPI"]),
        .library(name: "ChargeKitSimulators", targets: ["ChargeKitSimulators"]),
        // The behaviour suite every LedgerStore must pass, for anyone writing a store.
        .library(name: "ChargeKitTesting", targets: ["ChargeKitTesting"]),
        .library(name: "CitconSandbox", targets: ["CitconSandbox"]),
        // A LedgerStore on PostgreSQL, for web checkouts served by several instances. Its own
        // product: an app that links ChargeKit links no database driver.
        .library(name: "ChargeKitPostgres", targets: ["ChargeKitPostgres"]),
        // The sandbox's storage on PostgreSQL (a shared sandbox for a team's CI and testers).
        .library(name: "CitconSandboxPostgres", targets: ["CitconSandboxPostgres"]),
        // Test helpers for the sandbox (a headless wallet, an IPN receiver), as Hummingbird ships HummingbirdTesting.
        .library(name: "CitconSandboxTesting", targets: ["CitconSandboxTesting"]),
        .executable(name: "chargekit", targets: ["chargekit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/vapor/sqlite-nio", from: "1.13.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // `swift package generate-documentation` (scripts/docs.sh); a plugin, linked by nothing.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // SDK libraries: Foundation only (an iOS app that links them links nothing else).
        .target(name: "ChargeKit"),
        .target(name: "CitconUPI", dependencies: ["ChargeKit"]),
        // Simulators that play each payment app; used by tests, the CLI and apps' own tests.
        .target(name: "ChargeKitSimulators", dependencies: ["ChargeKit"]),
        .target(name: "ChargeKitTesting", dependencies: ["ChargeKit", "ChargeKitSimulators"]),
        .target(name: "ChargeKitPostgres", dependencies: [
            "ChargeKit", .product(name: "PostgresNIO", package: "postgres-nio"), .product(name: "Logging", package: "swift-log"),
        ]),
        // The local Citcon UPI sandbox server (Hummingbird + SQLite). Never linked by the SDKs.
        .target(
            name: "CitconSandbox",
            dependencies: [
                "ChargeKit",
                "CitconUPI",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "SQLiteNIO", package: "sqlite-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "CitconSandboxPostgres",
            dependencies: ["ChargeKit", "ChargeKitPostgres", "CitconUPI", "CitconSandbox",
                           .product(name: "PostgresNIO", package: "postgres-nio")]
        ),
        .target(
            name: "CitconSandboxTesting",
            dependencies: [
                "ChargeKit",
                "ChargeKitTesting",
                "CitconUPI",
                "CitconSandbox",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "chargekit",
            dependencies: [
                "ChargeKit",
                "ChargeKitSimulators",
                "CitconUPI",
                "CitconSandbox",
                "CitconSandboxTesting",
                "ChargeKitPostgres",
                "CitconSandboxPostgres",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "ChargeKitTests",
            dependencies: ["ChargeKit", "ChargeKitSimulators", "ChargeKitTesting",
                           .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        // Links only the SDK libraries; scripts/linkage-check.sh proves they bring no NIO,
        // Hummingbird or database with them.
        .executableTarget(name: "LinkageProbe", dependencies: ["ChargeKit", "CitconUPI"], path: "Tests/LinkageProbe"),
        // Instructions per create body decoded, for scripts/instructions.sh (package access, so not in Benchmarks/).
        .executableTarget(name: "SandboxDecodeProbe", dependencies: ["CitconUPI"], path: "Tests/SandboxDecodeProbe"),
        // The PostgreSQL store against a real server (CHARGEKIT_POSTGRES_URL; skipped without it).
        .testTarget(name: "ChargeKitPostgresTests", dependencies: ["ChargeKitPostgres", "ChargeKitTesting", "ChargeKit"]),
        // Drives the built `chargekit` executable as real processes (no library of the package linked).
        .testTarget(name: "ChargeKitCLITests", dependencies: ["ProcessSupport"]),
        // Every ```swift sample of the DocC articles and the README (scripts/doc-samples.py).
        .testTarget(
            name: "DocumentationSamples",
            dependencies: ["ChargeKit", "CitconUPI", "ChargeKitSimulators", "ChargeKitTesting", "ChargeKitPostgres"]
        ),
        // Test support shared by the test targets that run `chargekit` as a process.
        .target(name: "ProcessSupport", path: "Tests/ProcessSupport"),
        .testTarget(
            name: "CitconUPITests",
            dependencies: ["CitconUPI", "ProcessSupport", .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "CitconSandboxTests",
            dependencies: [
                "ProcessSupport",
                "CitconUPI",
                "CitconSandbox",
                "CitconSandboxTesting",
                "CitconSandboxPostgres",
                "ChargeKitPostgres",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// libFuzzer harnesses, built only by scripts/fuzz.sh (CHARGEKIT_FUZZ=1, --sanitize fuzzer and address).
if Context.environment["CHARGEKIT_FUZZ"] == "1" {
    let harnesses: [(String, [Target.Dependency])] = [
        ("FuzzCreditCardTerminal", ["ChargeKit"]),
        ("FuzzSumUp", ["ChargeKit"]),
        ("FuzzZettle", ["ChargeKit"]),
        ("FuzzCLIURL", ["ChargeKit", "ChargeKitSimulators"]),
        ("FuzzUPIJSON", ["CitconUPI"]),
    ]
    for (name, dependencies) in harnesses {
        package.targets.append(.executableTarget(name: name, dependencies: dependencies, path: "Fuzz/\(name)"))
    }
}
