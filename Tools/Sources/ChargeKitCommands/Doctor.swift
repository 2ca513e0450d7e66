import ArgumentParser
@_spi(Tools) import ChargeKit
import CitconUPI
import Foundation

struct Doctor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Check an app's Info.plist (and entitlements) for what a hand-off needs. Exit 0 when all holds, 1 when something is wrong, 65 for a file that is not a property list, 64 for a usage error."
    )

    @Option(help: "The app's Info.plist (XML or binary).") var plist: String
    @Option(help: "ccterminal, sumup, zettle, square, or citcon (the Citcon wallets' schemes).") var provider: String
    @Option(help: "The URL the payment app answers on (your callback or return URL).") var returnUrl: String
    @Option(help: "The app's entitlements file, to check an https return URL's associated domain.") var entitlements: String?
    @Flag(help: "Print one JSON object: ok, and findings with key, problem, consequence and fix.") var json = false

    func run() async throws {
        try await Self.withOwnUsage {
            let info = try read(plist, "--plist")
            let rights = try entitlements.map { path in try read(path, "--entitlements") }
            let app = PaymentProvider(rawValue: provider)
            guard app != nil || provider == "citcon" else {
                throw ValidationError("--provider must be one of \((PaymentProvider.allCases.map(\.rawValue) + ["citcon"]).joined(separator: ", "))")
            }
            let findings: [ConfigurationFinding]
            do throws(ChargeKitError) {
                if let app {
                    findings = try AppConfiguration.check(infoPlist: info, provider: app, returnURL: returnUrl, entitlements: rights)
                } else {
                    findings = try AppConfiguration.check(infoPlist: info, queriedSchemes: CPayWalletSchemes.all,
                                                          paymentAppSchemes: CPayWalletSchemes.all, returnURL: returnUrl,
                                                          entitlements: rights)
                }
            } catch {
                if case .invalidField = error {
                    FileHandle.standardError.write(Data("chargekit: \(error.description.escapedForTerminal)\n".utf8))
                    throw ExitCode(65)
                }
                throw ValidationError(error.description)
            }
            if json {
                struct Report: Encodable { let ok: Bool; let findings: [ConfigurationFinding] }
                try printJSON(Report(ok: findings.isEmpty, findings: findings))
            } else if findings.isEmpty {
                print("ok: \(plist) has what a hand-off to \(provider) answering on \(returnUrl) needs")
            } else {
                for finding in findings {
                    print("\(finding.key): \(finding.problem)")
                    print("  without it: \(finding.consequence)")
                    print("  add:")
                    for line in finding.fix.split(separator: "\n", omittingEmptySubsequences: false) { print("    \(line)") }
                }
            }
            if !findings.isEmpty { throw ExitCode(1) }
        }
    }

    private func read(_ path: String, _ option: String) throws -> Data {
        guard let data = FileManager.default.contents(atPath: path) else { throw ValidationError("\(option): cannot read \(path)") }
        return data
    }
}
