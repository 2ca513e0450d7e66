// swift-tools-version:6.1
import Foundation
import PackageDescription

// The SDK is a path dependency; its identity is its folder's name, whatever the clone
// is called.
let sdk = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent().lastPathComponent.lowercased()

// The tools around the SDK: the chargekit command, the local Citcon UPI sandbox server,
// the PostgreSQL stores, and the tests that need any of them or a package the SDK must
// not bring to apps (swift-property-based, Hummingbird, …). It depends on the SDK (the
// package one folder up) by path. An app never depends on this package.
//
// The PostgreSQL stores, their driver (PostgresNIO, and swift-crypto's BoringSSL behind
// it) and their tests are built with the trait `PostgreSQL` only:
// `swift build --package-path Tools --traits PostgreSQL`. The default build (the README's
// commands) compiles neither; the image and CI's PostgreSQL tests enable it.
let postgreSQL: Set<String> = ["PostgreSQL"]
let package = Package(
    name: "ChargeKitTools",
    platforms: [.macOS(.v14)],
    products: [
        // The sandbox server and its storage, for tools and tests that run it in-process.
        .library(name: "CitconSandbox", targets: ["CitconSandbox"]),
        // A LedgerStore on PostgreSQL, for web checkouts served by several instances.
        .library(name: "ChargeKitPostgres", targets: ["ChargeKitPostgres"]),
        // The sandbox's storage on PostgreSQL (a shared sandbox for a team's CI and testers).
        .library(name: "CitconSandboxPostgres", targets: ["CitconSandboxPostgres"]),
        // Test helpers for the sandbox (a headless wallet, an IPN receiver), as Hummingbird ships HummingbirdTesting.
        .library(name: "CitconSandboxTesting", targets: ["CitconSandboxTesting"]),
        .executable(name: "chargekit", targets: ["chargekit"]),
        .executable(name: "chargekit-server", targets: ["chargekit-server"]),
    ],
    traits: [
        .trait(name: "PostgreSQL", description: "The PostgreSQL ledger and sandbox stores (PostgresNIO), in chargekit-server and the tests."),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(path: ".."),
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
        // The tools' one HTTP client (ToolsHTTP): no redirect followed, bounded, deadlines, idle streams asleep.
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        // The sandbox's API generated from Tools/openapi/sandbox.yaml (scripts/openapi-generate.sh;
        // the generated code is committed, so no build needs the generator) and served by Hummingbird.
        .package(url: "https://github.com/apple/swift-openapi-runtime", from: "1.13.4"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird", from: "2.1.0"),
        // `swift package generate-documentation` (scripts/docs.sh); a plugin, linked by nothing.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        // The sandbox's own scenarios (the ChargeKit-Scenario header), for the sandbox and `chargekit scenarios`.
        .target(name: "SandboxScenarios"),
        // The one HTTP client of every command (and of the sandbox's testing helpers), on AsyncHTTPClient.
        .target(name: "ToolsHTTP", dependencies: [
            .product(name: "AsyncHTTPClient", package: "async-http-client"),
            .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOHTTP1", package: "swift-nio"),
        ]),
        .target(name: "ChargeKitPostgres", dependencies: [
            .product(name: "ChargeKit", package: sdk),
            .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: postgreSQL)),
            .product(name: "Logging", package: "swift-log"),
        ]),
        // The local Citcon UPI sandbox server (Hummingbird + SQLite).
        .target(
            name: "CitconSandbox",
            dependencies: [
                .product(name: "ChargeKit", package: sdk),
                .product(name: "ChargeKitSimulators", package: sdk),
                .product(name: "CitconUPI", package: sdk),
                "SandboxScenarios",
                "ToolsPlatform",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
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
            dependencies: [.product(name: "ChargeKit", package: sdk), "ChargeKitPostgres",
                           .product(name: "CitconUPI", package: sdk), "CitconSandbox",
                           .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: postgreSQL))]
        ),
        .target(
            name: "CitconSandboxTesting",
            dependencies: [
                .product(name: "ChargeKit", package: sdk),
                .product(name: "ChargeKitTesting", package: sdk),
                .product(name: "CitconUPI", package: sdk),
                "CitconSandbox",
                "ToolsHTTP",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // The commands both executables share: ChargeKit, its simulators and the argument parser only.
        .target(name: "ChargeKitCommands", dependencies: [
            .product(name: "ChargeKit", package: sdk), .product(name: "ChargeKitSimulators", package: sdk),
            .product(name: "CitconUPI", package: sdk), .product(name: "ArgumentParser", package: "swift-argument-parser"),
            "SandboxScenarios",
        ]),
        // `chargekit`: what the README's demo builds (no NIO, Hummingbird or database driver).
        .executableTarget(name: "chargekit", dependencies: [
            "ChargeKitCommands", "ToolsPlatform", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        ]),
        // The C library through one file, its platforms' branches side by side (scripts/portability-check.sh).
        .target(name: "ToolsPlatform"),
        // `chargekit-server`: the sandbox, `upi`, the Citcon demo and PostgreSQL ledgers.
        .executableTarget(
            name: "chargekit-server",
            dependencies: [
                "ChargeKitCommands",
                .product(name: "ChargeKit", package: sdk),
                .product(name: "ChargeKitSimulators", package: sdk),
                .product(name: "CitconUPI", package: sdk),
                "CitconSandbox",
                "CitconSandboxTesting",
                "ChargeKitPostgres",
                "CitconSandboxPostgres",
                "ToolsHTTP",
                "SandboxScenarios",
                "ToolsPlatform",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // A process holding a file ledger as an app does: the multi-process ledger tests and scripts/ledger-syscalls.sh.
        .executableTarget(name: "LedgerProbe", dependencies: [
            .product(name: "ChargeKit", package: sdk), .product(name: "ChargeKitSimulators", package: sdk), "ToolsPlatform",
        ]),
        // The SDK's tests that need the tools' packages: property tests (swift-property-based
        // must not reach apps) and what the parse report shows; the SDK's own example-based
        // tests are in the SDK's package (Tests/ChargeKitTests, run by `swift test` there).
        .testTarget(
            name: "ChargeKitToolsTests",
            dependencies: ["ChargeKitCommands", .product(name: "ChargeKit", package: sdk), .product(name: "ChargeKitSimulators", package: sdk),
                           .product(name: "ChargeKitTesting", package: sdk),
                           .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        // The PostgreSQL store against a real server (CHARGEKIT_POSTGRES_URL; skipped without it).
        .testTarget(name: "ChargeKitPostgresTests", dependencies: [
            "ChargeKitPostgres", .product(name: "ChargeKitTesting", package: sdk), .product(name: "ChargeKit", package: sdk),
        ]),
        // Drives the built `chargekit` executable as real processes (no library of the package linked).
        .testTarget(name: "ChargeKitCLITests", dependencies: ["ProcessSupport", "ToolsPlatform"]),
        // Every ```swift sample of the DocC articles and the README (scripts/doc-samples.py).
        .testTarget(
            name: "DocumentationSamples",
            dependencies: [.product(name: "ChargeKit", package: sdk), .product(name: "CitconUPI", package: sdk),
                           .product(name: "ChargeKitSimulators", package: sdk), .product(name: "ChargeKitTesting", package: sdk),
                           "ChargeKitPostgres"]
        ),
        // Test support shared by the test targets that run `chargekit` as a process.
        .target(name: "ProcessSupport", dependencies: ["ToolsPlatform"], path: "Tests/ProcessSupport"),
        // CitconUPI's property and IPN-signature tests (the rest are in the SDK's package).
        .testTarget(
            name: "CitconUPIToolsTests",
            dependencies: [.product(name: "CitconUPI", package: sdk), "ProcessSupport", "CitconSandbox",
                           .product(name: "PropertyBased", package: "swift-property-based")]
        ),
        .testTarget(
            name: "CitconSandboxTests",
            dependencies: [
                "ProcessSupport",
                "ToolsPlatform",
                .product(name: "ChargeKit", package: sdk),
                .product(name: "ChargeKitSimulators", package: sdk),
                .product(name: "CitconUPI", package: sdk),
                "CitconSandbox",
                "CitconSandboxTesting",
                "CitconSandboxPostgres",
                "ChargeKitPostgres",
                "ToolsHTTP",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "PropertyBased", package: "swift-property-based"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
