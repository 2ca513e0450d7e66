import ArgumentParser
@_spi(Tools) import ChargeKit
import ChargeKitCommands
import CitconSandbox
@_spi(Tools) import CitconUPI
import Foundation
import SandboxScenarios
import ToolsHTTP

/// `chargekit upi …`: the merchant-server side of the Citcon UPI API, for the local
/// sandbox or the live service.
///
/// Exit status: 0 on a `success` envelope (or a verified IPN), 2 on a `fail`
/// envelope (its code and message on standard error) or an IPN that does not verify,
/// 1 on a transport error, 64 on an invalid flag.
struct UPI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upi",
        abstract: "Call the Citcon UPI API as a merchant's server does, or verify an IPN.",
        subcommands: [Token.self, Charge.self, Inquire.self, Capture.self, Refund.self, Cancel.self, Confirm.self, Pay.self, Decline.self,
                      Listen.self, Trigger.self, IPN.self, Clock.self, Logs.self, VerifyIPN.self]
    )

    /// What every API operation takes.
    struct Connection: ParsableArguments {
        @Option(name: .customLong("base-url"), help: "The API's /v1 root (default: $CHARGEKIT_SANDBOX_URL, else the local sandbox, http://127.0.0.1:8790/v1).")
        var baseURLOption: String?
        @Option(help: "The merchant private key; the command gets a server access token with it (default: $CHARGEKIT_MERCHANT_KEY, which keeps it out of ps and shell history).")
        var key: String?
        @Option(help: "An access token to use as is.")
        var token: String?
        @Flag(help: "Print the answer's data as JSON.")
        var json = false

        func validate() throws {
            guard key == nil || token == nil else { throw ValidationError("give exactly one of --key and --token") }
            // A key from the environment gives way to an explicit --token.
            guard merchantKey != nil || token != nil else {
                throw ValidationError("give --key (or set CHARGEKIT_MERCHANT_KEY) or --token")
            }
            guard root != nil else { throw ValidationError("--base-url must be an http(s) URL such as https://host/v1, got \(baseURL)") }
        }

        /// `--key`, else `CHARGEKIT_MERCHANT_KEY`.
        var merchantKey: String? { key ?? Environment.merchantKey }

        /// The merchant key, for a command that acts as the sandbox's operator (its
        /// dashboard's buttons, its listener stream, its IPN log): never an access token.
        func operatorKey(_ command: String) throws -> String {
            guard token == nil, let key = merchantKey else {
                throw ValidationError("upi \(command) acts with the merchant key: give --key (or set CHARGEKIT_MERCHANT_KEY), not --token")
            }
            return key
        }

        /// The sandbox's dashboard, driven with the merchant key.
        func dashboard(_ command: String) throws -> SandboxDashboard {
            let key = try operatorKey(command)
            guard let root else { throw ValidationError("--base-url is not a URL") }
            return SandboxDashboard(root: root, key: key)
        }

        /// `--base-url`, else `CHARGEKIT_SANDBOX_URL`, else the local sandbox.
        var baseURL: String { baseURLOption ?? Environment.sandboxURL ?? "http://127.0.0.1:8790/v1" }

        /// The API root the client appends `/v1/…` to.
        var root: URL? { Self.root(of: baseURL) }

        /// The API root of `base` (an `http(s)` URL with a host, with or without its
        /// `/v1`), ending in `/`; nil when it is no such URL.
        static func root(of base: String) -> URL? {
            guard let url = URL(string: base), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  url.host != nil else { return nil }
            var text = base
            while text.hasSuffix("/") { text.removeLast() }
            if text.hasSuffix("/v1") { text.removeLast(3) }
            return URL(string: text + "/")
        }

        /// Sends the request (getting a server token first with `--key`) and reports the
        /// answer; returns only on success.
        func send(_ method: String, _ path: String, body: Data?, tokenType: String = "server", scenario: String? = nil,
                  ipnFault: String? = nil) async throws {
            _ = try await call(method, path, body: body, print: true, tokenType: tokenType, scenario: scenario, ipnFault: ipnFault)
        }

        /// The request's answer `data` (printed when `print`); exits on a failure.
        /// `scenario` and `ipnFault` are sent as the sandbox's `ChargeKit-Scenario` and
        /// `ChargeKit-IPN-Fault` headers.
        func call(_ method: String, _ path: String, body: Data?, print shown: Bool, tokenType: String = "server",
                  scenario: String? = nil, ipnFault: String? = nil) async throws -> [String: Any] {
            guard let root else { throw ValidationError("--base-url is not a URL") }
            let client = UPIClient.tools(root)
            let headers = (scenario.map { [(name: SandboxScenario.header, value: $0)] } ?? [])
                + (ipnFault.map { [(name: IPNFault.header, value: $0)] } ?? [])
            let (status, answer) = try await exchange(client, method, path, bearer: try await bearer(client, tokenType), body: body, headers: headers)
            return try report(status: status, body: answer, print: shown)
        }

        /// A request of the sandbox's operator (the merchant key as the bearer, as the
        /// dashboard and the clock take it); its `data`, printed when `print`.
        func operatorCall(_ method: String, _ path: String, body: Data?, print shown: Bool, command: String) async throws -> [String: Any] {
            let key = try operatorKey(command)
            guard let root else { throw ValidationError("--base-url is not a URL") }
            let (status, answer) = try await exchange(UPIClient.tools(root), method, path, bearer: key, body: body)
            return try report(status: status, body: answer, print: shown)
        }

        /// A `GET` answered with a list in its `data`, authenticated with `bearer` as is.
        func callArray(_ path: String, bearer: String) async throws -> [[String: Any]] {
            guard let root else { throw ValidationError("--base-url is not a URL") }
            let (status, answer) = try await exchange(UPIClient.tools(root), "GET", path, bearer: bearer, body: nil)
            guard let envelope = (try? JSONSerialization.jsonObject(with: answer)) as? [String: Any] else {
                throw fail(status >= 500 || status == 0 ? 1 : 2, "HTTP \(status): not a UPI envelope")
            }
            guard envelope["status"] as? String == "success", let list = envelope["data"] as? [[String: Any]] else {
                let data = envelope["data"] as? [String: Any] ?? [:]
                throw fail(2, "\(data["code"] ?? "?") (HTTP \(status)): \(data["message"] as? String ?? "")")
            }
            return list
        }

        /// `--token`, or an access token of `type` for the merchant key.
        private func bearer(_ client: UPIClient, _ type: String) async throws -> String {
            if let token { return token }
            let (status, answer) = try await exchange(client, "POST", "/v1/access-tokens", bearer: merchantKey ?? "",
                                                      body: Data(#"{"token_type":"\#(type)"}"#.utf8))
            let data = try report(status: status, body: answer, print: false)
            guard let access = data["access_token"] as? String else { throw fail(2, "the token answer has no access_token") }
            return access
        }

        private func exchange(_ client: UPIClient, _ method: String, _ path: String, bearer: String, body: Data?,
                              headers: [(name: String, value: String)] = []) async throws -> (Int, Data)
        {
            do throws(CPayError) {
                return try await client.exchange(method, path: path, bearer: bearer, body: body, headers: headers)
            } catch {
                throw fail(1, error.description)
            }
        }

        /// `data` for people: one `key: value` line per scalar, amounts in the currency's
        /// major units (`amount: 10.99 USD`), booleans as `true`/`false`, and the ways to
        /// pay a created charge (`desktop qr: https://…`).
        static func humanLines(_ data: [String: Any]) -> [String] {
            let currency = (data["currency"] as? String).flatMap { try? Currency(code: $0) }
            var lines: [String] = []
            for key in data.keys.sorted() {
                switch data[key] {
                case let text as String:
                    lines.append("\(key): \(text.escapedForTerminal)")
                case let number as NSNumber where String(cString: number.objCType) == "c":
                    lines.append("\(key): \(number.boolValue)")
                case let number as NSNumber where key.hasPrefix("amount") && currency != nil:
                    lines.append("\(key): \(Money(minorUnits: number.int64Value, currency: currency ?? .usd))")
                case let number as NSNumber:
                    lines.append("\(key): \(number)")
                case let payment as [String: Any]:
                    for client in payment["client"] as? [[String: Any]] ?? [] {
                        guard let content = client["content"] as? String else { continue }
                        let name = [client["client"], client["format"]].compactMap { $0 as? String }.joined(separator: " ")
                        lines.append("\(name): \(content.escapedForTerminal)")
                    }
                default:
                    continue
                }
            }
            return lines
        }

        /// The `data` of a success envelope (printed); a fail envelope exits 2.
        private func report(status: Int, body: Data, print shown: Bool) throws -> [String: Any] {
            guard let envelope = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
                  let state = envelope["status"] as? String
            else { throw fail(status >= 500 || status == 0 ? 1 : 2, "HTTP \(status): not a UPI envelope") }
            let data = envelope["data"] as? [String: Any] ?? [:]
            guard state == "success" else {
                let code = (data["code"] as? String) ?? (data["code"] as? NSNumber)?.stringValue ?? "?"
                throw fail(2, "\(code) (HTTP \(status)): \(data["message"] as? String ?? "")")
            }
            if shown {
                if json {
                    let out = (try? JSONSerialization.data(withJSONObject: data, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
                    print(String(decoding: out, as: UTF8.self))
                } else {
                    for line in Self.humanLines(data) { print(line) }
                }
            }
            return data
        }
    }

    /// `--body`, for the commands that send a JSON body (token, charge, confirm,
    /// capture, refund, cancel): the others do not list it.
    struct BodyOption: ParsableArguments {
        @Option(help: "The request body as JSON: a file, or - for standard input. Flags override its top-level fields.")
        var body: String?

        /// The body from `--body`, as a JSON object, with `overrides` applied.
        func requestBody(_ overrides: [String: Any?]) throws -> Data {
            try requestBody { object in
                for (key, value) in overrides { if let value { object[key] = value } }
            }
        }

        /// The body from `--body`, as a JSON object, changed by `edit`.
        func requestBody(_ edit: (inout [String: Any]) throws -> Void) throws -> Data {
            var object: [String: Any] = [:]
            if let body {
                let data: Data
                if body == "-" {
                    data = FileHandle.standardInput.readDataToEndOfFile()
                } else {
                    guard let file = FileManager.default.contents(atPath: body) else {
                        throw ValidationError("--body: cannot read \(body)")
                    }
                    data = file
                }
                guard data.count <= UPIWire.maximumBodyBytes,
                      let parsed = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
                else { throw ValidationError("--body must hold one JSON object of at most \(UPIWire.maximumBodyBytes) bytes") }
                object = parsed
            }
            try edit(&object)
            return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        }
    }

    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "POST /v1/access-tokens: an access token for the merchant key.")
        @OptionGroup var connection: Connection
        @OptionGroup var bodyOption: BodyOption
        @Option(name: .customLong("type"), help: "server or client.") var tokenType = "server"

        func validate() throws {
            guard connection.merchantKey != nil else {
                throw ValidationError("token needs --key (the merchant private key) or CHARGEKIT_MERCHANT_KEY")
            }
            guard ["server", "client"].contains(tokenType) else { throw ValidationError("--type must be server or client") }
        }

        func run() async throws {
            try await Self.withOwnUsage {
                guard let key = connection.merchantKey else { throw ValidationError("--key is required") }
                let body = try bodyOption.requestBody(["token_type": tokenType])
                // The merchant key is the bearer of this one call.
                var direct = connection
                direct.token = key
                direct.key = nil
                try await direct.send("POST", "/v1/access-tokens", body: body)
            }
        }
    }

    struct Charge: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "POST /v1/charges: create a charge (prints its id and charge_token).")
        @OptionGroup var connection: Connection
        @OptionGroup var bodyOption: BodyOption
        @Option(help: "The merchant's reference (unique).") var reference: String?
        @OptionGroup var amount: AmountOptions
        @Option(help: "ISO 4217 currency (what --amount is read in).") var currency: String?
        @Option(help: "ISO 3166 country.") var country: String?
        @Option(help: "Payment method: alipay, wechatpay, upop, paypal, venmo, card…") var method: String?
        @Option(name: .customLong("ipn-url"), help: "Where IPNs go (urls.ipn).") var ipnURL: String?
        @OptionGroup var scenario: ScenarioOption
        @Option(name: .customLong("ipn-fault"), help: "What the local sandbox does to this charge's IPNs, sent as its ChargeKit-IPN-Fault header: duplicate, delay=5s, reset, reorder.")
        var ipnFault: String?

        func validate() throws {
            if let ipnFault, IPNFault(header: ipnFault) == nil {
                throw ValidationError("--ipn-fault must be duplicate, delay=Ns (1 to \(IPNFault.maximumDelay) seconds), reset or reorder, got \(ipnFault)")
            }
        }

        func run() async throws {
            try await Self.withOwnUsage {
                let body = try bodyOption.requestBody { object throws in
                    func set(_ section: String, _ key: String, _ value: Any?) {
                        guard let value else { return }
                        var inner = object[section] as? [String: Any] ?? [:]
                        inner[key] = value
                        object[section] = inner
                    }
                    set("transaction", "reference", reference)
                    let code = currency ?? (object["transaction"] as? [String: Any])?["currency"] as? String
                    set("transaction", "amount", try amount.minorUnits(currency: code))
                    set("transaction", "currency", currency)
                    set("transaction", "country", country)
                    set("payment", "method", method)
                    set("urls", "ipn", ipnURL)
                }
                try await connection.send("POST", "/v1/charges", body: body, scenario: scenario.scenario, ipnFault: ipnFault)
            }
        }
    }

    struct Inquire: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "GET /v1/transactions/{id}: the transaction as it stands.")
        @OptionGroup var connection: Connection
        @Option(help: "The transaction id.") var id: String

        func validate() throws {
            guard !id.isEmpty, id.utf8.count <= 128, id.allSatisfy({ $0.isLetter || $0.isNumber || "._:-".contains($0) }) else {
                throw ValidationError("--id must be 1 to 128 letters, digits, '.', '_', ':' or '-'")
            }
        }

        func run() async throws { try await Self.withOwnUsage { try await connection.send("GET", "/v1/transactions/\(id)", body: nil) } }
    }

    /// `--scenario NAME`: the outcome the local sandbox plays (its `ChargeKit-Scenario` header).
    struct ScenarioOption: ParsableArguments {
        @Option(help: "The outcome the local sandbox plays, sent as its ChargeKit-Scenario header: succeeds, declined, expires, canceled, stays-pending, capture-fails, refund-declined (chargekit scenarios --provider sandbox).")
        var scenario: String?

        func validate() throws {
            if let scenario, SandboxScenario.named(scenario) == nil {
                throw ValidationError("--scenario must be one of \(SandboxScenario.names), got \(scenario)")
            }
        }
    }

    /// One way to write an amount: `--amount` in the currency's major units (`10.99`,
    /// read with its ISO 4217 minor units), or `--amount-minor` in minor units (`1099`).
    struct AmountOptions: ParsableArguments {
        @Option(help: "Amount in major units, such as 10.99 (read with the currency's ISO 4217 minor units: 500 JPY, 1.500 KWD).")
        var amount: String?
        @Option(name: .customLong("amount-minor"), help: "Amount in minor units, such as 1099 for 10.99 USD.")
        var amountMinor: Int?

        func validate() throws {
            guard amount == nil || amountMinor == nil else { throw ValidationError("give --amount or --amount-minor, not both") }
            if let amountMinor, amountMinor < 0 { throw ValidationError("--amount-minor must not be negative") }
        }

        /// The amount in minor units of `currency`, if one was given.
        func minorUnits(currency: String?) throws -> Int? {
            guard let amount else { return amountMinor }
            return try Self.minorUnits(amount, currency: currency)
        }

        /// `amount`, in major units, as minor units of `currency`.
        static func minorUnits(_ amount: String, currency: String?) throws -> Int {
            guard let currency else { throw ValidationError("--amount \(amount) needs a currency (--currency) to be read in; or give --amount-minor") }
            do throws(ChargeKitError) {
                return Int(try Money(parsing: amount, currency: try Currency(code: currency)).minorUnits)
            } catch {
                throw ValidationError("--amount: \(error.description)")
            }
        }
    }

    /// Captures, refunds and cancels: the charge's `id`, an operation `reference`, an amount.
    struct OperationOptions: ParsableArguments {
        @Option(help: "The charge's transaction id.") var id: String?
        @Option(help: "This operation's own reference (unique).") var reference: String?
        @OptionGroup var amount: AmountOptions
        @Option(help: "The charge's currency, which --amount is read in (default: the charge's, asked with an inquiry).")
        var currency: String?

        /// The body's fields; a major-unit amount is read in the charge's currency.
        func overrides(_ connection: Connection) async throws -> [String: Any?] {
            var code = currency
            if amount.amount != nil, code == nil {
                guard let id else { throw ValidationError("--amount needs --id (or --currency, or --amount-minor)") }
                code = try await connection.call("GET", "/v1/transactions/\(id)", body: nil, print: false)["currency"] as? String
            }
            return ["id": id, "reference": reference, "amount": try amount.minorUnits(currency: code), "currency": currency]
        }
    }

    struct Capture: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "POST /v1/captures: capture an authorized charge.")
        @OptionGroup var connection: Connection
        @OptionGroup var bodyOption: BodyOption
        @OptionGroup var operation: OperationOptions
        @OptionGroup var scenario: ScenarioOption
        func run() async throws {
            try await Self.withOwnUsage {
                try await connection.send("POST", "/v1/captures", body: try bodyOption.requestBody(try await operation.overrides(connection)),
                                          scenario: scenario.scenario)
            }
        }
    }

    struct Refund: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "POST /v1/refunds: refund a paid charge, in whole or in part.")
        @OptionGroup var connection: Connection
        @OptionGroup var bodyOption: BodyOption
        @OptionGroup var operation: OperationOptions
        @Option(help: "Why (the refund's note).") var note: String?
        @OptionGroup var scenario: ScenarioOption
        func run() async throws {
            try await Self.withOwnUsage {
                var overrides = try await operation.overrides(connection)
                overrides["note"] = note
                try await connection.send("POST", "/v1/refunds", body: try bodyOption.requestBody(overrides), scenario: scenario.scenario)
            }
        }
    }

    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "POST /v1/cancels: cancel an unpaid charge as the merchant; or, given the charge's id alone (upi cancel ID), press the wallet's Cancel as the consumer."
        )
        @OptionGroup var connection: Connection
        @OptionGroup var bodyOption: BodyOption
        @OptionGroup var operation: OperationOptions
        @Option(name: .customLong("transaction-reference"), help: "The charge's own reference.") var transactionReference: String?
        @Argument(help: "The charge whose wallet's Cancel is pressed (as upi pay and upi decline press theirs).") var charge: String?
        func run() async throws {
            try await Self.withOwnUsage {
                if let charge {
                    guard operation.id == nil, operation.reference == nil, bodyOption.body == nil else {
                        throw ValidationError("give the charge's id alone (the wallet's Cancel) or --id and --reference (the merchant's cancel), not both")
                    }
                    try await WalletButton.press("cancel", id: charge, connection: connection)
                    return
                }
                var overrides = try await operation.overrides(connection)
                overrides["transaction_reference"] = transactionReference
                try await connection.send("POST", "/v1/cancels", body: try bodyOption.requestBody(overrides))
            }
        }
    }

    struct Confirm: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "POST /v1/charges/{charge_token}: confirm a charge with a method, as the app's SDK does (prints next_action)."
        )
        @OptionGroup var connection: Connection
        @OptionGroup var bodyOption: BodyOption
        @Argument(help: "The charge token the create answer gave.") var chargeToken: String
        @Option(help: "Payment method: alipay, wechatpay, upop, paypal, venmo, card…") var method: String
        @OptionGroup var scenario: ScenarioOption

        func run() async throws {
            try await Self.withOwnUsage {
                guard chargeToken.utf8.count <= 128, chargeToken.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                    throw ValidationError("<charge-token> must be up to 128 letters and digits")
                }
                let body = try bodyOption.requestBody { object in
                    var payment = object["payment"] as? [String: Any] ?? [:]
                    payment["method"] = method
                    object["payment"] = payment
                }
                try await connection.send("POST", "/v1/charges/\(chargeToken)", body: body, tokenType: "client", scenario: scenario.scenario)
            }
        }
    }

    /// `upi pay` and `upi decline`: the wallet's buttons, pressed through the sandbox's
    /// dashboard (which takes the merchant key) for any charge that can still be paid.
    struct WalletButton: ParsableArguments {
        @OptionGroup var connection: Connection
        @Argument(help: "The charge's transaction id.") var id: String

        /// Presses `action` (`pay` or `decline`) on the charge, then prints it as an inquiry shows it.
        func press(_ action: String) async throws { try await Self.press(action, id: id, connection: connection) }

        /// Presses `action` on charge `id`, then prints it as an inquiry shows it.
        static func press(_ action: String, id: String, connection: Connection) async throws {
            guard !id.isEmpty, id.utf8.count <= 128, id.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "._:-".contains($0)) }) else {
                throw ValidationError("<id> must be 1 to 128 letters, digits, '.', '_', ':' or '-'")
            }
            try await connection.dashboard(action).press(action, charge: id)
            try await connection.send("GET", "/v1/transactions/\(id)", body: nil)
        }
    }

    struct Pay: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Pay a charge as the consumer does in the sandbox's wallet (one only initiated is confirmed first, with its method or a card)."
        )
        @OptionGroup var button: WalletButton
        func run() async throws { try await Self.withOwnUsage { try await button.press("pay") } }
    }

    struct Decline: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Decline a charge as the consumer's wallet does in the sandbox.")
        @OptionGroup var button: WalletButton
        func run() async throws { try await Self.withOwnUsage { try await button.press("decline") } }
    }

    struct VerifyIPN: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "verify-ipn",
            abstract: "Verify an IPN body's signature; print its signed fields as JSON (exit 0) or the reason (exit 2)."
        )
        @Option(help: "The merchant's IPN secret (default: $CHARGEKIT_IPN_SECRET). Any non-empty secret: it is whatever Citcon issued.")
        var secret: String?
        @Argument(help: "The IPN body file (standard input when absent).") var file: String?

        func validate() throws {
            // Anyone can sign with the empty secret.
            guard let secret = secret ?? Environment.ipnSecret, !secret.isEmpty else {
                throw ValidationError("--secret (or CHARGEKIT_IPN_SECRET) must be the merchant's non-empty IPN secret")
            }
        }

        func run() async throws {
            try await Self.withOwnUsage {
                let body: Data
                if let file {
                    guard let data = FileManager.default.contents(atPath: file) else { throw fail(74, "cannot read \(file)") }
                    body = data
                } else {
                    body = FileHandle.standardInput.readDataToEndOfFile()
                }
                do throws(CPayIPNError) {
                    let ipn = try CPayIPN.verify(body, secret: secret ?? Environment.ipnSecret ?? "")
                    let out = (try? JSONSerialization.data(withJSONObject: ipn.fields, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
                    print(String(decoding: out, as: UTF8.self))
                } catch {
                    throw fail(2, "IPN refused: \(error.description)")
                }
            }
        }
    }
}

