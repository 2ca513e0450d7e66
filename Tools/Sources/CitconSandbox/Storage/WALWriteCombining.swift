@_spi(Tools) import ChargeKit
import Foundation
import VaporCSQLite

/// An SQLite VFS over the system's (`unix`) that writes a commit's WAL frames with one
/// system call instead of two per frame.
///
/// SQLite appends each frame of a commit to the WAL file as two writes (its 24-byte
/// header, then the page): a commit of six charges made some 27 `pwrite`s, each a trip
/// into the kernel, before its one `fsync`. Here the writes to a WAL file that continue
/// one another are kept in memory and written together (one `pwrite`) before anything
/// else touches that file: before its `xSync`, a read, a truncation, its size, a file
/// control, and when it closes. Every other file (the database, the shared-memory index)
/// goes straight through.
///
/// **Durability is unchanged.** SQLite promises nothing about a write before the file's
/// `xSync`, and every commit of a connection with `synchronous=FULL` (which
/// ``SQLiteDatabase/open(path:)`` sets on every connection it opens) syncs the WAL before it marks
/// the commit in the shared index: the frames are in the file, and on the disk, before
/// any reader, in this process or another, can see the commit. A write that fails when
/// the frames go out fails the commit's sync, so the commit is refused, never
/// acknowledged. A connection is used by one thread at a time (SQLite's own mutex), and a
/// WAL file belongs to one connection, so a file's buffer needs no lock of its own.
///
/// A connection uses it by naming it in its URI (`file:…?vfs=chargekit-wal`, see
/// ``uri(path:)``).
enum WALWriteCombining {
    /// The VFS's registered name.
    static let name = "chargekit-wal"

    /// The most bytes one write to the real file carries, and the most kept before they
    /// are written out anyway: SQLite's `unix` VFS writes at most 128 KiB - 1 per call
    /// (it masks the length with `0x1ffff`, so that a write of exactly 128 KiB would write
    /// nothing and fail as a full disk).
    static let limit = 1 << 16

    /// Registers the VFS once; `false` when SQLite has no `unix` VFS to wrap (the store
    /// then opens its files the usual way).
    static let registered: Bool = {
        guard let unix = sqlite_nio_sqlite3_vfs_find("unix") else { return false }
        let vfs = UnsafeMutablePointer<sqlite3_vfs>.allocate(capacity: 1)
        vfs.initialize(to: unix.pointee)
        vfs.pointee.zName = UnsafePointer(strdup(name))
        vfs.pointee.pAppData = UnsafeMutableRawPointer(unix)
        vfs.pointee.pNext = nil
        vfs.pointee.szOsFile = Int32(realOffset) + unix.pointee.szOsFile
        vfs.pointee.xOpen = open
        return sqlite_nio_sqlite3_vfs_register(vfs, 0) == SQLITE_OK
    }()

    /// The URI that opens the database at `path` through this VFS, or `path` itself when
    /// the VFS is not registered. Each component of the path is percent-encoded as
    /// SQLite's URIs require (ChargeKit's one encoder: all but RFC 3986's unreserved).
    static func uri(path: String) -> String {
        guard registered else { return path }
        let absolute = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
        let encoded = absolute.split(separator: "/", omittingEmptySubsequences: false)
            .map { PercentEncoding.encode(String($0)) }.joined(separator: "/")
        return "file:" + encoded + "?vfs=" + name
    }

    // MARK: The file: SQLite's `sqlite3_file`, this VFS's state, then the real file

    /// Where the buffer's pointer is kept in the memory SQLite gives each open file:
    /// after the `sqlite3_file` header (the methods' pointer).
    private static let stateOffset = MemoryLayout<sqlite3_file>.stride
    /// Where the real (`unix`) file starts: after the buffer's pointer, 16-byte aligned.
    private static let realOffset = (stateOffset + MemoryLayout<UnsafeMutableRawPointer?>.stride + 15) & ~15

    /// The writes waiting to go out to one WAL file, all contiguous from `offset`.
    private final class Pending {
        var bytes: [UInt8] = []
        var offset: Int64 = 0
    }

