import ChargeKit
import Foundation

/// One behaviour of a storage conformance suite: a name, and a body run against what a
/// backend provides (`Subject`). The suites of this package (``LedgerStoreConformance``,
/// and `SandboxStoreConformance` in CitconSandboxTesting) are lists of these, so a test
/// runs them with `@Test(arguments: Suite.checks)`.
public struct ConformanceCheck<Subject: Sendable>: Sendable, CustomStringConvertible {
    /// What it shows.
    public let name: String
    private let body: @Sendable (Subject) async throws -> Void

    /// Makes a check.
    public init(name: String, body: @escaping @Sendable (Subject) async throws -> Void) {
        self.name = name
        self.body = body
    }

    /// Runs the check; throws ``ConformanceFailure`` (or the store's own error) when the
    /// behaviour is not there.
    public func run(_ subject: Subject) async throws { try await body(subject) }

    public var description: String { name }
}

/// What a conformance check found wrong.
public struct ConformanceFailure: Error, CustomStringConvertible {
    /// What went wrong.
    public var description: String

    /// Makes a failure.
    public init(_ description: String) { self.description = description }
}

/// A clock the conformance checks move by hand.
final class ManualClock: @unchecked Sendable {
    private let lock = NSLock()
    private var current = Date(timeIntervalSince1970: 1_800_000_000)
    var now: Date { lock.withLock { current } }
    func advance(_ seconds: TimeInterval) { lock.withLock { current += seconds } }
}

/// What every conformance check asserts with: fails the check with `message`.
func expect(_ condition: Bool, _ message: @autoclosure () -> String) throws {
    if !condition { throw ConformanceFailure(message()) }
}

/// Fails the check unless `body` is refused with `expected`; `what` names the step.
func expectRefusal(_ expected: ChargeKitError, _ what: String = "", _ body: () async throws -> Void) async throws {
    let step = what.isEmpty ? "" : what + ": "
    do {
        try await body()
    } catch let error as ChargeKitError {
        try expect(error == expected, "\(step)refused with \(error), expected \(expected)")
        return
    }
    throw ConformanceFailure("\(step)accepted; expected the refusal \(expected)")
}
