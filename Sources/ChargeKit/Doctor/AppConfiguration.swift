import Foundation

/// One mistake in an app's configuration that would lose a sale: the key, what is
/// wrong, what breaks because of it, and the property-list XML that fixes it.
public struct ConfigurationFinding: Hashable, Sendable, Codable {
    /// The key at fault (`LSApplicationQueriesSchemes`, `CFBundleURLTypes`, …).
    public var key: String
    /// What is wrong.
    public var problem: String
    /// What breaks because of it.
    public var consequence: String
    /// The XML to add to the file.
    public var fix: String

    /// Makes a finding.
    public init(key: String, problem: String, consequence: String, fix: String) {
        self.key = key
        self.problem = problem
        self.consequence = consequence
        self.fix = fix
    }
}

/// Checks an app's Info.plist (and entitlements) for what a hand-off needs, before a
/// sale is lost to a callback that never comes. It reads XML and binary property
/// lists with Foundation alone, so an app's own unit test can run it on its bundle's
/// Info.plist, and `chargekit doctor` runs it from a shell.
public enum AppConfiguration {
    /// What a hand-off to `provider` answering on `returnURL` needs: the provider's
    /// scheme queried, the return URL's scheme registered (and not the payment app's
    /// own), the scene manifest, and for an `https` return URL the associated domain.
    /// - Returns: the findings; empty when everything holds.
    /// - Throws: ``ChargeKitError/invalidField(_:rule:)`` naming `Info.plist` or
    ///   `entitlements` when a file is not a property list (or is a binary one whose
    ///   shared references would expand far past its size), and
    ///   ``ChargeKitError/invalidURL(_:rule:)`` naming `returnURL` without a scheme, or
    ///   an https one without a host.
    public static func check(
        infoPlist: Data, provider: PaymentProvider, returnURL: String, entitlements: Data? = nil
    ) throws(ChargeKitError) -> [ConfigurationFinding] {
        try check(infoPlist: infoPlist, queriedSchemes: [provider.queriedScheme], paymentAppSchemes: [provider.queriedScheme],
                  returnURL: returnURL, entitlements: entitlements)
    }

    /// The same checks for any set of schemes to query (a wallet SDK's, say):
    /// `paymentAppSchemes` are those the return URL must not use.
    public static func check(
        infoPlist: Data, queriedSchemes: [String], paymentAppSchemes: [String], returnURL: String, entitlements: Data? = nil
    ) throws(ChargeKitError) -> [ConfigurationFinding] {
        let plist = try dictionary(infoPlist, field: "Info.plist")
        guard let colon = returnURL.firstIndex(of: ":"), FieldRules.isScheme(returnURL[..<colon]) else {
            throw .invalidURL("returnURL", rule: "must start with a scheme such as 'my-app:'")
        }
        let scheme = returnURL[..<colon].lowercased()
        var findings: [ConfigurationFinding] = []

        let queried = Set((plist["LSApplicationQueriesSchemes"] as? [String] ?? []).map { $0.lowercased() })
        let missing = queriedSchemes.filter { !queried.contains($0.lowercased()) }
        if !missing.isEmpty {
            findings.append(ConfigurationFinding(
                key: "LSApplicationQueriesSchemes",
                problem: "does not list \(missing.joined(separator: ", "))",
                consequence: "canOpenURL answers false for an undeclared scheme, so every hand-off fails as if the payment app were not installed",
                fix: "<key>LSApplicationQueriesSchemes</key>\n<array>\n"
                    + (queried.sorted() + missing).map { "    <string>\($0)</string>" }.joined(separator: "\n") + "\n</array>"))
        }

        let paymentApps = Set(paymentAppSchemes.map { $0.lowercased() })
        if paymentApps.contains(scheme) {
            findings.append(ConfigurationFinding(
                key: "returnURL", problem: "uses \(scheme), the payment app's own scheme",
                consequence: "the callback would open the payment app again instead of your app",
                fix: "<!-- a scheme of your own, e.g. my-shop; then register it under CFBundleURLTypes -->"))
        } else if scheme != "https" {
            let types = plist["CFBundleURLTypes"] as? [[String: Any]] ?? []
            let registered = Set(types.flatMap { ($0["CFBundleURLSchemes"] as? [String] ?? []).map { $0.lowercased() } })
            if !registered.contains(scheme) {
                findings.append(ConfigurationFinding(
                    key: "CFBundleURLTypes", problem: "no entry's CFBundleURLSchemes lists \(scheme)",
                    consequence: "the payment app takes the payment and its callback opens nothing: your app never learns of it",
                    fix: "<key>CFBundleURLTypes</key>\n<array>\n    <dict>\n        <key>CFBundleURLSchemes</key>\n"
                        + "        <array>\n            <string>\(scheme)</string>\n        </array>\n    </dict>\n</array>"))
            }
        }

        if plist["UIApplicationSceneManifest"] == nil {
            findings.append(ConfigurationFinding(
                key: "UIApplicationSceneManifest", problem: "is missing",
                consequence: "an app built with the iOS 26 SDK does not launch, and no scene delegate sees the callback URL",
                fix: Self.sceneManifest))
        }

        if scheme == "https" {
            guard let host = URLComponents(string: returnURL)?.host?.lowercased(), !host.isEmpty else {
                throw .invalidURL("returnURL", rule: "an https return URL must name a host (https://shop.example/paid)")
            }
            let domains = try entitlements.map { data throws(ChargeKitError) in
                try dictionary(data, field: "entitlements")["com.apple.developer.associated-domains"] as? [String] ?? []
            } ?? []
            if !domains.contains(where: { Self.applinks($0, covers: host) }) {
                findings.append(ConfigurationFinding(
                    key: "com.apple.developer.associated-domains",
                    problem: entitlements == nil ? "not checked: give the entitlements file" : "has no applinks:\(host)",
                    consequence: "iOS opens the https return URL in Safari, not in your app",
                    fix: "<key>com.apple.developer.associated-domains</key>\n<array>\n    <string>applinks:\(host)</string>\n</array>"))
            }
        }
        return findings
    }

