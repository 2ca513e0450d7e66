import ChargeKit
import Foundation
import Synchronization

/// The API requests a sandbox instance answered, newest last, for the merchant to read
/// (`GET /v1/logs`, `chargekit upi logs tail`, the dashboard): method, route, status,
/// duration and both bodies, with every key, token and secret masked. Bounded: the
/// last ``capacity`` requests, each body cut at ``maximumBodyBytes``. Each instance of a
/// shared sandbox keeps its own.
package final class RequestJournal: Sendable {
    /// One request as answered.
    package struct Entry: Codable, Sendable, Hashable {
        /// Increasing within the instance: `GET /v1/logs?after=` takes it.
        package var id: Int64
        /// When it was answered, in the sandbox's clock (Unix seconds).
        package var time: Int64
        package var method: String
        /// The route the router matched (`/v1/charges/{charge_token}`): never a token in a path.
        package var route: String
        package var status: Int
        package var milliseconds: Double
        /// The request's body as read, masked; `nil` when it had none.
        package var requestBody: String?
        /// The answer's body, masked; `nil` when it had none.
        package var responseBody: String?

        enum CodingKeys: String, CodingKey, CaseIterable {
            case id, time, method, route, status, milliseconds
            case requestBody = "request_body", responseBody = "response_body"
        }
    }

    /// How many requests are kept.
    package let capacity: Int
    /// The most bytes kept of one body.
    package static let maximumBodyBytes = 4096

    /// A request as kept: its bodies' first bytes as they came, masked only when read,
    /// so that answering costs a copy, not a parse.
    private struct Kept {
        var entry: Entry
        var requestBody: Data?
        var responseBody: Data?

        var masked: Entry {
            var entry = entry
            entry.requestBody = requestBody.flatMap(RequestJournal.masked)
            entry.responseBody = responseBody.flatMap(RequestJournal.masked)
            return entry
        }
    }

    private struct State {
        var kept: [Kept] = []
        var next: Int64 = 1
    }
    private let state = Mutex(State())

    package init(capacity: Int = 500) { self.capacity = max(1, capacity) }

    /// Records a request; returns its id.
    @discardableResult
    package func record(time: Int64, method: String, route: String, status: Int, milliseconds: Double,
                        requestBody: Data?, responseBody: Data?) -> Int64 {
        let cut = { (body: Data?) in body.map { $0.count > Self.maximumBodyBytes + 1 ? Data($0.prefix(Self.maximumBodyBytes + 1)) : $0 } }
        let (request, response) = (cut(requestBody), cut(responseBody))
        return state.withLock { state in
            let id = state.next
            state.next += 1
            let entry = Entry(id: id, time: time, method: method, route: route, status: status,
                              milliseconds: (milliseconds * 100).rounded() / 100, requestBody: nil, responseBody: nil)
            state.kept.append(Kept(entry: entry, requestBody: request, responseBody: response))
            if state.kept.count > capacity { state.kept.removeFirst(state.kept.count - capacity) }
            return id
        }
    }

    /// The requests after `id`, oldest first, at most `limit`.
    package func entries(after id: Int64, limit: Int) -> [Entry] {
        state.withLock { state in Array(state.kept.lazy.filter { $0.entry.id > id }.prefix(max(0, limit))) }.map(\.masked)
    }

    /// The newest requests, newest first, without their bodies.
    package func latest(_ count: Int) -> [Entry] {
        state.withLock { state in Array(state.kept.suffix(max(0, count)).reversed()) }.map(\.entry)
    }

    /// Names whose values are credentials, compared by meaning: case and separators
    /// aside (`access_token`, `accessToken`, `Access-Token`, `api.key`), a name that is
    /// or ends with token, key, secret, password or signature, or the wallet's `k`
    /// (`token_type`, which says what a token is for, is not one).
    static func isSecret(_ name: String) -> Bool {
        let name = String(name.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) })
        if ["k", "authorization", "auth", "credential", "credentials", "pin", "cvv", "cvc"].contains(name) { return true }
        return ["token", "key", "secret", "password", "passwd", "signature"].contains { name.hasSuffix($0) }
    }

    /// `body` as text with every credential masked: a JSON string member by its name,
    /// at any depth, and a `name=value` pair of a form or of a URL inside a value (the
    /// wallet link's capability `k`), also in a body cut short; every card-number-like
    /// run of digits masked wherever it is (first six and last four kept); cut at
    /// ``maximumBodyBytes``. A body that is not UTF-8 text (UTF-16 JSON, binary) is
    /// logged as its size only: it cannot be masked by reading it.
    static func masked(_ body: Data) -> String? {
        guard !body.isEmpty else { return nil }
        let kept = body.prefix(maximumBodyBytes)
        // (A body cut at the bound may end inside a character: up to three bytes dropped.)
        guard !kept.contains(0), var text = (0...3).lazy.compactMap({ String(validating: kept.dropLast($0), as: UTF8.self) }).first else {
            return "(\(body.count) bytes, not UTF-8 text: not kept)"
        }
        text = plainEscapes(text)
        for (pattern, nameGroup, valueGroup) in patterns {
            let matches = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text))
            for match in matches.reversed() {
                guard let name = Range(match.range(at: nameGroup), in: text), let value = Range(match.range(at: valueGroup), in: text),
                      isSecret(String(text[name])) else { continue }
                text.replaceSubrange(value, with: maskedValue(String(text[value])))
            }
        }
        text = maskedCardNumbers(text)
        return body.count > maximumBodyBytes ? text + "… (cut)" : text
    }

    /// `text` with each JSON escape `\u00XX` of a letter, a digit, `_`, `-` or a space
    /// written as that character (the JSON reads the same), so that a name or a number
    /// escaped (`"access\u005ftoken"`, `"411\u00311111…"`) is masked as one written
    /// plainly. Any other escape, `\\` before a `u` too, is kept as sent.
    static func plainEscapes(_ text: String) -> String {
        guard text.contains("\\u") else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var index = 0
        while index < scalars.count {
            guard scalars[index] == "\\", index + 1 < scalars.count else {
                out.append(scalars[index])
                index += 1
                continue
            }
            if scalars[index + 1] == "u", index + 5 < scalars.count, scalars[(index + 2)...(index + 5)].allSatisfy(\.properties.isASCIIHexDigit),
               let value = UInt32(String(String.UnicodeScalarView(scalars[(index + 2)...(index + 5)])), radix: 16),
               let scalar = Unicode.Scalar(value), scalar.isASCII,
               scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-" || scalar == " " {
                out.append(scalar)
                index += 6
            } else {
                out.append(contentsOf: scalars[index...(index + 1)])
                index += 2
            }
        }
        return String(out)
    }

    /// Runs of 13 to 19 digits (spaces or dashes between them allowed) that start as
    /// card numbers do (2 to 6: the sandbox's ids and millisecond times start with 1) and
    /// pass the Luhn check: all but their first six and last four digits masked.
    static func maskedCardNumbers(_ text: String) -> String {
        var text = text
        let matches = cardNumber?.matches(in: text, range: NSRange(text.startIndex..., in: text)) ?? []
        for match in matches.reversed() {
            guard let range = Range(match.range, in: text) else { continue }
            let digits = text[range].filter(\.isNumber)
            guard (13...19).contains(digits.count), luhn(digits),
                  let masked = CardNumberMask.firstSixLastFour(padding: "*").masked(digits) else { continue }
            text.replaceSubrange(range, with: masked)
        }
        return text
    }

    private static let cardNumber = try? NSRegularExpression(pattern: #"(?<![0-9])[2-6](?:[ -]?[0-9]){12,18}(?![0-9])"#)

    static func luhn<S: StringProtocol>(_ digits: S) -> Bool {
        var sum = 0
        for (index, character) in digits.reversed().enumerated() {
            guard let digit = character.wholeNumberValue else { return false }
            sum += index % 2 == 1 ? (digit * 2 > 9 ? digit * 2 - 9 : digit * 2) : digit
        }
        return sum % 10 == 0
    }

    /// `"name": "value"` (the value's closing quote optional: a body may be cut inside
    /// it), and `name=value` after the start, `?` or `&`.
    private static let patterns: [(NSRegularExpression, Int, Int)] = [
        (#""([A-Za-z0-9_\-]+)"\s*:\s*"((?:[^"\\]|\\.)*)"#, 1, 2),
        (#"(?:^|[?&])([A-Za-z0-9_\-]+)=([^&"\s#]*)"#, 1, 2),
    ].compactMap { pattern, name, value in (try? NSRegularExpression(pattern: pattern)).map { ($0, name, value) } }

    /// `…6789`: the last four characters of a long value, nothing of a short one.
    static func maskedValue(_ value: String) -> String {
        value.count >= 16 ? "…" + value.suffix(4) : "…"
    }

}
