import Foundation
import ToolsPlatform

/// A blocking TCP socket for tests that must misbehave as no HTTP library would:
/// send half a request, write a whole body before reading, stream an endless answer.
final class RawSocket: @unchecked Sendable {
    let descriptor: Int32

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// Connects to `127.0.0.1:port`, from `source` (another loopback address, such as
    /// `127.0.0.2`, to play another client) when given.
    static func connect(port: Int, from source: String? = nil) throws -> RawSocket {
        let fd = socket(AF_INET, Platform.streamSocket, 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard bound == 0 else {
                close(fd)
                throw POSIXError(.EADDRNOTAVAIL)
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemConnect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        return RawSocket(descriptor: fd)
    }

    /// Writes all of `data`; `false` when the peer closed or `timeout` passed.
    @discardableResult
    func send(_ data: Data, timeout: Duration = .seconds(20)) -> Bool {
        setTimeout(SO_SNDTIMEO, timeout)
        return data.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return true }
            var offset = 0
            while offset < raw.count {
                let written = Platform.send(descriptor, base + offset, raw.count - offset)
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }

    /// Reads until the peer closes, `limit` bytes arrived, what arrived is `complete`,
    /// or `timeout` passes without a byte. `closed` says whether the peer closed the connection.
    func receive(timeout: Duration, limit: Int = 1 << 20,
                 until complete: (Data) -> Bool = { _ in false }) -> (data: Data, closed: Bool) {
        setTimeout(SO_RCVTIMEO, timeout)
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while data.count < limit && !complete(data) {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { return (data, true) }
            if count < 0 { return (data, errno == ECONNRESET) }
            data.append(contentsOf: buffer[0..<count])
        }
        return (data, false)
    }

    /// Whether `data` holds one whole HTTP request (or answer): its head, then as many body bytes as
    /// its `Content-Length` says.
    static func isWholeRequest(_ data: Data) -> Bool {
        guard let end = data.range(of: Data("\r\n\r\n".utf8)) else { return false }
        let head = String(decoding: data[..<end.lowerBound], as: UTF8.self).lowercased()
        let length = head.split(separator: "\r\n")
            .first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) } ?? 0
        return data.count - end.upperBound >= length
    }

    private func setTimeout(_ option: Int32, _ duration: Duration) {
        var value = timeval(tv_sec: Int(duration.components.seconds),
                            tv_usec: .init(duration.components.attoseconds / 1_000_000_000_000))
        setsockopt(descriptor, SOL_SOCKET, option, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close(descriptor) }
}

/// A one-thread TCP server on a free loopback port that answers every connection with
/// `answer` (after reading the request), for receivers no library would write.
final class RawServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32
    private let lock = NSLock()
    private var stopped = false

    /// `answer` gets the accepted socket and writes what it likes; the server closes it after.
    init(answer: @escaping @Sendable (RawSocket) -> Void) throws {
        let fd = socket(AF_INET, Platform.streamSocket, 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer -> Bool in
                bind(fd, pointer, length) == 0 && listen(fd, 16) == 0 && getsockname(fd, pointer, &length) == 0
            }
        }
        guard fd >= 0, bound else { throw POSIXError(.EADDRINUSE) }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in
            while !isStopped {
                let client = accept(fd, nil, nil)
                if client < 0 { return }
                let connection = RawSocket(descriptor: client)
                Thread.detachNewThread {
                    // The whole request first: a receiver that answered after a fixed short
                    // wait could answer before a loaded machine had sent it, which an HTTP
                    // client rightly reports as an unsolicited response.
                    _ = connection.receive(timeout: .seconds(10), limit: 64 * 1024, until: RawSocket.isWholeRequest)
                    answer(connection)
                }
            }
        }
        thread.start()
    }

    /// A server whose every answer is `head` followed by an endless body: 1 MiB chunks,
    /// 4 GiB in all, `written` called after each. Its writes block, so a write returns
    /// only once the client has read enough to make room: what `written` counts is what
    /// the client took in (plus the kernel's buffers, a few MiB).
    static func endless(head: String, written: @escaping @Sendable () -> Void) throws -> RawServer {
        try RawServer { connection in
            _ = connection.send(Data(head.utf8))
            let chunk = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
            for _ in 0..<4096 {
                guard connection.send(chunk, timeout: .seconds(5)) else { return }
                written()
            }
        }
    }

    private var isStopped: Bool { lock.withLock { stopped } }

    /// Stops listening; the descriptor is closed once however often this is called (a
    /// second close could hit a descriptor number given out again in between).
    func stop() {
        let wasStopped = lock.withLock { () -> Bool in
            defer { stopped = true }
            return stopped
        }
        guard !wasStopped else { return }
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }
}

private let systemConnect = Platform.connect

/// Runs a blocking call on its own thread, so that the Swift concurrency pool (which
/// also runs the servers under test) is never held by a test waiting on a socket.
func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        Thread.detachNewThread { continuation.resume(returning: work()) }
    }
}
