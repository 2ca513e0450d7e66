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

    /// `request` with the arguments of the first registered app's example that takes
    /// extras (`request --examples json`, answering on my-app://done), at `amount`: what
    /// a test hands off with when any app will do, naming none.
    static func exampleRequest(amount: String = "5.00") -> [String] {
        var arguments = exampleArguments
        if let index = arguments.firstIndex(of: "--amount"), index + 1 < arguments.count { arguments[index + 1] = amount }
        return ["request"] + arguments
    }

    private static let exampleArguments: [String] =
        examples.first { runNow(["request"] + $0 + ["--extra", "probe=1"])?.status == 0 } ?? []

    /// Each registered app, in the registry's order (`request --examples json`), with the
    /// scheme its example request opens: what a test needs of two apps, naming none.
    static let apps: [(name: String, scheme: String)] = examples.compactMap { arguments in
        guard let name = arguments.first, let url = runNow(["request"] + arguments)?.stdout else { return nil }
        return (name, String(url.prefix { $0 != ":" }))
    }

    /// The example arguments of `request`, one list per registered app.
    private static let examples: [[String]] = {
        guard let listed = runNow(["request", "--examples", "json", "--example-callback", "my-app://done"]),
              let rows = try? JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]] else { return [] }
        return rows.compactMap { $0["arguments"] as? [String] }
    }()

    /// Runs `chargekit` and waits on this thread: for the examples above, read once.
    private static func runNow(_ arguments: [String]) -> (status: Int32, stdout: String)? {
        guard let child = try? Child(executable.path, arguments) else { return nil }
        return (child.wait().status, child.stdout)
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chargekit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
