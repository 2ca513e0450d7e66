import Foundation
import ProcessSupport
import ToolsPlatform

/// The built `chargekit` executable (next to the test bundle; `swift test` builds it).
enum CLI {
    static var executable: URL { ChargekitExecutable.url }

    struct Outcome: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
        var killed: Bool
    }

    /// Runs `chargekit` with `arguments` and waits for it; with `killAfter`, sends
    /// SIGKILL after that many seconds if it is still running.
    static func run(_ arguments: [String], killAfter: TimeInterval? = nil) async throws -> Outcome {
        let child = try Child(executable.path, arguments)
        if let killAfter {
            DispatchQueue.global().asyncAfter(deadline: .now() + killAfter) { child.signal(SIGKILL) }
        }
        // The wait runs on a Dispatch thread, never on the (two-thread) cooperative
        // pool, which other tests' tasks need.
        let exit = await withCheckedContinuation { (continuation: CheckedContinuation<(status: Int32, signaled: Bool), Never>) in
            DispatchQueue.global().async { continuation.resume(returning: child.wait()) }
        }
        return Outcome(status: exit.status, stdout: child.stdout, stderr: child.stderr, killed: exit.signaled)
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chargekit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
