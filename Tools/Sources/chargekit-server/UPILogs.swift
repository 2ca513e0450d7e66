import ArgumentParser
import ChargeKitCommands
import Foundation

extension UPI {
    /// `chargekit upi logs [tail]`: the API requests the sandbox answered, bodies masked.
    struct Logs: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The API requests the sandbox answered, with their status and bodies (keys, tokens and secrets masked).",
            subcommands: [Tail.self]
        )

        struct Tail: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "tail",
                abstract: "GET /v1/logs: print the requests the sandbox answered, one a line, then follow new ones (--once: print and exit); each line written as it comes, SIGINT/SIGTERM end it (exit 0)."
            )
            @OptionGroup var connection: Connection
            @Option(help: "Start after this request id (0: every request kept; the newest 20 when absent).") var after: Int64?
            @Flag(help: "Print what is there and exit instead of following.") var once = false
            @Flag(help: "Also print each request's and answer's body (masked).") var bodies = false

            func run() async throws {
                try await Self.withOwnUsage {
                    let key = try connection.operatorKey("logs tail")
                    if !once { FollowOutput.endCleanlyOnSignals() }
                    var last = after ?? -1
                    if last < 0 {
                        // The newest 20: read the page the sandbox keeps and start 20 from its end.
                        let kept = try await connection.callArray("/v1/logs?after=0&limit=500", bearer: key)
                        let ids = kept.compactMap { ($0["id"] as? NSNumber)?.int64Value }
                        last = ids.count > 20 ? ids[ids.count - 21] : 0
                    }
                    while true {
                        let page = try await connection.callArray("/v1/logs?after=\(last)&limit=500", bearer: key)
                        for entry in page {
                            last = max(last, (entry["id"] as? NSNumber)?.int64Value ?? last)
                            FollowOutput.line(line(entry))
                        }
                        if once { return }
                        if page.count < 500 { try await Task.sleep(for: .seconds(1)) }
                    }
                }
            }

            /// One request for people (every server-sent text escaped), or as JSON.
            private func line(_ entry: [String: Any]) -> String {
                if connection.json {
                    let data = (try? JSONSerialization.data(withJSONObject: entry, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data()
                    return String(decoding: data, as: UTF8.self)
                }
                func text(_ name: String) -> String { ((entry[name] as? String) ?? (entry[name] as? NSNumber)?.stringValue ?? "").escapedForTerminal }
                let time = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval((entry["time"] as? NSNumber)?.int64Value ?? 0)))
                var line = "\(time)  \(text("id"))  \(text("method")) \(text("route"))  \(text("status"))  \(text("milliseconds")) ms"
                if bodies {
                    if entry["request_body"] is String { line += "\n  > " + text("request_body") }
                    if entry["response_body"] is String { line += "\n  < " + text("response_body") }
                }
                return line
            }
        }
    }
}
