import Foundation
import Testing

@Suite("chargekit parse and request")
struct ParseCommandTests {
    @Test("Text output escapes control characters: a %0A in a field cannot forge a line")
    func textOutputIsEscaped() async throws {
        let forged = "com-your-app://action/?note=x%0Averified:%20yes%1B[31m&ifcc_responseType=cancelled"
        let outcome = try await CLI.run(["parse", forged])
        #expect(outcome.status == 0)
        let lines = outcome.stdout.split(separator: "\n")
        #expect(lines.filter { $0.hasPrefix("verified:") }.count == 1)
        #expect(outcome.stdout.contains(#"extra note: x\nverified: yes\u{1B}[31m"#))
        #expect(!outcome.stdout.contains("\u{1B}"))
    }

    @Test("request with nothing to send exits 64 with the subcommand's usage; --version answers")
    func nothingToSendAndVersion() async throws {
        let app = try #require(CLI.apps.first).name
        let empty = try await CLI.run(["request", app])
        #expect(empty.status == 64 && empty.stdout.isEmpty, "\(empty.stdout)")
        #expect(empty.stderr.contains("nothing to send") && empty.stderr.contains("chargekit request \(app)"))
        let version = try await CLI.run(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("chargekit "))
    }

    @Test("The ledger's folder is created, owner-only")
    func ledgerFolderIsCreated() async throws {
        let folder = try CLI.temporaryFolder().appendingPathComponent("Application Support/Shop", isDirectory: true)
        let ledger = folder.appendingPathComponent("ledger.json").path
        let outcome = try await CLI.run(CLI.exampleRequest(amount: "1.00") + ["--ledger", ledger])
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let file = try FileManager.default.attributesOfItem(atPath: ledger)
        #expect((file[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let lock = try FileManager.default.attributesOfItem(atPath: ledger + ".lock")
        #expect((lock[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let dir = try FileManager.default.attributesOfItem(atPath: folder.path)
        #expect((dir[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    }
}

@Suite("chargekit sandbox serve options")
struct SandboxOptionTests {
    @Test(arguments: [
        ["--charge-ttl", "1e19"], ["--charge-ttl", "nan"], ["--charge-ttl", "-5"], ["--charge-ttl", "inf"], ["--charge-ttl", "0"],
        ["--token-ttl", "1e300"], ["--ipn-retry", "inf"], ["--ipn-retry", "1,nan"], ["--ipn-retry", "-1"], ["--ipn-retry", "1,,2"],
        ["--port", "70000"], ["--port", "-1"],
        ["--request-timeout", "0"], ["--request-timeout", "inf"], ["--max-connections", "0"], ["--max-connections", "100000"],
    ])
    func numericOptionsAreCheckedBeforeUse(option: [String]) async throws {
        let folder = try CLI.temporaryFolder()
        let outcome = try await CLI.run(["sandbox", "serve", "--port", "0", "--db", folder.appendingPathComponent("s.sqlite").path] + option)
        #expect(outcome.status == 64, "\(option): \(outcome.status) \(outcome.stderr)")
        #expect(outcome.stderr.contains(option[0]), "the error names the option: \(outcome.stderr)")
    }
}