/// Writes `message` to standard error and returns the exit code to throw.
func fail(_ code: Int32, _ message: String) -> ExitCode {
    FileHandle.standardError.write(Data("chargekit upi: \(message.escapedForTerminal)\n".utf8))
    return ExitCode(code)
}

/// The sandbox's dashboard as `upi pay` and `upi decline` use it: its page read with
/// the merchant key for its form token, then one of its forms posted, as a browser of
/// the operator's does (a fail page's message on standard error, exit 2).
struct SandboxDashboard {
    let root: URL
    let key: String

    func press(_ action: String, charge id: String) async throws {
        try await post(["action": action, "charge": id])
    }

    /// Posts one of the dashboard's forms with `fields`, its form token added.
    func post(_ fields: [String: String]) async throws {
        let page = root.appendingPathComponent("sandbox/dashboard")
        let (html, _) = try await exchange("GET", page)
        guard let token = RenderedForm.token(in: html) else { throw fail(2, "the sandbox's dashboard has no form token: is \(root) a ChargeKit sandbox?") }
        let form = (["form_token": token].merging(fields) { $1 }).sorted { $0.key < $1.key }
        let body = Data(form.map { "\($0.key)=\(PercentEncoding.encode($0.value))" }.joined(separator: "&").utf8)
        let (answer, status) = try await exchange("POST", page, body: body)
        // The dashboard answers a done form with 303 back to itself (read, not followed).
        guard status == 303 || status == 200 else { throw fail(2, "HTTP \(status): \(Self.message(in: answer) ?? "the dashboard refused")") }
    }

