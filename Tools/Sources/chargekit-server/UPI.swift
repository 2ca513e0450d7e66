import ArgumentParser
import ChargeKitCommands
@_spi(Tools) import CitconUPI
import Foundation

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
        subcommands: [Token.self, Charge.self, Inquire.self, Capture.self, Refund.self, Cancel.self, VerifyIPN.self]
    )

    /// What every API operation takes.
    struct Connection: ParsableArguments {
        @Option(name: .customLong("base-url"), help: "The API's /v1 root (default: the local sandbox).")
        var baseURL = "http://127.0.0.1:8790/v1"
        @Option(help: "The merchant private key; the command gets a server access token with it (default: $CHARGEKIT_MERCHANT_KEY, which keeps it out of ps and shell history).")
        var key: String?
        @Option(help: "An access token to use as is.")
        var token: String?
        @Option(help: "The request body as JSON: a file, or - for standard input. Flags override its top-level fields.")
        var body: String?
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

        /// The API root the client appends `/v1/…` to.
        var root: URL? {
            guard let url = URL(string: baseURL), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https",
                  url.host != nil else { return nil }
            var text = baseURL
            while text.hasSuffix("/") { text.removeLast() }
            if text.hasSuffix("/v1") { text.removeLast(3) }
            return URL(string: text + "/")
        }

        /// The body from `--body`, as a JSON object, with `overrides` applied.
        func requestBody(_ overrides: [String: Any?]) throws -> Data {
            try requestBody { object in
                for (key, value) in overrides { if let value { object[key] = value } }
            }
        }

        /// The body from `--body`, as a JSON object, changed by `edit`.
        func requestBody(_ edit: (inout [String: Any]) -> Void) throws -> Data {
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
            edit(&object)
            return try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
        }

        /// Sends the request (getting a server token first with `--key`) and reports the
        /// answer; returns only on success.
        func send(_ method: String, _ path: String, body: Data?) async throws {
            guard let root else { throw ValidationError("--base-url is not a URL") }
            let client = UPIClient(baseURL: root)
            let bearer: String
            if let token = token {
                bearer = token
            } else {
                let (status, answer) = try await exchange(client, "POST", "/v1/access-tokens", bearer: merchantKey ?? "",
                                                          body: Data(#"{"token_type":"server"}"#.utf8))
                let data = try report(status: status, body: answer, print: false)
                guard let access = data["access_token"] as? String else { throw fail(2, "the token answer has no access_token") }
                bearer = access
            }
            let (status, answer) = try await exchange(client, method, path, bearer: bearer, body: body)
            _ = try report(status: status, body: answer, print: true)
        }

        private func exchange(_ client: UPIClient, _ method: String, _ path: String, bearer: String, body: Data?)
            async throws -> (Int, Data)
        {
            do throws(CPayError) {
                return try await client.exchange(method, path: path, bearer: bearer, body: body)
            } catch {
                throw fail(1, error.description)
            }
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
                    for key in data.keys.sorted() {
                        let value = data[key]
                        if let text = value as? String { print("\(key): \(text.escapedForTerminal)") }
                        else if let number = value as? NSNumber { print("\(key): \(number)") }
                    }
                }
            }
            return data
        }
    }

    struct Token: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "POST /v1/access-tokens: an access token for the merchant key.")
        @OptionGroup var connection: Connection
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
                let body = try connection.requestBody(["token_type": tokenType])
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
        @Option(help: "The merchant's reference (unique).") var reference: String?
        @Option(help: "Amount in minor units (100 is 1.00 USD).") var amount: Int?
        @Option(help: "ISO 4217 currency.") var currency: String?
        @Option(help: "ISO 3166 country.") var country: String?
        @Option(help: "Payment method: alipay, wechatpay, upop, paypal, venmo, card…") var method: String?
        @Option(name: .customLong("ipn-url"), help: "Where IPNs go (urls.ipn).") var ipnURL: String?

        func run() async throws {
            try await Self.withOwnUsage {
                let body = try connection.requestBody { object in
                    func set(_ section: String, _ key: String, _ value: Any?) {
                        guard let value else { return }
                        var inner = object[section] as? [String: Any] ?? [:]
                        inner[key] = value
                        object[section] = inner
                    }
                    set("transaction", "reference", reference)
                    set("transaction", "amount", amount)
                    set("transaction", "currency", currency)
                    set("transaction", "country", country)
                    set("payment", "method", method)
                    set("urls", "ipn", ipnURL)
                }
                try await connection.send("POST", "/v1/charges", body: body)
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

    /// Captures, refunds and cancels: the charge's `id`, an operation `reference`, an amount.
    struct OperationOptions: ParsableArguments {
        @Option(help: "The charge's transaction id.") var id: String?
        @Option(help: "This operation's own reference (unique).") var reference: String?
        @Option(help: "Amount in minor units (default: all).") var amount: Int?

        var overrides: [String: Any?] { ["id": id, "reference": reference, "amount": amount] }
    }

    struct Capture: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "POST /v1/captures: capture an authorized charge.")
        @OptionGroup var connection: Connection
        @OptionGroup var operation: OperationOptions
        func run() async throws { try await Self.withOwnUsage { try await connection.send("POST", "/v1/captures", body: try connection.requestBody(operation.overrides)) } }
    }

    struct Refund: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "POST /v1/refunds: refund a paid charge, in whole or in part.")
        @OptionGroup var connection: Connection
        @OptionGroup var operation: OperationOptions
        @Option(help: "Why (the refund's note).") var note: String?
        func run() async throws {
            try await Self.withOwnUsage {
                var overrides = operation.overrides
                overrides["note"] = note
                try await connection.send("POST", "/v1/refunds", body: try connection.requestBody(overrides))
            }
        }
    }

    struct Cancel: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "POST /v1/cancels: cancel an unpaid charge.")
        @OptionGroup var connection: Connection
        @OptionGroup var operation: OperationOptions
        @Option(name: .customLong("transaction-reference"), help: "The charge's own reference.") var transactionReference: String?
        func run() async throws {
            try await Self.withOwnUsage {
                var overrides = operation.overrides
                overrides["transaction_reference"] = transactionReference
                try await connection.send("POST", "/v1/cancels", body: try connection.requestBody(overrides))
            }
        }
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
private func fail(_ code: Int32, _ message: String) -> ExitCode {
    FileHandle.standardError.write(Data("chargekit upi: \(message.escapedForTerminal)\n".utf8))
    return ExitCode(code)
}
