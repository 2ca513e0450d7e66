@_spi(Tools) @testable import ChargeKit
import CitconUPI
import Foundation
import Testing

/// `AppConfiguration.check`: each mistake that loses a sale is named, in XML and in
/// binary property lists.
@Suite struct AppConfigurationTests {
    static var complete: [String: Any] { [
        "LSApplicationQueriesSchemes": PaymentProvider.allCases.map(\.queriedScheme),
        "CFBundleURLTypes": [["CFBundleURLName": "shop", "CFBundleURLSchemes": ["my-shop"]]],
        "UIApplicationSceneManifest": ["UIApplicationSupportsMultipleScenes": false],
    ] }

    static func plist(_ object: [String: Any], binary: Bool) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: object, format: binary ? .binary : .xml, options: 0)
    }

    /// The app these tests hand off to, and another one (any two registered apps).
    static let app = PaymentProvider.allCases[0]
    static let other = PaymentProvider.allCases[1]

    static func keys(_ object: [String: Any], _ provider: PaymentProvider = app, returnURL: String = "my-shop://paid",
                     entitlements: Data? = nil, binary: Bool = false) throws -> [String] {
        try AppConfiguration.check(infoPlist: plist(object, binary: binary), provider: provider, returnURL: returnURL,
                                   entitlements: entitlements).map(\.key)
    }

    @Test(arguments: [false, true])
    func aCompleteConfigurationHasNoFinding(binary: Bool) throws {
        for provider in PaymentProvider.allCases {
            #expect(try Self.keys(Self.complete, provider, binary: binary).isEmpty, "\(provider)")
        }
    }

    @Test(arguments: [false, true])
    func eachMissingKeyIsNamed(binary: Bool) throws {
        var noQuery = Self.complete
        noQuery["LSApplicationQueriesSchemes"] = [Self.other.queriedScheme]
        let findings = try AppConfiguration.check(infoPlist: Self.plist(noQuery, binary: binary), provider: Self.app, returnURL: "my-shop://paid")
        #expect(findings.map(\.key) == ["LSApplicationQueriesSchemes"])
        let scheme = Self.app.queriedScheme
        #expect(findings[0].problem.contains(scheme) && findings[0].fix.contains("<string>\(scheme)</string>"))
        #expect(findings[0].fix.contains("<string>\(Self.other.queriedScheme)</string>"), "the fix keeps what is there")

        var noType = Self.complete
        noType["CFBundleURLTypes"] = [["CFBundleURLSchemes": ["other"]]]
        #expect(try Self.keys(noType, binary: binary) == ["CFBundleURLTypes"])
        noType["CFBundleURLTypes"] = nil
        #expect(try Self.keys(noType, binary: binary) == ["CFBundleURLTypes"])

        var noScenes = Self.complete
        noScenes["UIApplicationSceneManifest"] = nil
        #expect(try Self.keys(noScenes, binary: binary) == ["UIApplicationSceneManifest"])

        for provider in PaymentProvider.allCases {
            #expect(try Self.keys(Self.complete, provider, returnURL: "\(provider.queriedScheme)://back", binary: binary) == ["returnURL"],
                    "the payment app's own scheme: \(provider)")
        }
        #expect(try Self.keys([:], binary: binary) == ["LSApplicationQueriesSchemes", "CFBundleURLTypes", "UIApplicationSceneManifest"])
    }

    @Test func anHTTPSReturnURLNeedsItsAssociatedDomain() throws {
        let url = "https://shop.example/paid"
        #expect(try Self.keys(Self.complete, returnURL: url) == ["com.apple.developer.associated-domains"], "not given")
        let other = try Self.plist(["com.apple.developer.associated-domains": ["applinks:other.example"]], binary: false)
        #expect(try Self.keys(Self.complete, returnURL: url, entitlements: other) == ["com.apple.developer.associated-domains"])
        let right = try Self.plist(["com.apple.developer.associated-domains": ["applinks:shop.example"]], binary: true)
        #expect(try Self.keys(Self.complete, returnURL: url, entitlements: right).isEmpty)
    }

    @Test func citconWalletSchemes() throws {
        var info = Self.complete
        info["LSApplicationQueriesSchemes"] = CPayWalletSchemes.wechatpay
        let findings = try AppConfiguration.check(infoPlist: Self.plist(info, binary: false), queriedSchemes: CPayWalletSchemes.all,
                                                  paymentAppSchemes: CPayWalletSchemes.all, returnURL: "my-shop://paid")
        #expect(findings.map(\.key) == ["LSApplicationQueriesSchemes"])
        #expect(findings[0].problem.contains("alipay") && !findings[0].problem.contains("weixin,"))
    }

    @Test func whatIsNotAPropertyListIsRefused() throws {
        #expect(throws: ChargeKitError.invalidField("Info.plist", rule: "is not a property list with a dictionary at its top")) {
            try AppConfiguration.check(infoPlist: Data("not a plist".utf8), provider: Self.app, returnURL: "my-shop://paid")
        }
        #expect(throws: ChargeKitError.invalidField("Info.plist", rule: "is not a property list with a dictionary at its top")) {
            try AppConfiguration.check(infoPlist: PropertyListSerialization.data(fromPropertyList: ["a"], format: .xml, options: 0),
                                       provider: Self.app, returnURL: "my-shop://paid")
        }
        #expect(throws: ChargeKitError.self) {
            try AppConfiguration.check(infoPlist: Self.plist(Self.complete, binary: false), provider: Self.app, returnURL: "no scheme")
        }
    }

    /// A binary property list of `levels` arrays, each holding the next one twice: a few
    /// bytes that a reader expands into 2^levels arrays.
    static func doublingPlist(levels: Int) -> Data {
        var bytes = Array("bplist00".utf8)
        var offsets: [Int] = []
        for level in 0..<levels {
            offsets.append(bytes.count)
            bytes += [0xA2, UInt8(level + 1), UInt8(level + 1)]
        }
        offsets.append(bytes.count)
        bytes.append(0xA0)
        let table = bytes.count
        bytes += offsets.map(UInt8.init)
        bytes += [0, 0, 0, 0, 0, 0, 1, 1]
        for value in [offsets.count, 0, table] { bytes += (0..<8).reversed().map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) } }
        return Data(bytes)
    }

    @Test func aBinaryPlistWhoseReferencesExplodeIsRefusedBeforeItIsRead() throws {
        // Four levels read as they should (the format is the one Foundation writes).
        let small = Self.doublingPlist(levels: 4)
        #expect((try PropertyListSerialization.propertyList(from: small, options: [], format: nil) as? [Any])?.count == 2)
        let bomb = Self.doublingPlist(levels: 40)
        #expect(bomb.count < 256)
        #expect(throws: ChargeKitError.invalidField("Info.plist", rule: "is a binary property list whose references expand past 8 objects a byte")) {
            try AppConfiguration.check(infoPlist: bomb, provider: Self.app, returnURL: "my-shop://paid")
        }
        // A real Info.plist in binary, with its strings shared, still reads.
        var info = Self.complete
        info["CFBundleURLTypes"] = (0..<200).map { ["CFBundleURLName": "shop", "CFBundleURLSchemes": ["my-shop", "my-shop-\($0)"]] }
        #expect(try Self.keys(info, binary: true).isEmpty)
    }

    @Test func anAssociatedDomainCoversItsHostExactlyOrByWildcardNeverByPrefix() throws {
        let url = "https://pay.example.com/paid"
        for (entry, covers) in [("applinks:pay.example.com", true), ("applinks:PAY.example.com?mode=developer", true),
                                ("applinks:*.example.com", true), ("applinks:pay.example.com.attacker.net", false),
                                ("applinks:pay.example.co", false), ("applinks:*.pay.example.com", false),
                                ("webcredentials:pay.example.com", false)] {
            let rights = try Self.plist(["com.apple.developer.associated-domains": [entry]], binary: false)
            #expect(try Self.keys(Self.complete, returnURL: url, entitlements: rights).isEmpty == covers, "\(entry)")
        }
        #expect(throws: ChargeKitError.invalidURL("returnURL", rule: "an https return URL must name a host (https://shop.example/paid)")) {
            try Self.keys(Self.complete, returnURL: "https:///paid")
        }
    }
}
