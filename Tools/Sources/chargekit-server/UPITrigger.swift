import ArgumentParser
@_spi(Tools) import ChargeKit
import ChargeKitCommands
import Foundation

extension UPI {
    struct Trigger: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a charge and drive it to a state, so that its IPNs fire (as Stripe's trigger does).",
            discussion: """
                Events: \(Trigger.events.keys.sorted().joined(separator: ", ")). Each creates a charge of 10.00 USD \
                (alipay; card for charge.authorized) and plays the steps that lead there: confirm (as the app's SDK), \
                pay, decline or cancel (the wallet's buttons), expire (the dashboard's), capture and refund (the merchant's API). \
                --override sets a field of the create body (transaction.amount=5.00 in major units, or any other field); \
                --fixture plays a JSON file of steps instead: {"steps": [{"step": "charge", "body": {...}}, {"step": "confirm", \
                "method": "alipay"}, {"step": "pay"}, {"step": "refund", "amount": "1.00"}]}.
                """
        )
        @OptionGroup var connection: Connection
        @Argument(help: "The event to fire, such as charge.succeeded.") var event: String?
        @Option(name: .customLong("override"), help: "field=value on the create body, such as transaction.currency=EUR (repeatable).")
        var overrides: [String] = []
        @Option(help: "A JSON file of steps to play instead of an event's.") var fixture: String?

        /// Each event's steps after the charge is created.
        static let events: [String: [Step]] = [
            "charge.pending": [.confirm("alipay")],
            "charge.authorized": [.confirm("card"), .button("pay")],
            "charge.succeeded": [.confirm("alipay"), .button("pay")],
            "charge.failed": [.confirm("alipay"), .button("decline")],
            "charge.canceled": [.confirm("alipay"), .button("cancel")],
            "charge.expired": [.button("expire")],
            "refund.succeeded": [.confirm("alipay"), .button("pay"), .refund(nil)],
        ]

        enum Step: Sendable {
            case confirm(String)
            case button(String)
            case capture(String?)
            case refund(String?)
        }

        func run() async throws {
            try await Self.withOwnUsage {
                let dashboard = try connection.dashboard("trigger")
                var (body, steps) = try plan()
                try Self.apply(overrides, to: &body)
                let created = try await connection.call("POST", "/v1/charges", body: try JSONSerialization.data(withJSONObject: body), print: false)
                guard let id = created["id"] as? String, let token = created["charge_token"] as? String else {
                    throw ValidationError("the create answer has no id or charge_token")
                }
                UPI.Listen.say("created \(id.escapedForTerminal)")
                for step in steps { try await play(step, id: id, chargeToken: token, dashboard: dashboard) }
                try await connection.send("GET", "/v1/transactions/\(id)", body: nil)
            }
        }

        /// The create body and the steps: the event's, or the fixture's.
        private func plan() throws -> ([String: Any], [Step]) {
            var body: [String: Any] = [
                "transaction": ["reference": "trigger-" + UUID().uuidString.lowercased().prefix(18), "amount": 1000, "currency": "USD", "country": "US"],
                "payment": ["method": "alipay"],
            ]
            if let fixture {
                guard event == nil else { throw ValidationError("give an event or --fixture, not both") }
                guard let data = FileManager.default.contents(atPath: fixture), data.count <= 64 * 1024,
                      let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
                      let list = object["steps"] as? [[String: Any]], let first = list.first, first["step"] as? String == "charge"
                else { throw ValidationError("--fixture must be a JSON file of at most 64 KiB: {\"steps\": [{\"step\": \"charge\", …}, …]}") }
                if let given = first["body"] as? [String: Any] { body = Self.merged(body, given) }
                return (body, try list.dropFirst().enumerated().map { index, entry in try Self.step(entry, at: index + 1) })
            }
            guard let event, let steps = Self.events[event] else {
                throw ValidationError("the event must be one of \(Self.events.keys.sorted().joined(separator: ", ")), or give --fixture")
            }
            if event == "charge.authorized" { body["payment"] = ["method": "card"] }
            return (body, steps)
        }

