import ChargeKitPlatform

/// How a file's writes are made durable on each platform.
///
/// - **Apple platforms**: `fsync` hands the data to the drive, whose cache may still
///   lose it at a power cut; `fcntl(F_FULLFSYNC)` asks the drive to flush it (SQLite's
///   `fullfsync`). Some file systems (network and FAT volumes) refuse `F_FULLFSYNC`:
///   then `fsync`, the best they offer.
/// - **Elsewhere** (Linux): `fdatasync` flushes the data and what is needed to read it
///   back (the size), through to the drive; a file's other metadata is not needed.
///
/// The choice is platform-neutral code (``plan(onApplePlatform:)``), so that a test on
/// Linux checks the Apple branch's calls too.
enum DurableSync {
    /// One call that may make a file durable.
    enum Call: Equatable, Sendable {
        case fullFsync, fsync, fdatasync
    }

    /// The calls tried in order, the first that succeeds ending the sync.
    static func plan(onApplePlatform: Bool) -> [Call] {
        onApplePlatform ? [.fullFsync, .fsync] : [.fdatasync]
    }

    #if canImport(Darwin)
    static let platformPlan = plan(onApplePlatform: true)
    #else
    static let platformPlan = plan(onApplePlatform: false)
    #endif

    /// Makes what was written to `descriptor` durable; `false` when every call of the
    /// plan failed (`errno` says why).
    static func sync(_ descriptor: Int32) -> Bool {
        for call in platformPlan where perform(call, descriptor) { return true }
        return false
    }

    private static func perform(_ call: Call, _ descriptor: Int32) -> Bool {
        switch call {
        case .fullFsync:
            #if canImport(Darwin)
            return fcntl(descriptor, F_FULLFSYNC) != -1
            #else
            return false
            #endif
        case .fsync:
            return fsync(descriptor) == 0
        case .fdatasync:
            #if canImport(Darwin)
            return fsync(descriptor) == 0
            #else
            return fdatasync(descriptor) == 0
            #endif
        }
    }
}
