import ArgumentParser
@_spi(Tools) import ChargeKit
import ChargeKitCommands
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension UPI {
    struct Listen: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Receive every IPN of the merchant from a sandbox over one long-lived connection, and post each to a local URL.",
            discussion: "Each IPN is posted byte for byte, signed as the sandbox signs it, whether or not its charge named an IPN URL; "
                + "one line is printed per IPN: time, charge, event, the local answer (with --json, one JSON object a line: "
                + "time, charge, event, answer, delivered, ipn). A dropped connection is resumed where it stopped; a new listener "
                + "resumes after the IPN given with --after (the ipn of a line printed before). Runs until interrupted."
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
                try await listen(stream, key: key, target: target, wanted: wanted)
            }
        }

        private func listen(_ stream: URL, key: String, target: URL, wanted: Set<String>?) async throws {
            var last = after
            var secretShown = false
            var failures = 0
            while !Task.isCancelled {
                var request = URLRequest(url: stream)
                request.setValue("Bearer " + key, forHTTPHeaderField: "Authorization")
                request.setValue("text/event-stream", forHTTPHeaderField: "Accept")
                if let last { request.setValue(last, forHTTPHeaderField: "Last-Event-ID") }
                request.timeoutInterval = 60
                do {
                    for try await event in ServerSentEvents.connect(request) {
                        failures = 0
                        if event.name == "hello" {
                            if printSecret && !secretShown, let secret = Self.field("ipn_secret", of: event.data) {
                                Self.say(connection.json ? Self.json(["ipn_secret": secret]) : "ipn secret: \(secret)")
                                secretShown = true
                            }
                            continue
                        }
                        if let id = event.id { last = id }
                        guard wanted?.contains(event.name) ?? true else { continue }
                        let charge = Self.field("id", of: event.data)
                        let (answer, delivered) = await forward(event.data, charge: charge, to: target)
                        if let id = event.id { await report(id, answer: answer, delivered: delivered, stream: stream, key: key) }
                        let time = ISO8601DateFormatter().string(from: Date())
                        Self.say(connection.json
                            ? Self.json(["time": time, "charge": charge ?? "?", "event": event.name, "answer": answer, "delivered": delivered, "ipn": event.id ?? ""])
                            : "\(time)  \(charge ?? "?")  \(event.name)  \(answer)")
                    }
                } catch ServerSentEvents.Failure.refused(let status, let message) {
                    throw fail(status == 401 ? 2 : 1, "HTTP \(status): \(message)")
                } catch {
                    failures += 1
                    if failures == 1 || failures.isMultiple(of: 30) {
                        FileHandle.standardError.write(Data("chargekit upi listen: \(error.localizedDescription); reconnecting\n".utf8))
                    }
                }
                try await Task.sleep(nanoseconds: 1_000_000_000)
            }
        }

        /// Tells the sandbox how the forward went (shown on its dashboard); best effort.
        private func report(_ id: String, answer: String, delivered: Bool, stream: URL, key: String) async {
            var post = URLRequest(url: stream.appendingPathComponent(id).appendingPathComponent("forwards"))
            post.httpMethod = "POST"
            post.setValue("Bearer " + key, forHTTPHeaderField: "Authorization")
            post.setValue("application/json", forHTTPHeaderField: "Content-Type")
            let text = String(answer.unicodeScalars.filter { $0.properties.generalCategory != .control }.prefix(200).map(Character.init))
            post.httpBody = try? JSONSerialization.data(withJSONObject: ["answer": text.isEmpty ? "?" : text, "delivered": delivered])
            post.timeoutInterval = 10
            _ = try? await URLSession.shared.data(for: post)
        }

        /// Posts the IPN as the sandbox would; the local answer in words, and whether it was a 2xx.
        private func forward(_ body: String, charge: String?, to target: URL) async -> (String, Bool) {
            var post = URLRequest(url: target)
            post.httpMethod = "POST"
            post.httpBody = Data(body.utf8)
            post.setValue("application/json", forHTTPHeaderField: "Content-Type")
            if let charge { post.setValue(charge, forHTTPHeaderField: "X-Citcon-Transaction") }
            post.timeoutInterval = 10
            do {
                let (_, response) = try await URLSession.shared.data(for: post)
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                return ("HTTP \(status)", (200..<300).contains(status))
            } catch {
                return ("not delivered: \(error.localizedDescription)", false)
            }
        }

        /// Prints a line at once (standard output may be a pipe or a file, which would hold it).
        static func say(_ line: String) {
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }

        /// One line of JSON with sorted keys.
        static func json(_ object: [String: Any]) -> String {
            String(decoding: (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8),
                   as: UTF8.self)
        }

        /// A string member of a flat JSON object.
        static func field(_ name: String, of json: String) -> String? {
            ((try? JSONSerialization.jsonObject(with: Data(json.utf8))) as? [String: Any])?[name] as? String
        }
    }
}

