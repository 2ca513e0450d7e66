@testable import ChargeKit
import Foundation

/// A file system in memory that records every write, truncation, creation, rename,
/// removal and sync, so that the states a power cut could leave can be rebuilt.
///
/// Files are objects with ids that are never reused; what `fstat` reports as the inode
/// number is the lowest number no live file holds, as ext4 and XFS hand them out, so a
/// compaction's new file takes the number the one before it freed. A file is freed
/// when it has no name and no open handle.
final class ModelDisk: @unchecked Sendable {
    enum Op: Sendable {
        case create(path: String, object: Int)
        case write(object: Int, offset: Int, bytes: [UInt8])
        case truncate(object: Int, size: Int)
        case rename(from: String, to: String)
        case remove(path: String)
        case sync(object: Int)
        case syncFolder
        case stepStart(Int)
        case stepEnd(Int)
    }

    private let mutex = NSLock()
    private(set) var log: [Op] = []
    private var contents: [Int: [UInt8]] = [:]
    private var links: [Int: Int] = [:]
    private var opens: [Int: Int] = [:]
    private var numbers: [Int: UInt64] = [:]
    private(set) var directory: [String: Int] = [:]
    private var nextObject = 1

    init(files: [String: [UInt8]] = [:]) {
        for (path, bytes) in files.sorted(by: { $0.key < $1.key }) {
            let object = newObject()
            contents[object] = bytes
            links[object] = 1
            directory[path] = object
        }
    }

    func mark(_ op: Op) { mutex.withLock { log.append(op) } }

    /// The content of the file at `path`, as it now is.
    func content(at path: String) -> [UInt8]? { mutex.withLock { directory[path].flatMap { contents[$0] } } }

    /// The inode number the file at `path` reports.
    func number(at path: String) -> UInt64? { mutex.withLock { directory[path].flatMap { numbers[$0] } } }

    /// A view of the disk as one process has it (its own handles and process id).
    func process(_ id: Int32) -> ModelProcess { ModelProcess(disk: self, processID: id) }

    private func newObject() -> Int {
        let object = nextObject
        nextObject += 1
        var number: UInt64 = 11
        let taken = Set(numbers.values)
        while taken.contains(number) { number += 1 }
        numbers[object] = number
        return object
    }

    private func release(_ object: Int) {
        if links[object, default: 0] == 0 && opens[object, default: 0] == 0 { numbers[object] = nil }
    }

    // MARK: Calls (under the mutex)

    func open(_ path: String, create: Bool, exclusive: Bool) -> Int? {
        mutex.withLock {
            if let object = directory[path] {
                guard !exclusive else { return nil }
                opens[object, default: 0] += 1
                return object
            }
            guard create else { return nil }
            let object = newObject()
            contents[object] = []
            links[object] = 1
            opens[object] = 1
            directory[path] = object
            log.append(.create(path: path, object: object))
            return object
        }
    }

    func close(_ object: Int) {
        mutex.withLock {
            opens[object, default: 1] -= 1
            release(object)
        }
    }

    func status(_ object: Int) -> FileStatus {
        mutex.withLock {
            FileStatus(size: contents[object]?.count ?? 0, links: links[object] ?? 0, device: 1, inode: numbers[object] ?? 0)
        }
    }

    func read(_ object: Int, at offset: Int, count: Int) -> Data {
        mutex.withLock {
            let bytes = contents[object] ?? []
            guard offset < bytes.count else { return Data() }
            return Data(bytes[offset..<min(bytes.count, offset + count)])
        }
    }

    func write(_ data: Data, to object: Int, at offset: Int) {
        mutex.withLock {
            let bytes = [UInt8](data)
            Self.apply(.write(object: object, offset: offset, bytes: bytes), to: &contents)
            log.append(.write(object: object, offset: offset, bytes: bytes))
        }
    }

    func truncate(_ object: Int, to size: Int) {
        mutex.withLock {
            Self.apply(.truncate(object: object, size: size), to: &contents)
            log.append(.truncate(object: object, size: size))
        }
    }

    func sync(_ object: Int) { mark(.sync(object: object)) }

