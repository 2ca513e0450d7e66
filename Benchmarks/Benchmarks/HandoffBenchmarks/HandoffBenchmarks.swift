import Benchmark
import HandoffOperations

// Each ChargeKit operation runs beside a Foundation URLComponents-based version of
// the same work on the same input, in the same run. Before measuring, both paths
// are checked to give identical results (HandoffOperation.all stops otherwise).

let benchmarks: @Sendable () -> Void = {
    // Nanoseconds for every row: in microseconds the URLComponents rows were rounded to
    // whole units (9 µs), too coarse for a ratio.
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput], timeUnits: .nanoseconds,
                                           maxDuration: .seconds(2), maxIterations: 1_000_000)
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