        static func step(_ entry: [String: Any], at index: Int) throws -> Step {
            switch entry["step"] as? String {
            case "confirm":
                let method = entry["method"] as? String ?? "alipay"
                guard isName(method, longest: 32) else {
                    throw ValidationError("--fixture: step \(index)'s method must be 1 to 32 letters, digits or '_', such as alipay")
                }
                return .confirm(method)
            case let name? where ["pay", "decline", "cancel", "expire"].contains(name): return .button(name)
            case "capture": return .capture(entry["amount"] as? String)
            case "refund": return .refund(entry["amount"] as? String)
            default: throw ValidationError("--fixture: step \(index) must be confirm, pay, decline, cancel, expire, capture or refund")
            }
        }

        private func play(_ step: Step, id: String, chargeToken: String, dashboard: SandboxDashboard) async throws {
            switch step {
            case .confirm(let method):
                // Written by the encoder: a method is a string value, never JSON pasted into the body.
                let body = try JSONSerialization.data(withJSONObject: ["payment": ["method": method]], options: [.sortedKeys])
                _ = try await connection.call("POST", "/v1/charges/\(chargeToken)", body: body, print: false, tokenType: "client")
                UPI.Listen.say("confirmed with \(method)")
            case .button(let action):
                try await dashboard.press(action, charge: id)
                UPI.Listen.say("pressed \(action)")
            case .capture(let amount):
                try await operate("capture", id: id, amount: amount)
                UPI.Listen.say("captured")
            case .refund(let amount):
                try await operate("refund", id: id, amount: amount)
                UPI.Listen.say("refunded")
            }
        }

        /// A capture or a refund (`kind`) of the charge, all of it or `amount` in its currency.
        private func operate(_ kind: String, id: String, amount: String?) async throws {
            var operation: [String: Any] = ["id": id, "reference": kind + "-" + UUID().uuidString.lowercased().prefix(18)]
            if let amount {
                let currency = try await connection.call("GET", "/v1/transactions/\(id)", body: nil, print: false)["currency"] as? String
                operation["amount"] = try AmountOptions.minorUnits(amount, currency: currency)
            }
            _ = try await connection.call("POST", "/v1/\(kind)s", body: try JSONSerialization.data(withJSONObject: operation), print: false)
        }

        /// Applies `field=value` overrides: a dotted path into the body; `transaction.amount`
        /// is in major units of the body's currency.
        static func apply(_ overrides: [String], to body: inout [String: Any]) throws {
            for override in overrides {
                let parts = override.split(separator: "=", maxSplits: 1)
                guard parts.count == 2, !parts[0].isEmpty else {
                    throw ValidationError("--override must be field=value, got \(String(override.prefix(80)))")
                }
                let path = try keyPath(parts[0])
                var value: Any = String(parts[1])
                if path == ["transaction", "amount"] {
                    let currency = (body["transaction"] as? [String: Any])?["currency"] as? String
                    value = try AmountOptions.minorUnits(String(parts[1]), currency: currency)
                } else if let number = Int(parts[1]) {
                    value = number
                } else if parts[1] == "true" || parts[1] == "false" {
                    value = parts[1] == "true"
                }
                body = set(value, at: path[...], in: body)
            }
        }

        /// The most fields a key path of `--override` goes through, and the longest one.
        static let maximumKeyPathDepth = 8
        static let maximumKeyLength = 64

        /// `--override`'s field, such as `transaction.currency`: at most
        /// ``maximumKeyPathDepth`` names of 1 to ``maximumKeyLength`` letters, digits or `_`.
        static func keyPath(_ field: Substring) throws -> [String] {
            let names = field.split(separator: ".", omittingEmptySubsequences: false)
            guard names.count <= maximumKeyPathDepth, names.allSatisfy({ isName($0, longest: maximumKeyLength) }) else {
                throw ValidationError("--override: the field must be up to \(maximumKeyPathDepth) names of 1 to \(maximumKeyLength) letters, digits or '_' "
                                      + "joined by '.', such as transaction.currency; got \(String(field.prefix(80)).escapedForTerminal)\(field.count > 80 ? "…" : "")")
            }
            return names.map(String.init)
        }