    func rename(_ source: String, to destination: String) -> Bool {
        mutex.withLock {
            guard let object = directory[source] else { return false }
            if let replaced = directory[destination], replaced != object {
                links[replaced, default: 1] -= 1
                release(replaced)
            }
            directory[destination] = object
            directory[source] = nil
            log.append(.rename(from: source, to: destination))
            return true
        }
    }

    func remove(_ path: String) {
        mutex.withLock {
            guard let object = directory.removeValue(forKey: path) else { return }
            links[object, default: 1] -= 1
            release(object)
            log.append(.remove(path: path))
        }
    }

    func names(inFolderOf path: String) -> [String] {
        let folder = (path as NSString).deletingLastPathComponent
        return mutex.withLock {
            directory.keys.filter { ($0 as NSString).deletingLastPathComponent == folder }.map { ($0 as NSString).lastPathComponent }
        }
    }

    static func apply(_ op: Op, to contents: inout [Int: [UInt8]]) {
        switch op {
        case .write(let object, let offset, let bytes):
            var file = contents[object] ?? []
            if file.count < offset + bytes.count { file += [UInt8](repeating: 0, count: offset + bytes.count - file.count) }
            file.replaceSubrange(offset..<offset + bytes.count, with: bytes)
            contents[object] = file
        case .truncate(let object, let size):
            var file = contents[object] ?? []
            if size < file.count { file.removeSubrange(size...) } else { file += [UInt8](repeating: 0, count: size - file.count) }
            contents[object] = file
        default:
            break
        }
    }
}

/// One process's handles on a ``ModelDisk``. Locks are not modelled: the workload
/// runs one step at a time.
final class ModelProcess: StorageFileSystem, @unchecked Sendable {
    let disk: ModelDisk
    let processID: Int32
    private let mutex = NSLock()
    private var handles: [Int32: Int] = [:]
    private var next: Int32 = 3

    init(disk: ModelDisk, processID: Int32) {
        self.disk = disk
        self.processID = processID
    }

    private func handle(for object: Int) -> Int32 {
        mutex.withLock {
            let handle = next
            next += 1
            handles[handle] = object
            return handle
        }
    }

    private func object(_ handle: Int32) throws(ChargeKitError) -> Int {
        guard let object = mutex.withLock({ handles[handle] }) else { throw .storage("bad handle \(handle)") }
        return object
    }

    func prepareFolder(of path: String) throws(ChargeKitError) {}

    func open(_ path: String, create: Bool) throws(ChargeKitError) -> Int32? {
        disk.open(path, create: create, exclusive: false).map(handle(for:))
    }

    func createNew(_ path: String) throws(ChargeKitError) -> Int32 {
        guard let object = disk.open(path, create: true, exclusive: true) else { throw .storage("\(path) exists") }
        return handle(for: object)
    }

    func status(_ handle: Int32, path: String) throws(ChargeKitError) -> FileStatus { disk.status(try object(handle)) }

    func read(_ handle: Int32, at offset: Int, count: Int, path: String) throws(ChargeKitError) -> Data {
        disk.read(try object(handle), at: offset, count: count)
    }

    func write(_ data: Data, to handle: Int32, at offset: Int, path: String) throws(ChargeKitError) {
        disk.write(data, to: try object(handle), at: offset)
    }

    func truncate(_ handle: Int32, to size: Int, path: String) throws(ChargeKitError) { disk.truncate(try object(handle), to: size) }

    func sync(_ handle: Int32, path: String) throws(ChargeKitError) { disk.sync(try object(handle)) }

    func close(_ handle: Int32) {
        guard let object = mutex.withLock({ handles.removeValue(forKey: handle) }) else { return }
        disk.close(object)
    }

    func lock(_ handle: Int32, exclusive: Bool, path: String) throws(ChargeKitError) {}

    func unlock(_ handle: Int32) {}

    func rename(_ source: String, to destination: String) throws(ChargeKitError) {
        guard disk.rename(source, to: destination) else { throw .storage("cannot rename \(source)") }
    }

    func remove(_ path: String) { disk.remove(path) }

    func syncFolder(of path: String) { disk.mark(.syncFolder) }

    func names(inFolderOf path: String) -> [String] { disk.names(inFolderOf: path) }
}
