import Foundation
import ChargeKitPlatform

/// What every file ChargeKit keeps (the ledger's journal, Citcon's pending orders)
/// shares: the lock beside it, the checks that no other user controls it, and the
/// durable steps of writing it.
///
/// - **Locking.** An exclusive or shared `flock` on `<file>.lock` (never replaced, so
///   every process locks the same inode); waiting for another process ends after
///   ``lockTimeout``.
/// - **Trust.** The file, its lock and its folder must belong to this user and be
///   writable by no one else; every ancestor of the folder must belong to this user or
///   to root, and one its group or others may write must be sticky (as `/tmp` is), so
///   that no other user can rename the folder away and put their own in its place (the
///   rule of ssh's StrictModes, with sticky folders allowed). A symbolic link at the
///   file's or the lock's path is refused, never followed.
/// - **Never blocked by what is at the path.** Files are opened with `O_NONBLOCK` and
///   their type is checked before anything is read: a FIFO or a device planted at the
///   path is refused at once instead of blocking the open.
enum StorageFiles {
    /// How long a caller waits for another process's lock before giving up.
    static var lockTimeout: Duration { .seconds(10) }

    /// Runs `body` under the lock of `fileURL` (exclusive or shared), the folder made
    /// and every ancestor checked first: one step of a file opened for that step alone
    /// (``AtomicJSONFile``'s; the ledger's journal keeps its lock open instead).
    static func withLock<T>(for fileURL: URL, exclusive: Bool, _ body: () throws(ChargeKitError) -> T) throws(ChargeKitError) -> T {
        try makeFolder(for: fileURL)
        try checkTrusted(folder: fileURL.deletingLastPathComponent().path)
        let lockPath = fileURL.path + ".lock"
        guard let descriptor = try openTrusted(lockPath, flags: O_RDWR | O_CREAT) else {
            throw .storage("cannot open \(lockPath)")
        }
        defer { close(descriptor) }
        try lock(descriptor, exclusive: exclusive, path: lockPath)
        defer { flock(descriptor, LOCK_UN) }
        return try body()
    }

    /// Takes the `flock` of an open lock file, polling every 2 ms for at most
    /// ``lockTimeout`` while another process holds it. It blocks its thread: call it
    /// from a thread of the store's own, never from the threads that run an app's tasks.
    static func lock(_ descriptor: Int32, exclusive: Bool, path lockPath: String) throws(ChargeKitError) {
        let deadline = ContinuousClock.now + lockTimeout
        while flock(descriptor, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR else {
                throw .storage("cannot lock \(lockPath): \(String(cString: strerror(errno)))")
            }
            guard ContinuousClock.now < deadline else {
                throw .storage("\(lockPath): another process has held the lock for \(lockTimeout) (a stopped chargekit?); giving up")
            }
            usleep(2_000)
        }
    }