    /// The scene manifest to paste, naming the scene delegate class that receives the
    /// callback URL (`scene(_:willConnectTo:options:)` on a cold launch,
    /// `scene(_:openURLContexts:)` otherwise): a Swift class is named with its module
    /// (`$(PRODUCT_MODULE_NAME).SceneDelegate`), an Objective-C one by its name alone
    /// (`SceneDelegate`).
    static let sceneManifest = """
        <key>UIApplicationSceneManifest</key>
        <dict>
            <key>UIApplicationSupportsMultipleScenes</key>
            <false/>
            <key>UISceneConfigurations</key>
            <dict>
                <key>UIWindowSceneSessionRoleApplication</key>
                <array>
                    <dict>
                        <key>UISceneConfigurationName</key>
                        <string>Default Configuration</string>
                        <!-- The class that receives the callback URL: in a Swift app
                             $(PRODUCT_MODULE_NAME).SceneDelegate, in an Objective-C app
                             SceneDelegate (its name alone, no module). -->
                        <key>UISceneDelegateClassName</key>
                        <string>$(PRODUCT_MODULE_NAME).SceneDelegate</string>
                    </dict>
                </array>
            </dict>
        </dict>
        """

    /// Whether an associated-domains entry (`applinks:shop.example`,
    /// `applinks:shop.example?mode=developer`, `applinks:*.example.com`) covers `host`:
    /// the same host, or a subdomain under a wildcard; never a prefix
    /// (`applinks:pay.example.com.attacker.net` covers no `pay.example.com`).
    static func applinks(_ entry: String, covers host: String) -> Bool {
        let entry = entry.lowercased()
        guard entry.hasPrefix("applinks:") else { return false }
        var domain = entry.dropFirst("applinks:".count)
        if let query = domain.firstIndex(of: "?") { domain = domain[..<query] }
        if domain.hasPrefix("*.") { return host.hasSuffix(domain.dropFirst(1)) && host.count > domain.count - 1 }
        return domain == host
    }

    /// A property list's top-level dictionary (XML or binary).
    private static func dictionary(_ data: Data, field: String) throws(ChargeKitError) -> [String: Any] {
        // The work is bounded by the file's size, not by what its references expand to.
        try BinaryPropertyListBound.check(data, field: field)
        guard let value = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil),
              let dictionary = value as? [String: Any] else {
            throw .invalidField(field, rule: "is not a property list with a dictionary at its top")
        }
        return dictionary
    }
}