    private static func real(_ file: UnsafeMutablePointer<sqlite3_file>) -> UnsafeMutablePointer<sqlite3_file> {
        (UnsafeMutableRawPointer(file) + realOffset).assumingMemoryBound(to: sqlite3_file.self)
    }

    /// Where `file` keeps its buffer's pointer (`nil` for a file that is not a WAL).
    private static func slot(_ file: UnsafeMutablePointer<sqlite3_file>) -> UnsafeMutableRawPointer {
        UnsafeMutableRawPointer(file) + stateOffset
    }

    private static func pending(_ file: UnsafeMutablePointer<sqlite3_file>) -> Pending? {
        slot(file).load(as: UnsafeMutableRawPointer?.self).map { Unmanaged<Pending>.fromOpaque($0).takeUnretainedValue() }
    }

    private static func methods(_ file: UnsafeMutablePointer<sqlite3_file>) -> sqlite3_io_methods? {
        real(file).pointee.pMethods?.pointee
    }

    /// Writes out what waits for `file`, in one write. Returns SQLite's result.
    private static func flush(_ file: UnsafeMutablePointer<sqlite3_file>) -> Int32 {
        guard let pending = pending(file), !pending.bytes.isEmpty else { return SQLITE_OK }
        guard let write = methods(file)?.xWrite else { return SQLITE_IOERR }
        let result = pending.bytes.withUnsafeBytes { bytes in
            var start = 0
            while start < bytes.count {
                let count = min(limit, bytes.count - start)
                let result = write(real(file), bytes.baseAddress.map { $0 + start }, Int32(count), pending.offset + Int64(start))
                guard result == SQLITE_OK else { return result }
                start += count
            }
            return SQLITE_OK
        }
        pending.bytes.removeAll(keepingCapacity: true)
        return result
    }

    /// Writes out what waits for `file`, then passes the call on to the real file
    /// (`missing` when the real file has no such method).
    private static func flushed(_ file: UnsafeMutablePointer<sqlite3_file>?, missing: Int32 = SQLITE_IOERR,
                                then call: (UnsafeMutablePointer<sqlite3_file>, sqlite3_io_methods) -> Int32?) -> Int32 {
        guard let file else { return missing }
        let result = flush(file)
        guard result == SQLITE_OK else { return result }
        guard let methods = methods(file) else { return missing }
        return call(real(file), methods) ?? missing
    }

    nonisolated(unsafe) private static let open: @convention(c) (
        UnsafeMutablePointer<sqlite3_vfs>?, sqlite3_filename?, UnsafeMutablePointer<sqlite3_file>?, Int32, UnsafeMutablePointer<Int32>?
    ) -> Int32 = { vfs, name, file, flags, outFlags in
        guard let file, let unix = vfs?.pointee.pAppData?.assumingMemoryBound(to: sqlite3_vfs.self),
              let open = unix.pointee.xOpen
        else { return SQLITE_CANTOPEN }
        slot(file).storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
        file.pointee.pMethods = nil
        let result = open(unix, name, real(file), flags, outFlags)
        guard result == SQLITE_OK, real(file).pointee.pMethods != nil else { return result }
        if flags & SQLITE_OPEN_WAL != 0 {
            let state = Unmanaged.passRetained(Pending()).toOpaque()
            slot(file).storeBytes(of: state, as: UnsafeMutableRawPointer?.self)
        }
        file.pointee.pMethods = UnsafePointer(ioMethods)
        return SQLITE_OK
    }