    /// Opens `path` (never following a symbolic link, never blocking on what is there)
    /// and checks it is a regular file of this user's that no one else may write; `nil`
    /// when it does not exist and `flags` do not create it. The descriptor is blocking
    /// again when returned.
    static func openTrusted(_ path: String, flags: Int32) throws(ChargeKitError) -> Int32? {
        let descriptor = open(path, flags | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        if descriptor < 0 {
            if errno == ENOENT && flags & O_CREAT == 0 { return nil }
            if errno == ELOOP { throw .storage("\(path): is a symbolic link; refusing to follow it") }
            throw .storage("cannot open \(path): \(String(cString: strerror(errno)))")
        }
        do {
            try checkTrusted(descriptor: descriptor, path: path)
        } catch {
            close(descriptor)
            throw error
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        return descriptor
    }

    /// Refuses a folder that another user could change (see the type's discussion), or
    /// one whose ancestors another user could.
    static func checkTrusted(folder path: String) throws(ChargeKitError) {
        var status = stat()
        guard lstat(path, &status) == 0 else { throw .storage("cannot inspect \(path): \(String(cString: strerror(errno)))") }
        try checkOwnership(status, path: path, what: "folder")
        let user = effectiveUser
        var ancestor = URL(fileURLWithPath: path).standardizedFileURL
        while ancestor.path != "/" {
            ancestor.deleteLastPathComponent()
            // A folder this process may not inspect (an app sandbox hides what is above
            // its container) cannot be judged; the checks stop there.
            guard stat(ancestor.path, &status) == 0 else { return }
            guard status.st_uid == user || status.st_uid == 0 else {
                throw .storage("\(ancestor.path): a folder above the ledger's belongs to user \(status.st_uid), who could move it away; refusing it")
            }
            guard status.st_mode & 0o022 == 0 || status.st_mode & 0o1000 != 0 else {
                let mode = String(status.st_mode & 0o7777, radix: 8)
                throw .storage("\(ancestor.path): a folder above the ledger's is writable by its group or others without the sticky bit "
                               + "(mode \(mode)), so another user could move the ledger's folder away; refusing it (chmod go-w or +t)")
            }
        }
    }

    /// Refuses an open file that is not a regular file of this user's, or that its
    /// group or others may write.
    static func checkTrusted(descriptor: Int32, path: String) throws(ChargeKitError) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .storage("cannot inspect \(path): \(String(cString: strerror(errno)))") }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .storage("\(path): not a regular file; refusing it") }
        try checkOwnership(status, path: path, what: "file")
        try SystemFileSystem.shared.refuseLinks(
            FileStatus(size: Int(status.st_size), links: Int(status.st_nlink), device: UInt64(status.st_dev), inode: UInt64(status.st_ino)),
            path: path, what: "file")
    }

    /// This process's effective user, read once.
    static let effectiveUser = geteuid()

    private static func checkOwnership(_ status: stat, path: String, what: String) throws(ChargeKitError) {
        let me = effectiveUser
        guard status.st_uid == me || (what == "folder" && status.st_uid == 0 && me != 0 && status.st_mode & 0o022 == 0) else {
            throw .storage("\(path): the \(what) belongs to user \(status.st_uid), not to this user (\(me)); refusing it")
        }
        guard status.st_mode & 0o022 == 0 else {
            let mode = String(status.st_mode & 0o7777, radix: 8)
            throw .storage("\(path): the \(what) is writable by its group or others (mode \(mode)); refusing it (chmod go-w)")
        }
    }

    /// Creates the file's folder (owner only) when it does not exist: Application
    /// Support, for one, does not exist on a fresh iOS install.
    static func makeFolder(for fileURL: URL) throws(ChargeKitError) {
        let folder = fileURL.deletingLastPathComponent()
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue { return }
        do {
            try FileManager.default.createDirectory(
                at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700]
            )
        } catch {
            throw .storage("cannot create the folder \(folder.path): \(error.localizedDescription)")
        }
    }

    /// Replaces the file at `fileURL` with `data`, durably: a temporary file in the same
    /// folder (0600, named `.<file>.<pid>.<random>.tmp`) is written and `fsync`ed,
    /// renamed over the file, and the folder is `fsync`ed. A process killed at any point
    /// leaves the old file or the new one, never half of one. Returns the new file's
    /// device and inode. Call it under the exclusive lock, which also makes the sweep of
    /// killed writers' temporary files safe.
    @discardableResult
    static func replace(_ fileURL: URL, with data: Data) throws(ChargeKitError) -> (device: UInt64, inode: UInt64) {
        let path = fileURL.path
        sweepTemporaryFiles(of: fileURL)
        let temporary = fileURL.deletingLastPathComponent()
            .appendingPathComponent(".\(fileURL.lastPathComponent).\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { throw .storage("cannot write \(temporary): \(String(cString: strerror(errno)))") }
        var renamed = false
        defer { if !renamed { unlink(temporary) } }
        let synced = write(data, to: descriptor) && DurableSync.sync(descriptor)
        let reason = String(cString: strerror(errno))
        var status = stat()
        let known = fstat(descriptor, &status) == 0
        close(descriptor)
        guard synced, known else { throw .storage("cannot write \(temporary): \(reason)") }
        guard rename(temporary, path) == 0 else { throw .storage("cannot replace \(path): \(String(cString: strerror(errno)))") }
        renamed = true
        protect(path)
        syncFolder(of: fileURL)
        return (UInt64(status.st_dev), UInt64(status.st_ino))
    }

    /// Removes the temporary files (``replace(_:with:)``'s) of writers killed before
    /// their rename. Called only under the exclusive lock, which a live writer holds for
    /// as long as its temporary file exists: any other one left is a dead writer's.
    static func sweepTemporaryFiles(of fileURL: URL) {
        let folder = fileURL.deletingLastPathComponent()
        let prefix = ".\(fileURL.lastPathComponent)."
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) && name.hasSuffix(".tmp") {
            unlink(folder.appendingPathComponent(name).path)
        }
    }


    /// Makes a rename in the file's folder durable.
    static func syncFolder(of fileURL: URL) {
        let descriptor = open(fileURL.deletingLastPathComponent().path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        _ = DurableSync.sync(descriptor)
        close(descriptor)
    }

    /// Gives the file its data protection on Apple's mobile platforms.
    static func protect(_ path: String) {
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        try? FileManager.default.setAttributes(
            [.protectionKey: FileProtectionType.completeUntilFirstUserAuthentication], ofItemAtPath: path
        )
        #endif
    }
}
