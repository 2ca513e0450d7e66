import Foundation
import ChargeKitPlatform

/// What the storage code reads of an open file.
struct FileStatus: Equatable, Sendable {
    var size: Int
    /// How many names the file has: 0 once it was renamed over or removed, more than 1
    /// when it has another name (a hard link).
    var links: Int
    var device: UInt64
    var inode: UInt64
}

/// The file-system calls the ledger's journal makes, and nothing else: the system's
/// (``SystemFileSystem``), or a test's, which records every write, truncation, rename
/// and sync so that the states a power cut or a bad block would leave can be rebuilt
/// and reopened.
///
/// Handles are the system's file descriptors, or a test's numbers. Every call that can
/// fail throws ``ChargeKitError/storage(_:)`` naming the path and why.
protocol StorageFileSystem: Sendable {
    /// Creates the folder of `path` when it is missing and checks that no other user
    /// controls it or its ancestors (see ``StorageFiles``).
    func prepareFolder(of path: String) throws(ChargeKitError)
    /// Opens the file at `path` for reading and writing, refusing what another user
    /// could have planted; `nil` when it does not exist and `create` is false.
    func open(_ path: String, create: Bool) throws(ChargeKitError) -> Int32?
    /// Creates a file that must not exist yet (a compaction's temporary file).
    func createNew(_ path: String) throws(ChargeKitError) -> Int32
    func status(_ handle: Int32, path: String) throws(ChargeKitError) -> FileStatus
    func read(_ handle: Int32, at offset: Int, count: Int, path: String) throws(ChargeKitError) -> Data
    func write(_ data: Data, to handle: Int32, at offset: Int, path: String) throws(ChargeKitError)
    func truncate(_ handle: Int32, to size: Int, path: String) throws(ChargeKitError)
    /// Makes what was written durable, as the platform allows (``DurableSync``).
    func sync(_ handle: Int32, path: String) throws(ChargeKitError)
    func close(_ handle: Int32)
    /// Takes the exclusive or shared lock of the open file, waiting at most
    /// ``StorageFiles/lockTimeout`` for another process's.
    func lock(_ handle: Int32, exclusive: Bool, path: String) throws(ChargeKitError)
    func unlock(_ handle: Int32)
    func rename(_ source: String, to destination: String) throws(ChargeKitError)
    func remove(_ path: String)
    /// Makes a creation, rename or removal in the folder of `path` durable.
    func syncFolder(of path: String)
    /// The names in the folder of `path`.
    func names(inFolderOf path: String) -> [String]
    /// This process's identifier (it names temporary files).
    var processID: Int32 { get }
}

extension StorageFileSystem {
    /// Refuses a file with more than one name: two names would mean two lock files, and
    /// writers through the two would not exclude each other. Names the other name when
    /// it is in the same folder.
    func refuseLinks(_ status: FileStatus, path: String, what: String) throws(ChargeKitError) {
        guard status.links > 1 else { return }
        let folder = (path as NSString).deletingLastPathComponent
        let own = (path as NSString).lastPathComponent
        var others: [String] = []
        if let system = self as? SystemFileSystem {
            others = system.names(inFolderOf: path).filter { $0 != own }.filter { name in
                var other = stat()
                return lstat((folder as NSString).appendingPathComponent(name), &other) == 0
                    && UInt64(other.st_ino) == status.inode && UInt64(other.st_dev) == status.device
            }
        }
        let where_ = others.isEmpty
            ? "its other name is in another folder (a copy made with cp -al or rsync --link-dest?)"
            : "its other name is \((folder as NSString).appendingPathComponent(others[0]))"
        throw .storage("\(path): the \(what) has \(status.links) names (hard links); \(where_). Writers through "
                       + "two names would not exclude each other: refusing it (copy the file instead of linking it)")
    }
}

/// The system's file system: POSIX calls, with the trust checks of ``StorageFiles``.
struct SystemFileSystem: StorageFileSystem {
    static let shared = SystemFileSystem()
    let processID: Int32 = getpid()

    func prepareFolder(of path: String) throws(ChargeKitError) {
        let url = URL(fileURLWithPath: path)
        try StorageFiles.makeFolder(for: url)
        try StorageFiles.checkTrusted(folder: url.deletingLastPathComponent().path)
    }

    func open(_ path: String, create: Bool) throws(ChargeKitError) -> Int32? {
        try StorageFiles.openTrusted(path, flags: O_RDWR | (create ? O_CREAT : 0))
    }

    func createNew(_ path: String) throws(ChargeKitError) -> Int32 {
        let descriptor = systemOpen(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .storage("cannot write \(path): \(Self.reason)") }
        return descriptor
    }

    func status(_ handle: Int32, path: String) throws(ChargeKitError) -> FileStatus {
        var status = stat()
        guard fstat(handle, &status) == 0 else { throw .storage("cannot inspect \(path): \(Self.reason)") }
        return FileStatus(size: Int(status.st_size), links: Int(status.st_nlink),
                          device: UInt64(status.st_dev), inode: UInt64(status.st_ino))
    }

    func read(_ handle: Int32, at offset: Int, count: Int, path: String) throws(ChargeKitError) -> Data {
        try StorageFiles.read(handle, at: offset, count: count, path: path)
    }

    func write(_ data: Data, to handle: Int32, at offset: Int, path: String) throws(ChargeKitError) {
        guard StorageFiles.write(data, to: handle, at: off_t(offset)) else { throw .storage("cannot write \(path): \(Self.reason)") }
    }

    func truncate(_ handle: Int32, to size: Int, path: String) throws(ChargeKitError) {
        guard ftruncate(handle, off_t(size)) == 0 else { throw .storage("cannot write \(path): \(Self.reason)") }
    }

    func sync(_ handle: Int32, path: String) throws(ChargeKitError) {
        guard DurableSync.sync(handle) else { throw .storage("cannot make \(path) durable: \(Self.reason)") }
    }

    func close(_ handle: Int32) { _ = systemClose(handle) }

    func lock(_ handle: Int32, exclusive: Bool, path: String) throws(ChargeKitError) {
        try StorageFiles.lock(handle, exclusive: exclusive, path: path)
    }

    func unlock(_ handle: Int32) { _ = flock(handle, LOCK_UN) }

    func rename(_ source: String, to destination: String) throws(ChargeKitError) {
        guard systemRename(source, destination) == 0 else { throw .storage("cannot replace \(destination): \(Self.reason)") }
        StorageFiles.protect(destination)
    }

    func remove(_ path: String) { _ = unlink(path) }

    func syncFolder(of path: String) { StorageFiles.syncFolder(of: URL(fileURLWithPath: path)) }

    func names(inFolderOf path: String) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent)) ?? []
    }

    private static var reason: String { String(cString: strerror(errno)) }
}

// The C calls whose Swift names a method of the type above would shadow.
private func systemOpen(_ path: String, _ flags: Int32, _ mode: mode_t) -> Int32 { open(path, flags, mode) }
private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func systemRename(_ source: String, _ destination: String) -> Int32 { rename(source, destination) }
