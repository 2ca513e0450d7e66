import Foundation
import ToolsPlatform

/// A child process started with `posix_spawn`, its standard output and error read by
/// two threads with `read(2)`.
///
/// Not Foundation's `Process`: on Linux, several of them running at once in one test
/// binary once left a pipe's descriptor closed under its reader, and
/// `FileHandle.readDataToEndOfFile` then stops the whole test run (`try!` on EBADF).
/// Here every pipe is close-on-exec (no child inherits another's pipe), a read error
/// ends that stream instead, and the child is reaped only by `status`, so a signal
/// never reaches a reused pid.
public final class Child: @unchecked Sendable {
    /// The child's process id.
    public let pid: pid_t
    private let lock = NSLock()
    private var out = Data(), err = Data()
    private var readers = 2
    private var exit: (status: Int32, signaled: Bool)?

    /// Starts `executable` with `arguments`; `input` is written to its standard input,
    /// which is then closed (`/dev/null` when `nil`).
    public init(_ executable: String, _ arguments: [String], input: Data? = nil) throws {
        // One spawn at a time: each pipe is made close-on-exec before any other child
        // of this binary can start and inherit it.
        Self.spawnLock.lock()
        defer { Self.spawnLock.unlock() }
        var stdin: [Int32] = [-1, -1], stdout: [Int32] = [-1, -1], stderr: [Int32] = [-1, -1]
        guard Self.pipe(&stdout), Self.pipe(&stderr) else { throw Self.error("pipe") }
        if input != nil {
            guard Self.pipe(&stdin) else { throw Self.error("pipe") }
        } else {
            stdin[0] = open("/dev/null", O_RDONLY | O_CLOEXEC)
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin[0], 0)
        posix_spawn_file_actions_adddup2(&actions, stdout[1], 1)
        posix_spawn_file_actions_adddup2(&actions, stderr[1], 2)
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, environ)
        close(stdin[0])
        close(stdout[1])
        close(stderr[1])
        guard spawned == 0 else {
            [stdin[1], stdout[0], stderr[0]].filter { $0 >= 0 }.forEach { close($0) }
            throw Self.error("posix_spawn \(executable)", code: spawned)
        }
        self.pid = pid
        read(stdout[0]) { child, data in child.out.append(data) }
        read(stderr[0]) { child, data in child.err.append(data) }
        if let input {
            let descriptor = stdin[1]
            Thread.detachNewThread {
                input.withUnsafeBytes { buffer in
                    var offset = 0
                    while offset < buffer.count {
                        let n = Platform.write(descriptor, buffer.baseAddress.unsafelyUnwrapped + offset, buffer.count - offset)
                        if n < 0 && errno == EINTR { continue }
                        if n <= 0 { break }
                        offset += n
                    }
                }
                close(descriptor)
            }
        }
    }

    private static let spawnLock = NSLock()

    /// A pipe whose two ends are close-on-exec.
    private static func pipe(_ ends: inout [Int32]) -> Bool {
        guard Platform.pipe(&ends) == 0 else { return false }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        return true
    }

    private func read(_ descriptor: Int32, into append: @escaping @Sendable (Child, Data) -> Void) {
        Thread.detachNewThread { [self] in
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = buffer.withUnsafeMutableBytes { Platform.read(descriptor, $0.baseAddress, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                let data = Data(buffer[0..<n])
                lock.withLock { append(self, data) }
            }
            close(descriptor)
            lock.withLock { readers -= 1 }
        }
    }

    /// What the child wrote to standard output so far.
    public var stdout: String { lock.withLock { String(decoding: out, as: UTF8.self) } }
    /// What the child wrote to standard error so far.
    public var stderr: String { lock.withLock { String(decoding: err, as: UTF8.self) } }

    /// The exit status (or the signal that ended it), once the child has ended and both
    /// of its streams are read to the end; `nil` while it runs.
    public var status: (status: Int32, signaled: Bool)? {
        lock.withLock {
            if exit == nil {
                var raw: Int32 = 0
                if waitpid(pid, &raw, WNOHANG) == pid {
                    let signal = raw & 0x7F
                    exit = signal == 0 ? ((raw >> 8) & 0xFF, false) : (signal, true)
                }
            }
            return readers == 0 ? exit : nil
        }
    }

    /// Sends `signal`, unless the child has already been reaped.
    public func signal(_ signal: Int32) {
        lock.withLock { if exit == nil { _ = kill(pid, signal) } }
    }

    /// Blocks (poll every 5 ms) until the child has ended and its output is read.
    public func wait() -> (status: Int32, signaled: Bool) {
        while true {
            if let status { return status }
            usleep(5_000)
        }
    }

    private static func error(_ what: String, code: Int32 = errno) -> NSError {
        NSError(domain: NSPOSIXErrorDomain, code: Int(code), userInfo: [NSLocalizedDescriptionKey: "\(what): \(String(cString: strerror(code)))"])
    }
}
