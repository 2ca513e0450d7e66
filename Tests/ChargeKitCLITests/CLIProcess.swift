import Foundation
import ProcessSupport
#if canImport(Glibc)
import Glibc
#endif

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
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        if let killAfter {
            let pid = process.processIdentifier
            DispatchQueue.global().asyncAfter(deadline: .now() + killAfter) { kill(pid, SIGKILL) }
        }
        // Blocking reads and the wait run on Dispatch threads, never on the (two-thread)
        // cooperative pool, which other tests' tasks need.
        let (o, e) = await withCheckedContinuation { (continuation: CheckedContinuation<(Data, Data), Never>) in
            DispatchQueue.global().async {
                let group = DispatchGroup()
                nonisolated(unsafe) var errData = Data()
                DispatchQueue.global().async(group: group) { errData = err.fileHandleForReading.readDataToEndOfFile() }
                let outData = out.fileHandleForReading.readDataToEndOfFile()
                group.wait()
                process.waitUntilExit()
                continuation.resume(returning: (outData, errData))
            }
        }
        return Outcome(
            status: process.terminationStatus, stdout: String(decoding: o, as: UTF8.self),
            stderr: String(decoding: e, as: UTF8.self), killed: process.terminationReason == .uncaughtSignal
        )
    }

    static func temporaryFolder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chargekit-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