/// A server-sent events stream read with URLSession (a data delegate, so that events
/// arrive as they are written), each event at most 256 KiB.
enum ServerSentEvents {
    struct Event: Sendable {
        var id: String?
        var name: String
        var data: String
    }

    enum Failure: Error {
        case refused(status: Int, message: String)
        case tooLarge
    }

    static func connect(_ request: URLRequest) -> AsyncThrowingStream<Event, any Error> {
        AsyncThrowingStream { continuation in
            let reader = Reader(continuation)
            let session = URLSession(configuration: .ephemeral, delegate: reader, delegateQueue: nil)
            let task = session.dataTask(with: request)
            continuation.onTermination = { _ in
                task.cancel()
                session.invalidateAndCancel()
            }
            task.resume()
        }
    }

    final class Reader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
        // (@unchecked: the delegate's calls come one at a time, on its session's queue.)
        private let continuation: AsyncThrowingStream<Event, any Error>.Continuation
        private var buffer = Data()
        private var status = 0
        static let maximumEvent = 256 * 1024

        init(_ continuation: AsyncThrowingStream<Event, any Error>.Continuation) { self.continuation = continuation }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
            status = (response as? HTTPURLResponse)?.statusCode ?? 0
            completionHandler(.allow)
        }

        func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
            buffer.append(data)
            guard status == 200 else { return }
            while let end = buffer.range(of: Data("\n\n".utf8)) {
                let block = String(decoding: buffer[buffer.startIndex..<end.lowerBound], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex..<end.upperBound)
                if let event = Self.event(block) { continuation.yield(event) }
            }
            if buffer.count > Self.maximumEvent {
                continuation.finish(throwing: Failure.tooLarge)
                dataTask.cancel()
            }
        }

        func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
            if status != 200 && status != 0 {
                let message = String(decoding: buffer.prefix(2048), as: UTF8.self)
                let text = ((try? JSONSerialization.jsonObject(with: Data(message.utf8))) as? [String: Any])
                    .flatMap { ($0["data"] as? [String: Any])?["message"] as? String } ?? message
                continuation.finish(throwing: Failure.refused(status: status, message: text))
            } else {
                continuation.finish(throwing: error)
            }
            session.finishTasksAndInvalidate()
        }

        /// One event's lines (`id:`, `event:`, `data:`; comments and others ignored).
        static func event(_ block: String) -> Event? {
            var id: String?, name = "message", data: [String] = []
            for line in block.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix(":") { continue }
                let parts = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
                let field = String(parts[0])
                var value = parts.count > 1 ? String(parts[1]) : ""
                if value.hasPrefix(" ") { value.removeFirst() }
                switch field {
                case "id": id = value
                case "event": name = value
                case "data": data.append(value)
                default: continue
                }
            }
            guard !data.isEmpty else { return nil }
            return Event(id: id, name: name, data: data.joined(separator: "\n"))
        }
    }
}
