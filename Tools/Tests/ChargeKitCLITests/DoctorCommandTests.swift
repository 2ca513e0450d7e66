import Foundation
import Testing

/// `chargekit doctor` as a developer runs it: every app given is checked, a hostile
/// binary plist costs no more than its size, and the file it could not read is named.
@Suite("chargekit doctor")
struct DoctorCommandTests {
    static func write(_ object: [String: Any], binary: Bool = false, to folder: URL, _ name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try PropertyListSerialization.data(fromPropertyList: object, format: binary ? .binary : .xml, options: 0).write(to: url)
        return url.path
    }

    static var base: [String: Any] { [
        "CFBundleURLTypes": [["CFBundleURLSchemes": ["my-shop"]]],
        "UIApplicationSceneManifest": ["UIApplicationSupportsMultipleScenes": false],
    ] }

    /// The app the checks are run for, and another (the first two registered).
    static var app: (name: String, scheme: String) { CLI.apps.first ?? ("", "") }
    static var other: (name: String, scheme: String) { CLI.apps.dropFirst().first ?? ("", "") }

    @Test("each --provider given is checked: a plist with one app's scheme is not ok for that app and another")
    func everyProviderIsChecked() async throws {
        #expect(CLI.apps.count >= 2)
        let folder = try CLI.temporaryFolder()
        var info = Self.base
        info["LSApplicationQueriesSchemes"] = [Self.other.scheme]
        let plist = try Self.write(info, to: folder, "Info.plist")
        let both = try await CLI.run(["doctor", "--plist", plist, "--provider", Self.app.name, "--provider", Self.other.name, "--return-url", "my-shop://paid"])
        #expect(both.status == 1 && both.stdout.contains("does not list \(Self.app.scheme)"), "\(both.status) \(both.stdout)")
        let one = try await CLI.run(["doctor", "--plist", plist, "--provider", Self.other.name, "--return-url", "my-shop://paid"])
        #expect(one.status == 0, "\(one.stdout)")
    }

    @Test("a binary plist whose references double at each level is refused at once (65), naming the file")
    func expandingPlist() async throws {
        let folder = try CLI.temporaryFolder()
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for level in 0..<30 {
            offsets.append(bytes.count)
            bytes += [0xA2, UInt8(level + 1), UInt8(level + 1)]
        }
        offsets.append(bytes.count)
        bytes.append(0xA0)
        let table = bytes.count
        bytes += offsets.map(UInt8.init) + [0, 0, 0, 0, 0, 0, 1, 1]
        for value in [offsets.count, 0, table] { bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        let bomb = folder.appendingPathComponent("Bomb-Info.plist")
        try Data(bytes).write(to: bomb)
        let outcome = try await CLI.run(["doctor", "--plist", bomb.path, "--provider", Self.app.name, "--return-url", "my-shop://paid"], killAfter: 30)
        #expect(!outcome.killed, "doctor expanded the plist")
        #expect(outcome.status == 65 && outcome.stderr.contains("Bomb-Info.plist: is a binary property list whose references expand"),
                "\(outcome.status) \(outcome.stderr)")
        let garbage = folder.appendingPathComponent("App.entitlements")
        try Data("not a plist".utf8).write(to: garbage)
        let good = try Self.write(Self.base, to: folder, "Info.plist")
        let named = try await CLI.run(["doctor", "--plist", good, "--provider", Self.app.name, "--return-url", "https://shop.example/paid",
                                       "--entitlements", garbage.path])
        #expect(named.status == 65 && named.stderr.contains("App.entitlements:") && !named.stderr.contains("Info.plist"), "\(named.stderr)")
    }

    @Test("an associated domain that only starts with the host does not cover it; an https return URL needs a host")
    func associatedDomains() async throws {
        let folder = try CLI.temporaryFolder()
        var info = Self.base
        info["LSApplicationQueriesSchemes"] = [Self.app.scheme]
        let plist = try Self.write(info, to: folder, "Info.plist")
        let lookalike = try Self.write(["com.apple.developer.associated-domains": ["applinks:pay.example.com.attacker.net"]], to: folder, "a.entitlements")
        let outcome = try await CLI.run(["doctor", "--plist", plist, "--provider", Self.app.name, "--return-url", "https://pay.example.com/paid",
                                         "--entitlements", lookalike])
        #expect(outcome.status == 1 && outcome.stdout.contains("has no applinks:pay.example.com"), "\(outcome.stdout)")
        let hostless = try await CLI.run(["doctor", "--plist", plist, "--provider", Self.app.name, "--return-url", "https:///paid", "--entitlements", lookalike])
        #expect(hostless.status == 64 && hostless.stderr.contains("must name a host"), "\(hostless.status) \(hostless.stderr)")
    }

    @Test("pending on a missing ledger says so (74) and makes no lock; resolve --outcome failed is a usage error (64)")
    func smallGuards() async throws {
        let folder = try CLI.temporaryFolder()
        let missing = folder.appendingPathComponent("nowhere/ledger.json").path
        let pending = try await CLI.run(["pending", "--ledger", missing])
        #expect(pending.status == 74 && pending.stderr.contains("there is no ledger file here"), "\(pending.status) \(pending.stderr)")
        #expect(!FileManager.default.fileExists(atPath: missing + ".lock") && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("nowhere").path))
        let help = try await CLI.run(["resolve", "--help"])
        #expect(help.stdout.contains("cancelled") && !help.stdout.contains("failed"), "\(help.stdout)")
        let failed = try await CLI.run(["resolve", "AAAAAAAAAAAAAAAAAAAAAAAAAAA", "--ledger", missing, "--outcome", "failed", "--note", "n"])
        #expect(failed.status == 64 && failed.stderr.contains("--outcome must be approved, declined or cancelled"), "\(failed.status) \(failed.stderr)")
    }

    @Test("the scene-manifest fix names the scene delegate class, for a Swift app and for an Objective-C app")
    func sceneManifestFixNamesTheDelegate() async throws {
        let folder = try CLI.temporaryFolder()
        var info = Self.base
        info["UIApplicationSceneManifest"] = nil
        info["LSApplicationQueriesSchemes"] = [Self.app.scheme]
        let plist = try Self.write(info, to: folder, "Info.plist")
        let doctor = try await CLI.run(["doctor", "--plist", plist, "--provider", Self.app.name, "--return-url", "my-shop://paid", "--json"])
        #expect(doctor.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(doctor.stdout.utf8)) as? [String: Any])
        let fix = ((report["findings"] as? [[String: Any]]) ?? []).first { $0["key"] as? String == "UIApplicationSceneManifest" }?["fix"] as? String ?? ""
        #expect(fix.contains("<key>UISceneDelegateClassName</key>") && fix.contains("$(PRODUCT_MODULE_NAME).SceneDelegate")
                && fix.contains("Objective-C app") && fix.contains("SceneDelegate (its name alone"), "\(fix)")
        // The fix, pasted, satisfies the doctor.
        let pasted = "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict>\(fix)</dict></plist>"
        let manifest = try #require(try PropertyListSerialization.propertyList(from: Data(pasted.utf8), format: nil) as? [String: Any])
        info["UIApplicationSceneManifest"] = manifest["UIApplicationSceneManifest"]
        let fixed = try Self.write(info, to: folder, "Fixed.plist")
        #expect(try await CLI.run(["doctor", "--plist", fixed, "--provider", Self.app.name, "--return-url", "my-shop://paid"]).status == 0)
    }
}
