// swift-tools-version:6.1
// Benchmarks, run on demand (not in CI):  cd Benchmarks && swift package benchmark
import Foundation
import PackageDescription

// The parent package is a path dependency; its identity is its folder's name,
// whatever the clone is called.
let parent = URL(fileURLWithPath: Context.packageDirectory).deletingLastPathComponent()
let parentIdentity = parent.lastPathComponent.lowercased()

let package = Package(
    name: "ChargeKitBenchmarks",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(path: ".."),
        // The tools, for LedgerBenchmark's PostgreSQL ledger.
        .package(path: "../Tools", traits: ["PostgreSQL"]),
        .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    ],
    targets: [
        .target(
            name: "HandoffOperations",
            dependencies: [.product(name: "ChargeKit", package: parentIdentity),
                           .product(name: "ChargeKitSimulators", package: parentIdentity)]
        ),
        .executableTarget(name: "InstructionCounts", dependencies: ["HandoffOperations"]),
        // The system's SQLite (part of Apple's platforms; Debian's libsqlite3-dev), the
        // ledger benchmark's baseline.
        .systemLibrary(name: "CSQLite3", providers: [.apt(["libsqlite3-dev"])]),
        // Issue + verify on the file ledger beside SQLite doing the same work, in one run
        // (swift run -c release --package-path Benchmarks LedgerBenchmark).
        .executableTarget(name: "LedgerBenchmark", dependencies: [
            "CSQLite3", .product(name: "ChargeKit", package: parentIdentity),
            .product(name: "ChargeKitSimulators", package: parentIdentity),
            // The PostgreSQL store's figure, where CHARGEKIT_POSTGRES_URL names a server.
            .product(name: "ChargeKitPostgres", package: "tools"),
        ]),
        .executableTarget(
            name: "HandoffBenchmarks",
            dependencies: [
                "HandoffOperations",
                .product(name: "Benchmark", package: "benchmark"),
            ],
            path: "Benchmarks/HandoffBenchmarks",
            plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
