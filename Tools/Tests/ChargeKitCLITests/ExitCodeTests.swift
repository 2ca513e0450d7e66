import Foundation
import ProcessSupport
import Testing

/// The exit-status table of the `chargekit` tool (CommandLineTool.md), one case per row.
@Suite("chargekit exit-status table")
struct ExitCodeTests {
    /// The seed's Credit Card Terminal response: a valid callback.
    static let seedResponse = "com-innerfence-ChargeDemo://chargeResponse?ifcc_amount=50.00&ifcc_cardType=Visa&ifcc_currency=USD"
        + "&ifcc_redactedCardNumber=XXXXXXXXXXXX1111&ifcc_responseType=approved&ifcc_taxAmount=4.25&ifcc_taxRate=8.5"
        + "&ifcc_tipAmount=0.00&ifcc_transactionId=1234&record_id=123"
    static let unknownNonce = "my-app://done?ifcc_request_nonce=AAAAAAAAAAAAAAAAAAAAAAAAAAA&ifcc_responseType=cancelled"

    @Test("0: success, and a valid callback whatever its outcome")
    func zero() async throws {
        let outcome = try await CLI.run(["parse", Self.seedResponse])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let declined = try await CLI.run(["parse", "com-innerfence-ChargeDemo://chargeResponse?ifcc_responseType=declined&record_id=123"])
        #expect(declined.status == 0, "\(declined.stderr)")
    }

    @Test("1: upi, no answer from the server (a transport error)")
    func one() async throws {
        let outcome = try await CLI.run(["upi", "inquire", "--base-url", "http://127.0.0.1:1/v1", "--token", "t", "--id", "1"])
        #expect(outcome.status == 1, "\(outcome.status) \(outcome.stderr)")
    }

    @Test("2: a refused callback (unknown nonce, malformed), reason on stderr")
    func two() async throws {
        let ledger = try CLI.temporaryFolder().appendingPathComponent("ledger.json").path
        let forged = try await CLI.run(["parse", "--ledger", ledger, Self.unknownNonce])
        #expect(forged.status == 2 && forged.stderr.contains("chargekit:"), "\(forged.stderr)")
        let malformed = try await CLI.run(["parse", "my-app://done?ifcc_responseType=approved"])
        #expect(malformed.status == 2 && malformed.stderr.contains("ifcc_amount"), "\(malformed.stderr)")
    }

    @Test("64: an invalid flag or value, with the subcommand's own usage line", arguments: [
        CLI.exampleRequest() + ["--bogus"],
        CLI.exampleRequest(amount: "abc"),
        ["parse", "--provider", "nope", "my-app://done"],
        ["simulate", "--outcome", "maybe", "my-app://done"],
    ])
    func sixtyFour(arguments: [String]) async throws {
        let outcome = try await CLI.run(arguments)
        #expect(outcome.status == 64, "\(arguments): \(outcome.status) \(outcome.stderr)")
        let command = "chargekit " + arguments.prefix(while: { !$0.hasPrefix("-") && !$0.contains(":") }).joined(separator: " ")
        #expect(outcome.stderr.contains("Usage: \(command)"), "\(arguments): usage of '\(command)' expected in \(outcome.stderr)")
        #expect(outcome.stdout.isEmpty)
    }

    @Test("65: a corrupt ledger")
    func sixtyFive() async throws {
        let corrupt = try CLI.temporaryFolder().appendingPathComponent("corrupt.json")
        try Data("not json".utf8).write(to: corrupt)
        #expect(try await CLI.run(["parse", "--ledger", corrupt.path, Self.unknownNonce]).status == 65)
        #expect(try await CLI.run(CLI.exampleRequest(amount: "1.00") + ["--ledger", corrupt.path]).status == 65)
    }

