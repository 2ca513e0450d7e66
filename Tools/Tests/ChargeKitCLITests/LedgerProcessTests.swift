import Foundation
import Testing
import ToolsPlatform

/// The file ledger shared by real `chargekit` processes: each issued charge kept, each
/// callback accepted exactly once, and a process killed mid-write loses nothing
/// acknowledged.
@Suite("Ledger across processes", .serialized)
struct LedgerProcessTests {
    func request(_ ledger: String, _ index: Int) -> [String] {
        CLI.exampleRequest() + ["--extra", "n=\(index)", "--ledger", ledger]
    }

    @Test("Many processes issue and verify on one ledger file: every charge accepted exactly once, no replay")
    func concurrentProcesses() async throws {
        let folder = try CLI.temporaryFolder()
        try await race(ledger: folder.appendingPathComponent("ledger.json").path)
    }

    #if PostgreSQL
    @Test("The same race on PostgreSQL: many processes, each its own instance of the checkout, on one database",
          .enabled(if: ProcessInfo.processInfo.environment["CHARGEKIT_POSTGRES_URL"] != nil,
                   "CHARGEKIT_POSTGRES_URL is not set (run scripts/postgres.sh start and export it)"))
    func concurrentProcessesOnPostgres() async throws {
        let url = try #require(ProcessInfo.processInfo.environment["CHARGEKIT_POSTGRES_URL"])
        let prefix = "race" + UUID().uuidString.prefix(8).lowercased().replacingOccurrences(of: "-", with: "") + "_"
        try await race(ledger: url + "?table_prefix=" + prefix)
    }
    #else
    @Test("Without the PostgreSQL trait, a postgres:// ledger or database is refused with the command that builds it in")
    func postgresNeedsItsTrait() async throws {
        let ledger = try await CLI.run(["pending", "--ledger", "postgres://shop@127.0.0.1:1/shop"])
        #expect(ledger.status == 74, "\(ledger.status): \(ledger.stderr)")
        #expect(ledger.stderr.contains("--ledger names PostgreSQL") && ledger.stderr.contains("--traits PostgreSQL"), "\(ledger.stderr)")
        let sandbox = try await CLI.run(["sandbox", "serve", "--port", "0", "--db", "postgres://upi@127.0.0.1:1/upi"])
        #expect(sandbox.status == 69, "\(sandbox.status): \(sandbox.stderr)")
        #expect(sandbox.stderr.contains("--db names PostgreSQL") && sandbox.stderr.contains("--traits PostgreSQL"), "\(sandbox.stderr)")
    }
    #endif

    /// Twelve `request` processes at once, then four `parse` processes racing for each callback.
    func race(ledger: String) async throws {
        let count = 12
        // Every request process at once: none may lose another's charge.
        let urls = try await withThrowingTaskGroup(of: CLI.Outcome.self) { group in
            for index in 0..<count { group.addTask { try await CLI.run(request(ledger, index)) } }
            var urls: [String] = []
            for try await outcome in group {
                #expect(outcome.status == 0, "request failed: \(outcome.stderr)")
                urls.append(outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
            }
            return urls
        }
        #expect(Set(urls).count == count)
        var callbacks: [String] = []
        for url in urls {
            let simulated = try await CLI.run(["simulate", url, "--outcome", "approved"])
            #expect(simulated.status == 0, "\(simulated.stderr)")
            callbacks.append(simulated.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        // Four processes race to verify each callback, all callbacks at once.
        let verdicts = try await withThrowingTaskGroup(of: (String, Int32).self) { group in
            for callback in callbacks {
                for _ in 0..<4 {
                    group.addTask { (callback, try await CLI.run(["parse", "--ledger", ledger, "--json", callback]).status) }
                }
            }
            var verdicts: [String: [Int32]] = [:]
            for try await (callback, status) in group { verdicts[callback, default: []].append(status) }
            return verdicts
        }
        for callback in callbacks {
            let statuses = verdicts[callback] ?? []
            #expect(statuses.filter { $0 == 0 }.count == 1, "accepted \(statuses.filter { $0 == 0 }.count) times: \(statuses)")
            #expect(statuses.filter { $0 == 2 }.count == 3, "\(statuses)")
        }
        // And later replays are refused too.
        let replay = try await CLI.run(["parse", "--ledger", ledger, try #require(callbacks.first)])
        #expect(replay.status == 2)
        #expect(replay.stderr.contains("replay"))
    }

    @Test("SIGKILL at any point of a ledger write: the ledger loads and keeps every acknowledged charge")
    func killedWriters() async throws {
        let folder = try CLI.temporaryFolder()
        let ledger = folder.appendingPathComponent("ledger.json").path
        // One writer that is not killed, timed: the kills below are spread around this
        // machine's own time for a write, so they land mid-write on a fast machine and a
        // loaded one alike (fixed delays once all fell before the first write on CI).
        let started = ContinuousClock.now
        let first = try await CLI.run(request(ledger, 9_999))
        let elapsed = ContinuousClock.now - started
        let base = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        #expect(first.status == 0, "\(first.stderr)")
        var acknowledged = [first.stdout.trimmingCharacters(in: .whitespacesAndNewlines)]
        var kills = 0
        // The first process may have been slow (a cold start on a loaded machine): a
        // round in which no writer was killed brings the moments earlier.
        var scale = base
        for round in 0..<24 {
            // Three writers at once, killed at staggered moments around their write.
            let delays = [0.3, 0.6, 0.9].map { scale * ($0 + Double(round % 6) * 0.08) }
            let outcomes = try await withThrowingTaskGroup(of: CLI.Outcome.self) { group in
                for (index, delay) in delays.enumerated() {
                    group.addTask { try await CLI.run(request(ledger, round * 10 + index), killAfter: delay) }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            if !outcomes.contains(where: \.killed) { scale *= 0.6 }
            for outcome in outcomes {
                if outcome.killed { kills += 1 }
                let url = outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
                if outcome.status == 0, !url.isEmpty { acknowledged.append(url) }
            }
            // The ledger still loads: a later process can verify against it.
            let check = try await CLI.run(["parse", "--ledger", ledger, "my-app://done?n=0&ifcc_request_nonce=AAAAAAAAAAAAAAAAAAAAAAAAAAA&ifcc_responseType=cancelled"])
            #expect(check.status == 2)
            #expect(check.stderr.contains("not issued by this ledger"), "ledger unreadable after a kill: \(check.stderr)")
        }
        #expect(kills > 0, "no writer was killed; the test proved nothing")
        // A killed writer's temporary file (one is planted in case no kill left one) is
        // removed by the next write.
        try Data("{".utf8).write(to: folder.appendingPathComponent(".ledger.json.99999.1.tmp"))
        let last = try await CLI.run(request(ledger, 9_998))
        #expect(last.status == 0, "\(last.stderr)")
        acknowledged.append(last.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        // Every charge a process acknowledged (printed its URL) is answered exactly once.
        for url in acknowledged {
            let callback = try await CLI.run(["simulate", url, "--outcome", "declined"]).stdout
                .trimmingCharacters(in: .whitespacesAndNewlines)
            let verdict = try await CLI.run(["parse", "--ledger", ledger, callback])
            #expect(verdict.status == 0, "acknowledged charge lost: \(verdict.stderr)")
        }
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty, "temporary files of killed writers remain: \(leftovers)")
        // The ledger holds secrets of a sort: owner-only.
        let attributes = try FileManager.default.attributesOfItem(atPath: ledger)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
    }
}
