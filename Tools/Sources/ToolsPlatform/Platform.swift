// The C library, for the tools and their tests: the one file of this package that names
// a platform module or spells a constant one platform's way (scripts/portability-check.sh
// holds every other file to it). Each branch sits beside the others, small enough to read
// line by line: the tools' Darwin side is built by the macOS workflow
// (.github/workflows/apple.yml), not here.
#if canImport(Darwin)
@_exported import Darwin
#elseif canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#endif

/// The calls whose spelling differs between the C libraries, or whose plain name a
/// method of the caller would shadow.
public enum Platform {
    /// `RLIMIT_NOFILE` as `getrlimit`/`setrlimit` take it.
    public static var openFileLimit: Int32 {
        #if canImport(Darwin)
        RLIMIT_NOFILE
        #else
        Int32(RLIMIT_NOFILE.rawValue)
        #endif
    }

    /// `SOCK_STREAM` as `socket` takes it.
    public static var streamSocket: Int32 {
        #if canImport(Darwin)
        SOCK_STREAM
        #else
        Int32(SOCK_STREAM.rawValue)
        #endif
    }

    /// `send` without a `SIGPIPE` when the peer has gone.
    public static func send(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Darwin)
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        return systemSend(descriptor, bytes, count, 0)
        #else
        return systemSend(descriptor, bytes, count, Int32(MSG_NOSIGNAL))
        #endif
    }

    /// `connect`.
    public static func connect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
        systemConnect(descriptor, address, length)
    }

    /// `write`.
    public static func write(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
        systemWrite(descriptor, bytes, count)
    }

    /// `read`.
    public static func read(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        systemRead(descriptor, bytes, count)
    }

    /// `pipe`.
    public static func pipe(_ ends: UnsafeMutablePointer<Int32>) -> Int32 { systemPipe(ends) }

    /// Ends the process with `status` (the C library's `exit`).
    public static func exit(_ status: Int32) -> Never { systemExit(status) }
}

// The C library's functions, called at file scope (where the methods above, which
// share their names, do not shadow them): the same line for every C library.
private func systemSend(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    send(descriptor, bytes, count, flags)
}
private func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(descriptor, address, length)
}
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int { write(descriptor, bytes, count) }
private func systemRead(_ descriptor: Int32, _ bytes: UnsafeMutableRawPointer?, _ count: Int) -> Int { read(descriptor, bytes, count) }
private func systemPipe(_ ends: UnsafeMutablePointer<Int32>) -> Int32 { pipe(ends) }
private func systemExit(_ status: Int32) -> Never { exit(status) }
