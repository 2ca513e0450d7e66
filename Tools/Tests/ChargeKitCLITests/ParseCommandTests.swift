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

    @Test("parse --json reports the operation asked; a Zettle refund is not a sale")
    func operationKey() async throws {
        let folder = try CLI.temporaryFolder()
        let ledger = folder.appendingPathComponent("l.json").path
        let url = try await CLI.run([
            "request", "zettle", "--api", "refund", "--original-reference", "R-1", "--reference", "R-2",
            "--callback-success", "my-app://ok", "--callback-failure", "my-app://ko", "--ledger", ledger,
        ])
        #expect(url.status == 0, "\(url.stderr)")
        let callback = try await CLI.run(["simulate", url.stdout.trimmingCharacters(in: .whitespacesAndNewlines)])
        let parsed = try await CLI.run(["parse", "--json", "--ledger", ledger, callback.stdout.trimmingCharacters(in: .whitespacesAndNewlines)])
        #expect(parsed.status == 0, "\(parsed.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [String: Any])
        #expect(json["operation"] as? String == "refund")
        #expect(json["verified"] as? Bool == true)
        let seed = "com-your-app://action/?ifcc_responseType=approved&ifcc_transactionId=100001&ifcc_amount=10.99&ifcc_currency=USD&ifcc_redactedCardNumber=XXXXXXXXXXXX1111&ifcc_cardType=Visa"
        let plain = try await CLI.run(["parse", "--json", seed])
        let plainJSON = try #require(try JSONSerialization.jsonObject(with: Data(plain.stdout.utf8)) as? [String: Any])
        #expect(plainJSON["operation"] as? String == "charge")
    }

    @Test("parse --json gains the real apps' fields (protocol notes §5), every earlier key kept")
    func realWorldKeys() async throws {
        let sumUp = "https://shop.example/done?smp-status=failed&smp-tx-code=TX9&smp-receipt-sent=false"
            + "&smp-failure-cause=geolocation-required&smp-message=Location%20needed&smp-new-thing=1#frag"
        let parsed = try await CLI.run(["parse", "--json", sumUp])
        #expect(parsed.status == 0, "\(parsed.stderr)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(parsed.stdout.utf8)) as? [String: Any])
        #expect(json["outcome"] as? String == "declined")
        #expect(json["failureCause"] as? String == "geolocation-required")
        #expect(json["receiptSent"] as? Bool == false)
        #expect(json["message"] as? String == "Location needed")
        #expect(json["smp-message"] as? String == "Location needed")
        #expect((json["unknownFields"] as? [String: String]) == ["smp-new-thing": "1"])
        let zettle = "my-app://ko?errorMessage=com.izettle.payment.error(5)%20-%20Card%20declined"
        let zettleParsed = try await CLI.run(["parse", "--json", "--provider", "zettle", zettle])
        #expect(zettleParsed.status == 0, "\(zettleParsed.stderr)")
        let zettleJSON = try #require(try JSONSerialization.jsonObject(with: Data(zettleParsed.stdout.utf8)) as? [String: Any])
        #expect(zettleJSON["errorDomain"] as? String == "com.izettle.payment.error")
        #expect(zettleJSON["errorCode"] as? String == "5")
        #expect(zettleJSON["message"] as? String == "Card declined")
    }

    @Test("request with nothing to send exits 64 with the subcommand's usage; --version answers")
    func nothingToSendAndVersion() async throws {
        let empty = try await CLI.run(["request", "ccterminal"])
        #expect(empty.status == 64 && empty.stdout.isEmpty, "\(empty.stdout)")
        #expect(empty.stderr.contains("nothing to send") && empty.stderr.contains("chargekit request ccterminal"))
        let version = try await CLI.run(["--version"])
        #expect(version.status == 0 && version.stdout.hasPrefix("chargekit "))
    }

    @Test("request refuses a return URL the app would refuse (an invalid value, 64): over 2048 bytes once extras and nonce are on it")
    func longReturnURL() async throws {
        let folder = try CLI.temporaryFolder()
        let ledger = folder.appendingPathComponent("l.json").path
        let returnURL = "my-app://done/" + String(repeating: "a", count: 2000)
        let outcome = try await CLI.run(["request", "ccterminal", "--amount", "1.00", "--return-url", returnURL, "--extra", "k=v", "--ledger", ledger])
        #expect(outcome.status == 64)
        #expect(outcome.stderr.contains("returnURL: longer than 2048"))
        #expect(outcome.stdout.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: ledger))
    }

    @Test("The ledger's folder is created, owner-only")
    func ledgerFolderIsCreated() async throws {
        let folder = try CLI.temporaryFolder().appendingPathComponent("Application Support/Shop", isDirectory: true)
        let ledger = folder.appendingPathComponent("ledger.json").path
        let outcome = try await CLI.run(["request", "ccterminal", "--amount", "1.00", "--return-url", "my-app://done", "--ledger", ledger])
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
