import Foundation
import ProcessSupport
import Testing
import ToolsPlatform

/// The file ledger across real processes where the machine, not only the process,
/// misbehaves: a file system that hands a freed inode number to the next compaction,
/// a hard link, a compaction killed half-way.
@Suite("Ledger across processes: compactions, links, kills", .serialized)
struct LedgerMachineTests {
    /// LedgerProbe, built beside chargekit: a process holding a ledger as an app does.
    static var probe: String {
        CLI.executable.deletingLastPathComponent().appendingPathComponent("LedgerProbe").path
    }

    static func run(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        let child = try Child(probe, arguments)
        let exit = await withCheckedContinuation { (continuation: CheckedContinuation<(status: Int32, signaled: Bool), Never>) in
            DispatchQueue.global().async { continuation.resume(returning: child.wait()) }
        }
        return (exit.status, child.stdout, child.stderr)
    }

    func issueAndAnswer(_ ledger: String) async throws -> String {
        let request = try await CLI.run(CLI.exampleRequest() + ["--ledger", ledger])
        #expect(request.status == 0, "\(request.stderr)")
        let answer = try await CLI.run(["simulate", request.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "--outcome", "approved"])
        return answer.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("Two compactions in a row give the journal its inode number back on this file system; an idle process still refuses the consumed nonce")
    func inodeReuseNeverLetsAnIdleReaderAcceptAReplay() async throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.probe), "LedgerProbe is not built beside the tests: \(Self.probe)")
        let folder = try CLI.temporaryFolder()
        let ledger = folder.appendingPathComponent("ledger.json").path

        // The attack's precondition, on this file system: with no process holding the
        // journal, two compactions in a row bring its inode number back.
        _ = try await issueAndAnswer(ledger)
        let inodes = try await Self.run(["compact", ledger, "2"]).stdout.split(separator: "\n").map(String.init)
        #expect(inodes.count == 3)
        guard inodes.count == 3, inodes[0] == inodes[2], inodes[0] != inodes[1] else {
            try Test.cancel("could not run: this file system did not reuse the journal's inode number (\(inodes)); the attack needs it")
        }

        // An idle process loads the ledger and waits; a second process accepts the
        // callback and compacts twice; the idle one then verifies the same callback.
        let callback = try await issueAndAnswer(ledger)
        let trigger = folder.appendingPathComponent("go").path
        let idle = try Child(Self.probe, ["idle", ledger, callback, trigger])
        var waited = 0
        while !idle.stdout.hasPrefix("ready"), waited < 500 {
            try await Task.sleep(nanoseconds: 20_000_000)
            waited += 1
        }
        #expect(idle.stdout.hasPrefix("ready"), "the idle process did not start: \(idle.stderr)")
        let accepted = try await Self.run(["verify", ledger, callback])
        #expect(accepted.stdout.hasPrefix("accepted"), "\(accepted.stdout) \(accepted.stderr)")
        let compacted = try await Self.run(["compact", ledger, "2"]).stdout.split(separator: "\n").map(String.init)
        #expect(compacted.count == 3)
        // (The idle process holds the file it read: while it does, no new file can take
        // its number, so the reuse above cannot reach it.)
        #expect(FileManager.default.createFile(atPath: trigger, contents: Data()))
        let exit = await withCheckedContinuation { (continuation: CheckedContinuation<(status: Int32, signaled: Bool), Never>) in
            DispatchQueue.global().async { continuation.resume(returning: idle.wait()) }
        }
        #expect(exit.status == 0, "\(idle.stderr)")
        let verdict = idle.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(verdict.hasPrefix("refused") && verdict.contains("replay"), "the idle process: \(verdict)")
    }

    @Test("A hard-linked ledger (as cp -al makes) is refused through either name, by real processes")
    func aHardLinkedLedgerIsRefusedByProcesses() async throws {
        let folder = try CLI.temporaryFolder()
        let ledger = folder.appendingPathComponent("shop/ledger.json").path
        let callback = try await issueAndAnswer(ledger)
        // `cp -al shop copy`: every file of the folder gets a second name.
        let copy = folder.appendingPathComponent("copy").path
        let cp = try Child("/bin/cp", ["-al", folder.appendingPathComponent("shop").path, copy])
        #expect(cp.wait().status == 0)
        let linked = copy + "/ledger.json"
        for path in [ledger, linked] {
            let parse = try await CLI.run(["parse", "--ledger", path, callback])
            #expect(parse.status == 74, "\(path): \(parse.status) \(parse.stderr)")
            #expect(parse.stderr.contains("hard link"), "\(parse.stderr)")
        }
    }

    @Test("SIGKILL during compactions while another process issues and verifies: nothing acknowledged lost, each callback accepted once")
    func killedCompactions() async throws {
        let folder = try CLI.temporaryFolder()
        let ledger = folder.appendingPathComponent("ledger.json").path
        _ = try await issueAndAnswer(ledger)
        // A process compacting without pause, killed and started again, all along: on a
        // thread of its own (its waits must not hold the cooperative pool other tests need).
        let stop = Flag()
        let kills = Counter()
        let finished = DispatchSemaphore(value: 0)
        let probe = Self.probe
        Thread.detachNewThread {
            var round = 0
            while !stop.isSet {
                guard let child = try? Child(probe, ["compact", ledger, "100000"]) else { break }
                usleep(UInt32(20_000 + (round % 7) * 9_000))
                child.signal(SIGKILL)
                if child.wait().signaled { kills.increment() }
                round += 1
            }
            finished.signal()
        }
        var callbacks: [String] = []
        for _ in 0..<16 { callbacks.append(try await issueAndAnswer(ledger)) }
        // Two processes race for each callback while compactions are killed.
        for callback in callbacks {
            async let first = CLI.run(["parse", "--ledger", ledger, callback])
            async let second = CLI.run(["parse", "--ledger", ledger, callback])
            let statuses = [try await first.status, try await second.status].sorted()
            #expect(statuses == [0, 2], "\(statuses)")
        }
        stop.set()
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async { finished.wait(); continuation.resume() }
        }
        #expect(kills.value > 0, "no compaction was killed; the test proved nothing")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
        let check = try await CLI.run(["ledger", "check", ledger])
        #expect(check.status == 0, "\(check.stdout) \(check.stderr)")
        // The next write sweeps a killed compaction's temporary file.
        _ = try await issueAndAnswer(ledger)
        let after = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
        #expect(after.isEmpty, "temporary files remain: \(after) (before the last write: \(leftovers))")
    }

    @Test("chargekit ledger check names the damage of a zeroed block, pending marks the entries, --repair keeps the damaged file beside")
    func ledgerCheckAfterAPowerCut() async throws {
        let folder = try CLI.temporaryFolder()
        let ledger = folder.appendingPathComponent("ledger.json").path
        for index in 0..<30 {
            let request = try await CLI.run(CLI.exampleRequest() + ["--extra", "note=\(index)\(String(repeating: "x", count: 200))", "--ledger", ledger])
            #expect(request.status == 0, "\(request.stderr)")
        }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: ledger))
        #expect(bytes.count > 3 * 4096)
        bytes.replaceSubrange(4096..<8192, with: Data(count: 4096))
        try bytes.write(to: URL(fileURLWithPath: ledger))
        let check = try await CLI.run(["ledger", "check", ledger, "--json"])
        #expect(check.status == 65, "\(check.stdout) \(check.stderr)")
        let report = try JSONSerialization.jsonObject(with: Data(check.stdout.utf8)) as? [String: Any]
        let damage = report?["damage"] as? [[String: Any]]
        #expect(damage?.count == 1)
        #expect((damage?.first?["offset"] as? Int).map { $0 <= 4096 } == true && (damage?.first?["byte_count"] as? Int).map { $0 >= 4096 } == true)
        let marked = (report?["damaged_entries"] as? [[String: Any]])?.count ?? 0
        #expect(marked > 0)
        let pending = try await CLI.run(["pending", "--ledger", ledger, "--json"])
        #expect(pending.status == 0, "\(pending.stderr)")
        #expect(pending.stderr.contains("damaged bytes at byte"))
        let rows = try JSONSerialization.jsonObject(with: Data(pending.stdout.utf8)) as? [[String: Any]] ?? []
        #expect(rows.filter { $0["damaged"] as? Bool == true }.count == marked)
        let repair = try await CLI.run(["ledger", "check", ledger, "--repair"])
        #expect(repair.status == 0, "\(repair.stdout) \(repair.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).contains { $0.hasPrefix("ledger.json.damaged-") })
        let clean = try await CLI.run(["ledger", "check", ledger])
        #expect(clean.status == 0 && clean.stdout.contains("state unknown"), "\(clean.stdout)")
    }
}

final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
