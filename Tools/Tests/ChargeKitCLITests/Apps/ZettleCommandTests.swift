import Foundation
import Testing

/// Zettle through `chargekit`: the operation an api/ callback answers, its error messages, and doctor's notice of the retired scheme.
@Suite("chargekit and Zettle")
struct ZettleCommandTests {
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
    }

    @Test("parse --json splits a 3.0 error message into its domain, code and message")
    func errorMessageSplit() async throws {
        let zettle = "my-app://ko?errorMessage=com.izettle.payment.error(5)%20-%20Card%20declined"
        let zettleParsed = try await CLI.run(["parse", "--json", "--provider", "zettle", zettle])
        #expect(zettleParsed.status == 0, "\(zettleParsed.stderr)")
        let zettleJSON = try #require(try JSONSerialization.jsonObject(with: Data(zettleParsed.stdout.utf8)) as? [String: Any])
        #expect(zettleJSON["errorDomain"] as? String == "com.izettle.payment.error")
        #expect(zettleJSON["errorCode"] as? String == "5")
        #expect(zettleJSON["message"] as? String == "Card declined")
    }

    @Test("doctor --provider zettle says the vendor deprecated the URL scheme (a note, not a finding)")
    func zettleIsLegacy() async throws {
        let folder = try CLI.temporaryFolder()
        var info = DoctorCommandTests.base
        info["LSApplicationQueriesSchemes"] = ["izettle"]
        let plist = try DoctorCommandTests.write(info, to: folder, "Info.plist")
        let doctor = try await CLI.run(["doctor", "--plist", plist, "--provider", "zettle", "--return-url", "my-shop://paid"])
        #expect(doctor.status == 0 && doctor.stdout.contains("note: Zettle: legacy") && doctor.stdout.contains("deprecated"), "\(doctor.stdout)")
        let json = try await CLI.run(["doctor", "--plist", plist, "--provider", "zettle", "--return-url", "my-shop://paid", "--json"])
        let report = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((report["notices"] as? [String])?.first?.contains("recommends its SDK") == true, "\(json.stdout)")
    }
}