    @Test("74: a storage or I/O failure")
    func seventyFour() async throws {
        let folderAsFile = try CLI.temporaryFolder().appendingPathComponent("dir.json")
        try FileManager.default.createDirectory(at: folderAsFile, withIntermediateDirectories: true)
        #expect(try await CLI.run(["parse", "--ledger", folderAsFile.path, Self.unknownNonce]).status == 74)
        #expect(try await CLI.run(CLI.exampleRequest(amount: "1.00") + ["--ledger", folderAsFile.path]).status == 74)
    }

    @Test("69: chargekit alone, without chargekit-server beside it, for the commands that run there",
          arguments: [["sandbox", "serve"], ["upi", "token"], ["demo", "--provider", "citcon"],
                      ["parse", "--ledger", "postgres://u@127.0.0.1:1/db", "my-app://done"]])
    func sixtyNine(arguments: [String]) async throws {
        // A copy of chargekit in a folder of its own: no chargekit-server beside it.
        let folder = try CLI.temporaryFolder()
        let alone = folder.appendingPathComponent("chargekit")
        try FileManager.default.copyItem(at: CLI.executable, to: alone)
        // A process forked by a test running beside this one may still hold the copy's
        // write descriptor for a moment ("Text file busy"): try again briefly.
        var started: Child?
        for _ in 0..<100 where started == nil {
            do { started = try Child(alone.path, arguments) } catch let error as NSError where error.code == Int(ETXTBSY) {
                try await Task.sleep(for: .milliseconds(20))
            }
        }
        let child = try #require(started)
        let exit = child.wait()
        #expect(exit.status == 69, "\(exit.status) \(child.stderr)")
        // A PostgreSQL URL needs the server built with the trait that compiles its driver.
        let build = arguments.contains { $0.hasPrefix("postgres://") }
            ? "swift build --package-path Tools --traits PostgreSQL --product chargekit-server"
            : "swift build --package-path Tools --product chargekit-server"
        #expect(child.stderr.contains(build), "\(child.stderr)")
        // Beside it, the same arguments reach chargekit-server (its own answer, not 69).
        let handed = try await CLI.run(arguments + ["--help"])
        #expect(handed.status == 0, "\(handed.stderr)")
    }

    @Test("every option of every command has help text")
    func everyOptionHasHelp() async throws {
        let dump = try await CLI.run(["--experimental-dump-help"])
        #expect(dump.status == 0)
        let json = try JSONSerialization.jsonObject(with: Data(dump.stdout.utf8)) as? [String: Any]
        var missing: [String] = []
        func walk(_ command: [String: Any], _ path: String) {
            for argument in command["arguments"] as? [[String: Any]] ?? [] {
                let names = (argument["names"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
                if names.contains("help") || names.contains("version") || path.hasSuffix(" help") { continue }
                if ((argument["abstract"] as? String) ?? "").trimmingCharacters(in: .whitespaces).isEmpty {
                    missing.append("\(path) \(names.first ?? (argument["valueName"] as? String ?? "?"))")
                }
            }
            for sub in command["subcommands"] as? [[String: Any]] ?? [] {
                walk(sub, path + " " + ((sub["commandName"] as? String) ?? "?"))
            }
        }
        walk(json?["command"] as? [String: Any] ?? [:], "chargekit")
        #expect(json?["command"] != nil)
        #expect(missing.isEmpty, "options without help: \(missing)")
    }

    @Test("the outcome is spelled the same in simulate --outcome and the JSON; the old 'error' is still accepted")
    func outcomeSpelling() async throws {
        let request = try await CLI.run(CLI.exampleRequest(amount: "1.00"))
        #expect(request.status == 0)
        let url = request.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        for spelling in ["failed", "error"] {
            let simulated = try await CLI.run(["simulate", "--outcome", spelling, url])
            #expect(simulated.status == 0, "\(spelling): \(simulated.stderr)")
            let parsed = try await CLI.run(["parse", "--json", simulated.stdout.trimmingCharacters(in: .whitespacesAndNewlines)])
            #expect(parsed.stdout.contains("\"outcome\":\"failed\"") || parsed.stdout.contains("\"outcome\" : \"failed\""),
                    "\(spelling): \(parsed.stdout)")
        }
    }
}
