import ArgumentParser
import ChargeKitCommands
import Foundation

extension UPI {
    /// `chargekit upi clock [advance DURATION]`: the sandbox's simulated time.
    struct Clock: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read the sandbox's simulated time, or move it forward so that charges and tokens expire and IPN retries come due without waiting.",
            subcommands: [Show.self, Advance.self, Reset.self],
            defaultSubcommand: Show.self
        )

        struct Show: AsyncParsableCommand {
            static let configuration = CommandConfiguration(commandName: "show", abstract: "GET /sandbox/clock: the sandbox's time and how far ahead it runs.")
            @OptionGroup var connection: Connection

            func run() async throws {
                try await Self.withOwnUsage { try await Clock.call("GET", body: nil, connection, command: "clock") }
            }
        }

        struct Advance: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "advance",
                abstract: "POST /sandbox/clock: move the sandbox's clock forward, such as 31m (s, m, h, d; 1h30m), for every instance of a shared sandbox."
            )
            @OptionGroup var connection: Connection
            @Argument(help: "How far: 90s, 31m, 2h, 1d, 1h30m (a bare number is seconds).") var duration: String

            func run() async throws {
                try await Self.withOwnUsage {
                    let seconds = try Clock.seconds(duration)
                    let body = try JSONSerialization.data(withJSONObject: ["advance_seconds": seconds])
                    try await Clock.call("POST", body: body, connection, command: "clock advance")
                }
            }
        }

        struct Reset: AsyncParsableCommand {
            static let configuration = CommandConfiguration(
                commandName: "reset",
                abstract: "DELETE /sandbox/clock: put the sandbox's clock back to the real time, for every instance of a shared sandbox."
            )
            @OptionGroup var connection: Connection

            func run() async throws {
                try await Self.withOwnUsage { try await Clock.call("DELETE", body: nil, connection, command: "clock reset") }
            }
        }

        /// `31m`, `1h30m`, `90` as seconds; a usage error naming the argument otherwise.
        static func seconds(_ text: String) throws -> Int64 {
            let units: [Character: Int64] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
            var total: Int64 = 0, number: Int64?, parts = 0
            for character in text {
                if let digit = character.wholeNumberValue, character.isASCII {
                    let (grown, overflow) = (number ?? 0).multipliedReportingOverflow(by: 10)
                    guard !overflow, grown <= Int64(Int32.max) else { throw Self.badDuration(text) }
                    number = grown + Int64(digit)
                } else if let unit = units[character], let value = number {
                    total += value * unit
                    number = nil
                    parts += 1
                } else {
                    throw Self.badDuration(text)
                }
            }
            if let number { total += number; parts += 1 }
            guard parts > 0, total > 0, total <= 10 * 366 * 86_400 else { throw Self.badDuration(text) }
            return total
        }

        private static func badDuration(_ text: String) -> ValidationError {
            ValidationError("<duration> must be a time forward of at most ten years, such as 90s, 31m, 2h, 1d or 1h30m; got \(String(text.prefix(40)).escapedForTerminal)")
        }

        /// `method /sandbox/clock` with `body`: the answer as JSON with `--json`, else the reading for people.
        static func call(_ method: String, body: Data?, _ connection: Connection, command: String) async throws {
            let reading = try await connection.operatorCall(method, "/sandbox/clock", body: body, print: connection.json, command: command)
            if !connection.json { say(reading) }
        }

        /// The reading for people: the time in ISO 8601 and the offset.
        private static func say(_ reading: [String: Any]) {
            let now = (reading["now"] as? NSNumber)?.int64Value ?? 0
            let offset = (reading["offset_seconds"] as? NSNumber)?.int64Value ?? 0
            let time = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: TimeInterval(now)))
            print("sandbox time: \(time) (\(offset) s ahead of the real time)")
        }
    }
}
