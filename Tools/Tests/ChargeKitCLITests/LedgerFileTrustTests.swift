import Foundation
import Testing
import ToolsPlatform

/// A file ledger in a place other users control is refused (exit 74, the path and the
/// reason on standard error), and a lock held by a stopped process is waited for only
/// so long: each case as `chargekit` meets it, in a real process.
@Suite("file ledger trust")
struct LedgerFileTrustTests {
    static let request = CLI.exampleRequest() + ["--ledger"]

    static func expectRefused(_ outcome: CLI.Outcome, _ words: String, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(outcome.status == 74, "exit \(outcome.status): \(outcome.stderr)", sourceLocation: sourceLocation)
        #expect(outcome.stderr.contains(words), "\(outcome.stderr)", sourceLocation: sourceLocation)
    }

    @Test("a folder others may write, with or without the sticky bit, is refused")
    func sharedFolder() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = folder.appendingPathComponent("ledger.json").path
        for mode: mode_t in [0o777, 0o1777, 0o775] {
            chmod(folder.path, mode)
            Self.expectRefused(try await CLI.run(Self.request + [ledger]), "writable by its group or others")
        }
        chmod(folder.path, 0o700)
        #expect(try await CLI.run(Self.request + [ledger]).status == 0)
        // A ledger file others may write (planted, or loosened) is refused too.
        chmod(ledger, 0o666)
        Self.expectRefused(try await CLI.run(Self.request + [ledger]), "writable by its group or others")
    }

    @Test("a symbolic link at the lock's path is refused and its target never created")
    func symlinkedLock() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = folder.appendingPathComponent("ledger.json").path
        let target = folder.appendingPathComponent("victim").path
        #expect(symlink(target, ledger + ".lock") == 0)
        Self.expectRefused(try await CLI.run(Self.request + [ledger]), "symbolic link")
        #expect(!FileManager.default.fileExists(atPath: target))
    }

    @Test("a ledger or lock owned by another user is refused", .enabled(if: geteuid() == 0, "needs root to give a file away"))
    func foreignOwner() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = folder.appendingPathComponent("ledger.json").path
        #expect(FileManager.default.createFile(atPath: ledger + ".lock", contents: nil, attributes: [.posixPermissions: 0o600]))
        #expect(chown(ledger + ".lock", 65534, 65534) == 0)
        Self.expectRefused(try await CLI.run(Self.request + [ledger]), "belongs to user 65534")
    }

    @Test("a lock held by a stopped process is waited for, then exit 74 naming it")
    func heldLock() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = folder.appendingPathComponent("ledger.json").path
        #expect(try await CLI.run(Self.request + [ledger]).status == 0)
        // This process plays the stopped `chargekit`: it holds the lock and never lets go.
        let holder = open(ledger + ".lock", O_RDWR)
        #expect(holder >= 0 && flock(holder, LOCK_EX) == 0)
        defer { close(holder) }
        let outcome = try await CLI.run(Self.request + [ledger], killAfter: 60)
        #expect(!outcome.killed, "it waited for ever")
        Self.expectRefused(outcome, "held the lock")
    }

    @Test("a FIFO at the ledger's or the lock's path is refused at once, never waited on")
    func fifoAtThePath() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        for name in ["ledger.json", "other.json.lock"] {
            let path = folder.appendingPathComponent(name).path
            #expect(mkfifo(path, 0o600) == 0)
            let ledger = name.hasSuffix(".lock") ? String(path.dropLast(5)) : path
            let outcome = try await CLI.run(Self.request + [ledger], killAfter: 30)
            #expect(!outcome.killed, "chargekit blocked on a FIFO at \(name)")
            Self.expectRefused(outcome, "not a regular file")
            let pending = try await CLI.run(["pending", "--ledger", ledger], killAfter: 30)
            #expect(!pending.killed && pending.status == 74, "pending on a FIFO at \(name): exit \(pending.status) \(pending.stderr)")
        }
    }

    @Test("a folder above the ledger's that others may write is refused unless sticky (as /tmp is)")
    func writableAncestor() async throws {
        let folder = try CLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let shared = folder.appendingPathComponent("shared")
        let own = shared.appendingPathComponent("own")
        try FileManager.default.createDirectory(at: own, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        chmod(own.path, 0o700)
        let ledger = own.appendingPathComponent("ledger.json").path
        chmod(shared.path, 0o777)
        Self.expectRefused(try await CLI.run(Self.request + [ledger]), "\(shared.path): a folder above the ledger's is writable by its group or others")
        chmod(shared.path, 0o1777)
        let sticky = try await CLI.run(Self.request + [ledger])
        #expect(sticky.status == 0, "\(sticky.stderr)")
        chmod(shared.path, 0o755)
        #expect(try await CLI.run(Self.request + [ledger]).status == 0)
    }
}
