import ArgumentParser
@_spi(Tools) import ChargeKit
import CitconUPI
import Foundation

struct Doctor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check an app's Info.plist (and entitlements) for what a hand-off needs. Exit 0 when all holds, 1 when something is wrong, 65 for a file that is not a property list, 64 for a usage error."
    )

    @Option(help: "The app's Info.plist (XML or binary).") var plist: String
    @Option(help: "\(ToolApps.listed(["citcon"])) (the Citcon wallets' schemes); repeat it for an app that uses several: each is checked.")
    var provider: [String]
    @Option(help: "The URL the payment app answers on (your callback or return URL).") var returnUrl: String
    @Option(help: "The app's entitlements file, to check an https return URL's associated domain.") var entitlements: String?
    @Flag(help: "Print one JSON object: ok, findings with key, problem, consequence and fix, and notices (an app's vendor deprecation).") var json = false

    func run() async throws {
        try await Self.withOwnUsage {
            let info = try read(plist, "--plist")
            let rights = try entitlements.map { path in try read(path, "--entitlements") }
            guard !provider.isEmpty else { throw ValidationError("give --provider (repeat it for each app the app hands off to)") }
            var schemes: [String] = []
            var notices: [String] = []
            for name in provider {
                if name == "citcon" {
                    schemes += CPayWalletSchemes.all
                } else if let app = PaymentProvider(rawValue: name) {
                    schemes.append(app.queriedScheme)
                    if let notice = app.notice { notices.append("\(app.displayName): \(notice)") }
                } else {
                    throw ValidationError("--provider must be one of \((PaymentProvider.allCases.map(\.rawValue) + ["citcon"]).joined(separator: ", ")), got \(name)")
                }
            }
            // Every app given is checked: its scheme queried, the return URL not its own.
            let unique = schemes.reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
            let findings: [ConfigurationFinding]
            do throws(ChargeKitError) {
                findings = try AppConfiguration.check(infoPlist: info, queriedSchemes: unique, paymentAppSchemes: unique,
                                                      returnURL: returnUrl, entitlements: rights)
            } catch {
                if case .invalidField(let field, let rule) = error {
                    // The file as the user named it, not the key the library uses for it.
                    let file = field == "entitlements" ? entitlements ?? field : plist
                    FileHandle.standardError.write(Data("chargekit: \(file.escapedForTerminal): \(rule)\n".utf8))
                    throw ExitCode(65)
                }
                throw ValidationError(error.description)
            }
            if json {
                struct Report: Encodable { let ok: Bool; let findings: [ConfigurationFinding]; let notices: [String] }
                try printJSON(Report(ok: findings.isEmpty, findings: findings, notices: notices))
            } else if findings.isEmpty {
                print("ok: \(plist) has what a hand-off to \(provider.joined(separator: ", ")) answering on \(returnUrl) needs")
            } else {
                for finding in findings {
                    print("\(finding.key): \(finding.problem)")
                    print("  without it: \(finding.consequence)")
                    print("  add:")
                    for line in finding.fix.split(separator: "\n", omittingEmptySubsequences: false) { print("    \(line)") }
                }
            }
            if !json { for notice in notices { print("note: \(notice)") } }
            if !findings.isEmpty { throw ExitCode(1) }
        }
    }

    private func read(_ path: String, _ option: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("\(option): cannot read \(path)") }
        return data
    }
}