    /// One request with the merchant key, through the tools' client: a redirect is read,
    /// never followed, and the page is bounded.
    private func exchange(_ method: String, _ url: URL, body: Data? = nil) async throws -> (String, Int) {
        var headers: [(name: String, value: String)] = [("Authorization", "Bearer " + key)]
        if body != nil { headers.append(("Content-Type", "application/x-www-form-urlencoded")) }
        let answer: ToolsHTTPClient.Response
        do throws(ToolsHTTPClient.Failure) {
            answer = try await ToolsHTTPClient.shared.send(.init(method, url, headers: headers, body: body, deadline: .seconds(30),
                                                                 limit: 1 << 20, readsRedirects: true))
        } catch {
            throw fail(1, error.description)
        }
        if answer.status == 401 { throw fail(2, "HTTP 401: the merchant key is not this sandbox's") }
        if (300..<400).contains(answer.status), method == "GET" || !Self.isDashboard(answer.header("Location"), root: root) {
            throw fail(1, "HTTP \(answer.status) from \(ToolsHTTPClient.shown(url)): a redirect, not followed (the merchant key stays here)")
        }
        return (answer.text, answer.status)
    }

    /// Whether a `Location` names the dashboard itself (a path on the same sandbox).
    static func isDashboard(_ location: String?, root: URL) -> Bool {
        guard let location else { return false }
        return location.hasPrefix("/sandbox/dashboard") || location.hasPrefix(root.absoluteString + "sandbox/dashboard")
    }

    /// The message of the dashboard's error page.
    static func message(in html: String) -> String? {
        guard let start = html.range(of: "<h1>Cannot do that</h1><p>") else { return nil }
        return String(html[start.upperBound...].prefix { $0 != "<" })
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'")
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&")
    }
}
