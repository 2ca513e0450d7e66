import ArgumentParser
@_spi(Tools) import ChargeKit
import ChargeKitCommands
import Foundation
import ToolsHTTP

extension UPI {
    struct Listen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Receive every IPN of the merchant from a sandbox over one long-lived connection, and post each to a local URL.",
            discussion: "Each IPN is posted byte for byte, signed as the sandbox signs it, whether or not its charge named an IPN URL; "
                + "one line is printed per IPN: time (ISO 8601), ipn number, charge, event, the local answer (with --json, one JSON "
                + "object a line: time, charge, event, answer, delivered, ipn); text the server sent is escaped. Standard error says "
                + "when it is connected, and to what. A dropped connection is resumed where it stopped; a new listener resumes after "
                + "the IPN given with --after (the ipn of a line printed before; one beyond the sandbox's newest exits 65). "
                + "Runs until interrupted."
        )
        @OptionGroup var connection: Connection
        @Option(name: .customLong("forward-to"), help: "Where each IPN is posted, such as http://127.0.0.1:4242/ipn.") var forwardTo: String
        @Option(help: "Only these events, comma-separated: charge.pending, charge.authorized, charge.succeeded, charge.failed, charge.canceled, charge.expired, refund.succeeded.")
        var events: String?
        @Flag(name: .customLong("print-secret"), help: "Print the IPN secret to verify with (upi verify-ipn --secret), then listen.")
        var printSecret = false
        @Option(help: "Resume after this IPN: the ipn of a line printed before (each --json line has it); 0 sends every IPN the sandbox keeps. Without it, the IPNs to come.")
        var after: String?

        func run() async throws {
            try await Self.withOwnUsage {
                let key = try connection.operatorKey("listen")
                guard let target = URL(string: forwardTo), let scheme = target.scheme?.lowercased(), scheme == "http" || scheme == "https",
                      target.host != nil else { throw ValidationError("--forward-to must be an http(s) URL, got \(forwardTo)") }
                guard let root = connection.root else { throw ValidationError("--base-url is not a URL") }
                let wanted = events.map { Set($0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }) }
                if let after, after.isEmpty || after.count > 18 || !after.utf8.allSatisfy({ (0x30...0x39).contains($0) }) {
                    throw ValidationError("--after must be the ipn of an IPN printed before (digits), got \(after)")
                }
                guard let stream = URL(string: root.absoluteString + "v1/ipn-events") else { throw ValidationError("--base-url is not a URL") }
                FollowOutput.endCleanlyOnSignals()
                try await listen(stream, key: key, target: target, wanted: wanted)
            }
        }

        private func listen(_ stream: URL, key: String, target: URL, wanted: Set<String>?) async throws {
            var last = after
            var secretShown = false
            var connected = false
            var failures = 0
            while !Task.isCancelled {
                var headers: [(name: String, value: String)] = [("Authorization", "Bearer " + key)]
                if let last { headers.append(("Last-Event-ID", last)) }
                do {
                    let events = try await ToolsHTTPClient.shared.events(.init("GET", stream, headers: headers, deadline: .seconds(30)),
                                                                         maximumEventBytes: Self.maximumEvent)
                    for try await event in events {
                        failures = 0
                        if event.name == "hello" {
                            let hello = Self.fields(of: event.data)
                            try Self.checkResume(last, latest: hello["latest"], fromFlag: last == after)
                            if printSecret && !secretShown, let secret = hello["ipn_secret"] {
                                Self.say(connection.json ? Self.json(["ipn_secret": secret]) : "ipn secret: \(secret.escapedForTerminal)")
                                secretShown = true
                            }
                            if !connected {
                                let merchant = (hello["merchant"] ?? "the merchant").escapedForTerminal
                                Self.note("connected to \(ToolsHTTPClient.shown(stream)): forwarding IPNs of \(merchant) to \(forwardTo.escapedForTerminal)")
                                connected = true
                            }
                            continue
                        }
                        if let id = event.id { last = id }
                        guard wanted?.contains(event.name) ?? true else { continue }
                        let charge = Self.fields(of: event.data)["id"]
                        let (answer, delivered) = await forward(event.data, charge: charge, to: target)
                        if let id = event.id { await report(id, answer: answer, delivered: delivered, stream: stream, key: key) }
                        let time = ISO8601DateFormatter().string(from: Date())
                        let ipn = event.id ?? ""
                        Self.say(connection.json
                            ? Self.json(["time": time, "charge": charge ?? "?", "event": event.name, "answer": answer, "delivered": delivered, "ipn": ipn])
                            : "\(time)  ipn \(ipn.escapedForTerminal)  \((charge ?? "?").escapedForTerminal)  \(event.name.escapedForTerminal)  \(answer.escapedForTerminal)")
                    }
                } catch let refusal as ToolsHTTPClient.StreamRefusal {
                    let message = Self.fields(of: refusal.body, in: "data")["message"] ?? String(refusal.body.prefix(200))
                    throw fail(refusal.status == 401 ? 2 : 1, "HTTP \(refusal.status): \(message)")
                } catch let exit as ExitCode {
                    throw exit
                } catch ToolsHTTPClient.Failure.redirect(let status, let url) {
                    // Never followed: it would carry the merchant key elsewhere.
                    throw fail(1, "HTTP \(status) from \(url): the stream redirects, which a sandbox never does; not followed (the merchant key stays here)")
                } catch {
                    failures += 1
                    if failures == 1 || failures.isMultiple(of: 30) {
                        Self.note("chargekit upi listen: \(String(describing: error).escapedForTerminal); reconnecting")
                    }
                }
                try await Task.sleep(nanoseconds: 1_000_000_000)
            }
        }

        /// The most bytes one IPN event may take.
        static let maximumEvent = 256 * 1024

        /// Stops with exit 65 when the IPN to resume after is beyond the sandbox's newest
        /// (its database was recreated, say): the listener would otherwise wait forever.
        static func checkResume(_ resume: String?, latest: String?, fromFlag: Bool) throws {
            guard let resume, let after = Int64(resume), let latest = latest.flatMap({ Int64($0) }), after > latest else { return }
            let hint = latest == 0 ? "it has no IPN yet" : "its newest is \(latest)"
            throw fail(65, fromFlag
                ? "--after \(after) is beyond the newest IPN of this sandbox (\(hint)): give --after \(latest) or less, or leave --after out for the IPNs to come"
                : "the sandbox no longer has IPN \(after), the last one this listener had (\(hint); was its database recreated?): restart with --after \(latest) or less")
        }

        /// Tells the sandbox how the forward went (shown on its dashboard); best effort.
        private func report(_ id: String, answer: String, delivered: Bool, stream: URL, key: String) async {
            let text = String(answer.unicodeScalars.filter { $0.properties.generalCategory != .control }.prefix(200).map(Character.init))
            guard let body = try? JSONSerialization.data(withJSONObject: ["answer": text.isEmpty ? "?" : text, "delivered": delivered]) else { return }
            let url = stream.appendingPathComponent(id).appendingPathComponent("forwards")
            _ = try? await ToolsHTTPClient.shared.send(.init("POST", url, headers: [("Authorization", "Bearer " + key), ("Content-Type", "application/json")],
                                                             body: body, deadline: .seconds(10), limit: 4096))
        }

        /// Posts the IPN as the sandbox would; the local answer in words, and whether it was a 2xx.
        private func forward(_ body: String, charge: String?, to target: URL) async -> (String, Bool) {
            var headers: [(name: String, value: String)] = [("Content-Type", "application/json")]
            // A header carries the charge's id only when it is one (a server's text never reaches a header raw).
            if let charge, (1...128).contains(charge.utf8.count), charge.utf8.allSatisfy({ $0 < 0x80 && isalnum(Int32($0)) != 0 }) {
                headers.append(("X-Citcon-Transaction", charge))
            }
            do throws(ToolsHTTPClient.Failure) {
                let answer = try await ToolsHTTPClient.shared.send(.init("POST", target, headers: headers, body: Data(body.utf8),
                                                                         deadline: .seconds(10), limit: 64 * 1024, readsRedirects: true))
                let redirect = (300..<400).contains(answer.status) ? " (a redirect, not followed)" : ""
                return ("HTTP \(answer.status)\(redirect)", (200..<300).contains(answer.status))
            } catch {
                return ("not delivered: \(error.description)", false)
            }
        }

        /// A line on standard error, at once.
        static func note(_ line: String) {
            FileHandle.standardError.write(Data((line + "\n").utf8))
        }

        /// Prints a line at once (standard output may be a pipe or a file, which would hold it).
        static func say(_ line: String) {
            FollowOutput.line(line)
        }

        /// One line of JSON with sorted keys.
        static func json(_ object: [String: Any]) -> String {
            String(decoding: (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8),
                   as: UTF8.self)
        }

        /// The string members of a JSON object (of its member `member`, when given).
        static func fields(of json: String, in member: String? = nil) -> [String: String] {
            var object = (try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any] ?? [:]
            if let member { object = object[member] as? [String: Any] ?? [:] }
            return object.compactMapValues { $0 as? String }
        }
    }
}
