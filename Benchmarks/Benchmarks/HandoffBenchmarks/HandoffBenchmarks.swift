import Benchmark
import Foundation
import HandoffOperations

// Each ChargeKit operation runs beside a Foundation URLComponents-based version of
// the same work on the same input, in the same run. Before measuring, both paths
// are checked to give identical results (HandoffOperation.all stops otherwise).

let benchmarks: @Sendable () -> Void = {
    // Nanoseconds for every row: in microseconds the URLComponents rows were rounded to
    // whole units (9 µs), too coarse for a ratio.
    // Each sample times a run of 1 000 operations (`scalingFactor: .kilo`) and the table
    // shows the time per operation. Timing each operation alone added the harness's own
    // cost of a sample (two clock readings at ~27 ns each on this VM, and the sample's
    // bookkeeping: about 150 ns in all) to both columns, which hid a third of the
    // fastest callbacks' ratio. `BENCHMARK_SCALING=one` times operations one by one again.
    let scaling: BenchmarkScalingFactor = ProcessInfo.processInfo.environment["BENCHMARK_SCALING"] == "one" ? .one : .kilo
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput], timeUnits: .nanoseconds,
                                           scalingFactor: scaling, maxDuration: .seconds(2),
                                           maxIterations: scaling == .one ? 1_000_000 : 2_000)
    for operation in HandoffOperation.all {
        let chargeKit = operation.chargeKitWork, foundation = operation.foundationWork
        Benchmark("\(operation.name) / ChargeKit") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(chargeKit()) }
        }
        Benchmark("\(operation.name) / URLComponents") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(foundation()) }
        }
    }
}
