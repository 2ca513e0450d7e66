import Logging
import ServiceLifecycle

/// Runs a service (a Hummingbird application) in this process and returns once it
/// reported that it is ready, with what it reported (its port, its base URL).
/// ``stop()`` shuts it down gracefully. The sandbox, the IPN receiver and tests use it.
package struct ServiceRunner<Value: Sendable>: Sendable {
    /// What the service reported when it became ready.
    package let value: Value
    private let group: ServiceGroup
    private let task: Task<Void, any Error>

    /// Builds the service with `make`, passing it the callback to call once ready, runs
    /// it, and waits for that callback.
    /// - Throws: the service's error when it stops before it is ready.
    package static func start(logger: Logger, _ make: (_ ready: @escaping @Sendable (Value) -> Void) -> any Service)
        async throws -> ServiceRunner
    {
        let (stream, continuation) = AsyncStream<Value>.makeStream()
        let service = make { continuation.yield($0) }
        let group = ServiceGroup(configuration: .init(services: [service], logger: logger))
        let task = Task {
            defer { continuation.finish() }
            try await group.run()
        }
        for await value in stream { return ServiceRunner(value: value, group: group, task: task) }
        try await task.value
        throw CancellationError()
    }

    /// Shuts the service down gracefully and waits until it has.
    package func stop() async {
        await group.triggerGracefulShutdown()
        _ = try? await task.value
    }
}
