// A process that holds a file ledger the way an app does, for the multi-process tests
// (Tools/Tests/ChargeKitCLITests/LedgerMachineTests.swift) and scripts/ledger-syscalls.sh.
//
//   LedgerProbe compact <ledger> <times>             compacts; prints the journal's inode before and after each
//   LedgerProbe idle <ledger> <callback> <trigger>   loads the ledger, prints "ready", waits for the trigger
//                                                    file, then verifies the callback: "accepted" or "refused: …"
//   LedgerProbe verify <ledger> <callback>           verifies: "accepted" or "refused: …"
//   LedgerProbe steps <ledger> <count>               issue + verify <count> times after a warm-up, "begin"/"end"
//                                                    written to standard error around them (for strace)
@_spi(Tools) import ChargeKit
import ChargeKitSimulators
import Foundation
import ToolsPlatform

func inode(_ path: String) -> String {
    var status = stat()
    return stat(path, &status) == 0 ? String(status.st_ino) : "none"
}

/// One line on standard output, written at once (the tests read it through a pipe).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

func verdict(_ ledger: ChargeLedger, _ callback: String) async -> String {
    do throws(ChargeKitError) {
        _ = try await ledger.verify(url: callback)
        return "accepted"
    } catch {
        return "refused: \(error)"
    }
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count >= 2, let command = arguments.first, let path = arguments.dropFirst().first else {
    FileHandle.standardError.write(Data("usage: LedgerProbe compact|idle|verify|steps <ledger> …\n".utf8))
    exit(64)
}
let rest = Array(arguments.dropFirst(2))
let store = FileLedgerStore(path: path)
let ledger = ChargeLedger(store: store)
do {
    switch command {
    case "compact":
        say(inode(path))
        for _ in 0..<(Int(rest.first ?? "1") ?? 1) {
            try await store.repair()
            say(inode(path))
        }
    case "idle":
        guard rest.count == 2 else { exit(64) }
        _ = try await store.charges()
        say("ready \(inode(path))")
        while !FileManager.default.fileExists(atPath: rest[1]) { usleep(20_000) }
        say(await verdict(ledger, rest[0]))
    case "verify":
        guard let callback = rest.first else { exit(64) }
        say(await verdict(ledger, callback))
    case "steps":
        let count = Int(rest.first ?? "100") ?? 100
        // The registry's first app, as a shop would hand off to it.
        guard let simulator = SimulatedApps.registered.first else { exit(1) }
        let app = simulator.sampleApp(callbackURL: "my-app://done")
        let order = ChargeOrder(amount: try Money(parsing: "5.00", currency: .eur), description: "Probe", reference: "probe")
        @Sendable func round() async throws {
            let issued = try await ledger.issue { nonce throws(ChargeKitError) in try app.handoff(for: order, nonce: nonce) }
            var apps = SimulatedApps()
            _ = try await ledger.verify(url: try apps.respond(to: issued.request.url, outcome: .approved, options: AnswerOptions()))
        }
        for _ in 0..<20 { try await round() }
        FileHandle.standardError.write(Data("begin\n".utf8))
        for _ in 0..<count { try await round() }
        FileHandle.standardError.write(Data("end\n".utf8))
    default:
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("LedgerProbe: \(error)\n".utf8))
    exit(1)
}
