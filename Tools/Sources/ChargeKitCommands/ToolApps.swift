import ArgumentParser
@_spi(Tools) import ChargeKit
import ChargeKitSimulators

/// What the command-line tools know of one payment app, kept in the app's own file
/// under `Apps/`: its `request` subcommand, how `demo` charges through it and forges
/// its callback, and the fields `parse` reports of its callback. Its name, scheme,
/// simulator and scenarios come from the SDK's and the simulators' registries.
protocol ToolApp: Sendable {
    /// The app.
    static var provider: PaymentProvider { get }
    /// `chargekit request <provider>`.
    static var requestCommand: any AsyncParsableCommand.Type { get }

    /// The arguments of `chargekit request <provider>` for a charge of 12.50 answered on
    /// `callbackURL`, described as `Flat white` where the app takes a description: the
    /// example `request --examples` prints and the browser tests play.
    static func exampleArguments(callbackURL: String) -> [String]

    /// The app `demo` charges through, answering on `callbackURL`, where it differs from
    /// the simulator's sample app (`nil`, the default).
    static func demoApp(callbackURL: String) -> PaymentApp?
    /// What `demo`'s order adds for this app in words (`, tax rate 8.5`); empty by default.
    static var demoNote: String { get }
    /// Whether the app returns an order's extras (`record_id=123`) on its callback.
    static var returnsExtras: Bool { get }
    /// What `demo` prints of the approved callback beyond its transaction id; `nil`
    /// prints the amount asked.
    static func demoLines(of callback: PaymentCallback) -> [String]?
    /// An approved callback to `callbackURL` claiming `nonce`, that no hand-off asked
    /// for: what `demo` shows the ledger refusing.
    static func forgedCallback(to callbackURL: String, nonce: String) -> String

    /// Whether a callback read without a ledger says which operation it answers
    /// (otherwise `parse` reports `unknown`).
    static var callbackNamesOperation: Bool { get }
    /// The fields `parse` reports of the app's callback, under their documented names.
    static func reportedFields(of callback: PaymentCallback) -> [String: String?]
    /// Whether the customer asked for a receipt, for apps that say.
    static func receiptSent(in callback: PaymentCallback) -> Bool?
}

extension ToolApp {
    static func demoApp(callbackURL: String) -> PaymentApp? { nil }
    static var demoNote: String { "" }
    static var returnsExtras: Bool { true }
    static func demoLines(of callback: PaymentCallback) -> [String]? { nil }
    static var callbackNamesOperation: Bool { true }
    static func receiptSent(in callback: PaymentCallback) -> Bool? { nil }
}

/// Every payment app the tools speak, one line each: `request`, `parse`, `simulate`,
/// `scenarios`, `doctor`, `demo` and their help texts are driven by this list.
enum ToolApps {
    static let registered: [any ToolApp.Type] = [
        CreditCardTerminalTool.self, SumUpTool.self, ZettleTool.self, SquareTool.self, VivaTool.self, NexiTool.self,
    ]

    /// Where `demo`'s apps answer: the ChargeDemo sample's return URL.
    static let demoCallbackURL = "com-innerfence-ChargeDemo://chargeResponse"

    /// The tool side of `provider`.
    static func app(_ provider: PaymentProvider) -> (any ToolApp.Type)? { registered.first { $0.provider == provider } }

    /// The apps' names as the tools take them: `ccterminal, sumup, zettle, square`.
    static var names: [String] { registered.map { $0.provider.rawValue } }

    /// `ccterminal, sumup, zettle or square` (with `last` as the last word).
    static func listed(_ extra: [String] = [], last: String = "or") -> String {
        let all = names + extra
        guard all.count > 1 else { return all.joined() }
        return all.dropLast().joined(separator: ", ") + " \(last) " + (all.last ?? "")
    }

    /// The registered apps' names for people, comma-separated.
    static var displayNames: String { registered.map { $0.provider.displayName }.joined(separator: ", ") }
}