        /// Whether `text` is 1 to `longest` ASCII letters, digits or `_`: a fixture's
        /// method, one name of an `--override` key path.
        static func isName(_ text: some StringProtocol, longest: Int) -> Bool {
            (1...longest).contains(text.utf8.count) && text.utf8.allSatisfy { $0 < 0x80 && (isalnum(Int32($0)) != 0 || $0 == UInt8(ascii: "_")) }
        }

        private static func set(_ value: Any, at path: ArraySlice<String>, in object: [String: Any]) -> [String: Any] {
            guard let first = path.first else { return object }
            var object = object
            object[first] = path.count == 1 ? value : set(value, at: path.dropFirst(), in: object[first] as? [String: Any] ?? [:])
            return object
        }

        private static func merged(_ base: [String: Any], _ given: [String: Any]) -> [String: Any] {
            base.merging(given) { old, new in
                if let old = old as? [String: Any], let new = new as? [String: Any] { return merged(old, new) }
                return new
            }
        }
    }
}

extension UPI {
    struct IPN: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "ipn",
            abstract: "The sandbox's IPNs, as its dashboard shows them: list them, or send one again.",
            subcommands: [List.self, Resend.self]
        )

        struct List: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                abstract: "GET /v1/ipns: each IPN with its charge, event, state, URL and attempts (the merchant key)."
            )
            @OptionGroup var connection: Connection
            @Option(help: "Only this charge's IPNs.") var charge: String?

            func run() async throws {
                try await Self.withOwnUsage {
                    let key = try connection.operatorKey("ipn list")
                    let query = try charge.map { charge -> String in
                        guard charge.utf8.count <= 128, charge.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
                            throw ValidationError("--charge must be a charge's id")
                        }
                        return "?charge=" + charge
                    } ?? ""
                    let listing = try await connection.callArray("/v1/ipns" + query, bearer: key)
                    if connection.json {
                        let data = try JSONSerialization.data(withJSONObject: listing, options: [.sortedKeys, .withoutEscapingSlashes])
                        print(String(decoding: data, as: UTF8.self))
                        return
                    }
                    // Every field is the server's text: escaped, so that it cannot forge a line or drive the terminal.
                    func text(_ value: Any?) -> String { value.map { "\($0)" }?.escapedForTerminal ?? "?" }
                    let iso = ISO8601DateFormatter()
                    for ipn in listing {
                        let attempts = (ipn["attempts"] as? [[String: Any]] ?? []).map { attempt in
                            let time = (attempt["time"] as? NSNumber).map { iso.string(from: Date(timeIntervalSince1970: $0.doubleValue)) + " " } ?? ""
                            return time + ((attempt["number"] as? Int ?? 0) < 0 ? "upi listen " : "") + text(attempt["answer"])
                        }
                        let url = (ipn["url"] as? String).flatMap { $0.isEmpty ? nil : $0 } ?? "(listeners only)"
                        print("\(text(ipn["id"]))  \(text(ipn["charge"]))  \(text(ipn["event"]))  \(text(ipn["state"]))  "
                              + "\(url.escapedForTerminal)  \(attempts.isEmpty ? "no attempt" : attempts.joined(separator: ", "))")
                    }
                }
            }
        }

        struct Resend: AsyncParsableCommand {
            static let configuration = CommandConfiguration(abstract: "Send an IPN again, as the dashboard's Resend does (the merchant key).")
            @OptionGroup var connection: Connection
            @Argument(help: "The IPN's number (upi ipn list shows it).") var ipn: Int64

            func run() async throws {
                try await Self.withOwnUsage {
                    try await connection.dashboard("ipn resend").post(["action": "resend", "ipn": String(ipn)])
                    UPI.Listen.say("IPN \(ipn) is due again (one kept for the listeners is sent to them again, under a new number)")
                }
            }
        }
    }
}