    /// The methods of every file opened through this VFS: each passes the call to the
    /// real file, a WAL file's pending writes going out first.
    nonisolated(unsafe) private static let ioMethods: UnsafeMutablePointer<sqlite3_io_methods> = {
        let table = UnsafeMutablePointer<sqlite3_io_methods>.allocate(capacity: 1)
        table.initialize(to: sqlite3_io_methods())
        table.pointee.iVersion = 3
        table.pointee.xClose = { file in
            guard let file else { return SQLITE_OK }
            let flushed = flush(file)
            if let state = slot(file).load(as: UnsafeMutableRawPointer?.self) {
                Unmanaged<Pending>.fromOpaque(state).release()
                slot(file).storeBytes(of: nil, as: UnsafeMutableRawPointer?.self)
            }
            let closed = methods(file)?.xClose?(real(file)) ?? SQLITE_OK
            return flushed != SQLITE_OK ? flushed : closed
        }
        table.pointee.xRead = { file, buffer, amount, offset in
            flushed(file) { real, methods in methods.xRead?(real, buffer, amount, offset) }
        }
        table.pointee.xWrite = { file, buffer, amount, offset in
            guard let file else { return SQLITE_IOERR }
            guard let pending = pending(file), let buffer, amount > 0 else {
                return methods(file)?.xWrite?(real(file), buffer, amount, offset) ?? SQLITE_IOERR
            }
            if !pending.bytes.isEmpty, offset != pending.offset + Int64(pending.bytes.count) {
                let flushed = flush(file)
                guard flushed == SQLITE_OK else { return flushed }
            }
            if pending.bytes.isEmpty { pending.offset = offset }
            pending.bytes.append(contentsOf: UnsafeRawBufferPointer(start: buffer, count: Int(amount)))
            return pending.bytes.count >= limit ? flush(file) : SQLITE_OK
        }
        table.pointee.xTruncate = { file, size in
            flushed(file) { real, methods in methods.xTruncate?(real, size) }
        }
        table.pointee.xSync = { file, flags in
            flushed(file) { real, methods in methods.xSync?(real, flags) }
        }
        table.pointee.xFileSize = { file, size in
            flushed(file) { real, methods in methods.xFileSize?(real, size) }
        }
        table.pointee.xLock = { file, level in
            guard let file else { return SQLITE_IOERR }
            return methods(file)?.xLock?(real(file), level) ?? SQLITE_IOERR
        }
        table.pointee.xUnlock = { file, level in
            guard let file else { return SQLITE_IOERR }
            return methods(file)?.xUnlock?(real(file), level) ?? SQLITE_IOERR
        }
        table.pointee.xCheckReservedLock = { file, result in
            guard let file else { return SQLITE_IOERR }
            return methods(file)?.xCheckReservedLock?(real(file), result) ?? SQLITE_IOERR
        }
        table.pointee.xFileControl = { file, operation, argument in
            flushed(file, missing: SQLITE_NOTFOUND) { real, methods in methods.xFileControl?(real, operation, argument) }
        }
        table.pointee.xSectorSize = { file in
            guard let file else { return 4096 }
            return methods(file)?.xSectorSize?(real(file)) ?? 4096
        }
        table.pointee.xDeviceCharacteristics = { file in
            guard let file else { return 0 }
            return methods(file)?.xDeviceCharacteristics?(real(file)) ?? 0
        }
        table.pointee.xShmMap = { file, page, size, extend, address in
            guard let file, let methods = methods(file), methods.iVersion >= 2, let map = methods.xShmMap else { return SQLITE_IOERR }
            return map(real(file), page, size, extend, address)
        }
        table.pointee.xShmLock = { file, offset, count, flags in
            guard let file, let methods = methods(file), methods.iVersion >= 2, let lock = methods.xShmLock else { return SQLITE_IOERR }
            return lock(real(file), offset, count, flags)
        }
        table.pointee.xShmBarrier = { file in
            guard let file, let methods = methods(file), methods.iVersion >= 2 else { return }
            methods.xShmBarrier?(real(file))
        }
        table.pointee.xShmUnmap = { file, delete in
            guard let file, let methods = methods(file), methods.iVersion >= 2 else { return SQLITE_OK }
            return methods.xShmUnmap?(real(file), delete) ?? SQLITE_OK
        }
        table.pointee.xFetch = { file, offset, amount, pointer in
            guard let file, let methods = methods(file), methods.iVersion >= 3, let fetch = methods.xFetch else {
                pointer?.pointee = nil
                return SQLITE_OK
            }
            return fetch(real(file), offset, amount, pointer)
        }
        table.pointee.xUnfetch = { file, offset, pointer in
            guard let file, let methods = methods(file), methods.iVersion >= 3, let unfetch = methods.xUnfetch else { return SQLITE_OK }
            return unfetch(real(file), offset, pointer)
        }
        return table
    }()
}
