import Foundation
import Testing

/// Each target an app links ships a privacy manifest Apple's review accepts: read as a
/// property list, with the required-reason API categories its sources really call.
@Suite("Privacy manifests and the Swift Package Index manifest")
struct PrivacyManifestTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The library products' targets, from the manifest as SwiftPM reads it.
    static func sdkTargets() throws -> [String] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        let targets = manifest.split(separator: "\n").compactMap { line -> String? in
            guard line.contains(".target(name: \""), let start = line.range(of: ".target(name: \"") else { return nil }
            return String(line[start.upperBound...].prefix { $0 != "\"" })
        }
        return targets
    }

    /// Calls of Apple's required-reason APIs, by category (Apple's list, the parts a
    /// Swift package could reach).
    static let categories: [(category: String, calls: [String])] = [
        ("NSPrivacyAccessedAPICategoryFileTimestamp", ["stat(", "fstat(", "lstat(", "getattrlist(", "creationDate", "modificationDate"]),
        ("NSPrivacyAccessedAPICategorySystemBootTime", ["systemUptime", "mach_absolute_time("]),
        ("NSPrivacyAccessedAPICategoryDiskSpace", ["volumeAvailableCapacity", "statfs(", "systemFreeSize"]),
        ("NSPrivacyAccessedAPICategoryUserDefaults", ["UserDefaults"]),
        ("NSPrivacyAccessedAPICategoryActiveKeyboards", ["activeInputModes"]),
    ]

    @Test("Every SDK target has a PrivacyInfo.xcprivacy: no tracking, no collected data, and exactly the API categories its code calls")
    func everyTargetDeclaresWhatItCalls() throws {
        let targets = try Self.sdkTargets()
        #expect(targets.contains("ChargeKit") && targets.contains("CitconUPI") && targets.contains("ChargeKitObjC"))
        for target in targets {
            let folder = Self.root.appendingPathComponent("Sources/\(target)")
            let data = try Data(contentsOf: folder.appendingPathComponent("PrivacyInfo.xcprivacy"))
            let plist = try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any], "\(target)")
            #expect(plist["NSPrivacyTracking"] as? Bool == false, "\(target)")
            #expect((plist["NSPrivacyTrackingDomains"] as? [Any])?.isEmpty == true, "\(target)")
            #expect((plist["NSPrivacyCollectedDataTypes"] as? [Any])?.isEmpty == true, "\(target)")
            let declared = try #require(plist["NSPrivacyAccessedAPITypes"] as? [[String: Any]], "\(target)")
            var reasons: [String: [String]] = [:]
            for entry in declared {
                let category = try #require(entry["NSPrivacyAccessedAPIType"] as? String)
                reasons[category] = entry["NSPrivacyAccessedAPITypeReasons"] as? [String] ?? []
                #expect(reasons[category]?.isEmpty == false, "\(target): \(category) without a reason")
            }
            // What the target's sources call.
            var source = ""
            for file in FileManager.default.enumerator(atPath: folder.path)?.compactMap({ $0 as? String }) ?? [] where file.hasSuffix(".swift") {
                source += try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
            }
            for (category, calls) in Self.categories {
                let calls = calls.filter { call in source.contains(call) && (call != "stat(" || source.range(of: #"[^a-z_.]stat\("#, options: .regularExpression) != nil) }
                #expect((reasons[category] != nil) == !calls.isEmpty, "\(target): \(category) declared \(reasons[category] != nil), calls \(calls)")
            }
        }
        // The ledger's file status calls read its own file in the app's container: C617.1.
        let ledger = try #require(try PropertyListSerialization.propertyList(
            from: Data(contentsOf: Self.root.appendingPathComponent("Sources/ChargeKit/PrivacyInfo.xcprivacy")), format: nil) as? [String: Any])
        let fileTimestamp = (ledger["NSPrivacyAccessedAPITypes"] as? [[String: Any]])?.first
        #expect(fileTimestamp?["NSPrivacyAccessedAPITypeReasons"] as? [String] == ["C617.1"])
    }

    @Test(".spi.yml names the documentation targets")
    func swiftPackageIndexManifest() throws {
        let text = try String(contentsOf: Self.root.appendingPathComponent(".spi.yml"), encoding: .utf8)
        #expect(text.contains("version: 1"))
        for target in ["ChargeKit", "CitconUPI", "ChargeKitSimulators", "ChargeKitTesting"] {
            #expect(text.contains("documentation_targets:") && text.contains(target), "\(target)")
        }
    }
}
