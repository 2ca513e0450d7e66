import AsyncHTTPClient
import NIOCore

/// The event-stream format (WHATWG HTML, "Server-sent events"), read from bytes: lines
/// end with CR LF, LF or CR; an empty line ends an event; `:` starts a comment; an
/// event without `data` is skipped. What waits for its end is at most `limit` bytes.
public struct ServerSentEventParser: Sendable {
    private let limit: Int
    private var line: [UInt8] = []
    private var afterCR = false
    private var id: String?
    private var name: String?
    private var data: [String] = []
    private var held = 0
    private var ready: [ServerSentEvent] = []

    /// Makes a parser that refuses an event longer than `limit` bytes.
    public init(limit: Int) { self.limit = limit }

    /// Reads `bytes`; the events they end can then be taken with ``next()``.
    public mutating func append(_ bytes: some Sequence<UInt8>) throws(ToolsHTTPClient.Failure) {
        for byte in bytes {
            if afterCR {
                afterCR = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0A: endLine()
            case 0x0D:
                endLine()
                afterCR = true
            default:
                line.append(byte)
                held += 1
                if held > limit { throw .eventTooLarge(limit: limit) }
            }
        }
    }

    /// The next complete event, in order.
    public mutating func next() -> ServerSentEvent? {
        ready.isEmpty ? nil : ready.removeFirst()
    }

    private mutating func endLine() {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else {
            if !data.isEmpty { ready.append(ServerSentEvent(id: id, name: name ?? "message", data: data.joined(separator: "\n"))) }
            id = nil
            name = nil
            data = []
            held = 0
            return
        }
        guard line[0] != UInt8(ascii: ":") else { return }
        let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
        let field = String(decoding: line[..<colon], as: UTF8.self)
        var value = colon < line.endIndex ? line[(colon + 1)...] : []
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        let text = String(decoding: value, as: UTF8.self)
        switch field {
        case "id": id = text
        case "event": name = text
        case "data": data.append(text)
        default: break
        }
    }
}
