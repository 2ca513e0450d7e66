import Dispatch
import Foundation
import ToolsPlatform

/// What a command that follows a stream (`upi logs tail`, `upi listen`) writes: each
/// line as it comes, whole, in one write to standard output (never held in a buffer,
/// so a file or pipe a CI job keeps gets every line), and SIGINT or SIGTERM ends it
/// cleanly (exit 0) between two lines, never inside one.
enum FollowOutput {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var sources: [any DispatchSourceSignal] = []

    /// Writes `line` and a line feed.
    static func line(_ line: String) {
        lock.withLock { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }
    }

    /// From now on, SIGINT and SIGTERM end the process with status 0 once the line
    /// being written (if any) is whole.
    static func endCleanlyOnSignals() {
        lock.withLock {
            guard sources.isEmpty else { return }
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)
                let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
                source.setEventHandler {
                    lock.lock()
                    Platform.exit(0)
                }
                source.resume()
                sources.append(source)
            }
        }
    }
}
