import ChargeKit
import ChargeKitSimulators
import Foundation

// The operations the benchmarks time and the instruction counter counts: each
// ChargeKit operation beside a Foundation URLComponents-based version of the same
// work on the same input. `HandoffOperation.all` checks that both paths agree. Each
// app's operations (its callbacks as the app writes them, its own Foundation way when
// it needs one) are in the file named for it, which makes the app's simulator a
// `BenchmarkedApp`; the simulators' registry gives their order, and no list here names an app.

/// A registered app's own operations, declared in its file.
protocol BenchmarkedApp: AppSimulator {
    /// The app's rows: its callbacks (and requests) through ChargeKit and through URLComponents.
    static var benchmarkOperations: [HandoffOperation] { get }
}

/// The fields each parse yields, for comparing the two paths.
public struct Fields: Equatable, Sendable {
    public var values: [String: String]
}

/// Foundation: URLComponents' query items, each name once, then the same checks a
/// careful app would make (known names, amounts as decimals).
func foundationParse(_ url: String, names: Set<String>, amounts: Set<String> = [], prefix: String = "") -> Fields? {
    guard let items = URLComponents(string: url)?.queryItems else { return nil }
    var values: [String: String] = [:]
    for item in items {
        guard item.name.hasPrefix(prefix) else { return nil }
        let name = String(item.name.dropFirst(prefix.count))
        guard names.contains(name), values[name] == nil, let value = item.value else { return nil }
        if amounts.contains(name) {
            guard let decimal = Decimal(string: value), decimal >= 0 else { return nil }
            let parts = value.split(separator: ".")
            guard parts.count <= 2, (parts.count == 1 ? 0 : parts[1].count) <= 2 else { return nil }
        }
        values[name] = value
    }
    return Fields(values: values)
}

/// One operation: the ChargeKit path and the URLComponents path of the same work.
public struct HandoffOperation: Sendable {
    /// The name in the tables.
    public var name: String
    /// ChargeKit's way, giving the fields it read (for the comparison).
    public var chargeKit: @Sendable () -> Fields?
    /// Foundation's way, giving the fields it read (for the comparison).
    public var foundation: @Sendable () -> Fields?
    /// ChargeKit's work alone, as measured: parse and validate (or build), nothing else.
    public var chargeKitWork: @Sendable () -> Bool
    /// Foundation's work alone, as measured.
    public var foundationWork: @Sendable () -> Bool

    init(name: String, chargeKit: @escaping @Sendable () -> Fields?, foundation: @escaping @Sendable () -> Fields?,
         chargeKitWork: (@Sendable () -> Bool)? = nil) {
        self.name = name
        self.chargeKit = chargeKit
        self.foundation = foundation
        self.chargeKitWork = chargeKitWork ?? { chargeKit() != nil }
        self.foundationWork = { foundation() != nil }
    }

    /// Every operation, after checking that both paths give the same, non-empty result
    /// (stops the program otherwise: a benchmark of different work would mislead).
    public static let all: [HandoffOperation] = {
        // Every registered app's rows, in the registry's order; an app without its file stops the run.
        let operations: [HandoffOperation] = SimulatedApps.registered.flatMap { simulator -> [HandoffOperation] in
            guard let app = simulator as? any BenchmarkedApp.Type else {
                preconditionFailure("\(simulator.provider): no benchmark rows (Benchmarks/Sources/HandoffOperations/<App>.swift makes its simulator a BenchmarkedApp)")
            }
            return app.benchmarkOperations
        }
        for operation in operations {
            let result = operation.chargeKit()
            precondition(result != nil && result != Fields(values: [:]) && result == operation.foundation(),
                         "\(operation.name): the two paths differ: \(String(describing: result)) / \(String(describing: operation.foundation()))")
        }
        return operations
    }()
}
