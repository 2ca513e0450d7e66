import Foundation
import Logging
import ToolsPlatform

/// How a sandbox runs. Every default is what `chargekit sandbox serve` uses.
public struct SandboxConfiguration: Sendable {
    /// The address to bind (loopback by default).
    public var host = "127.0.0.1"
    /// The port; `0` picks a free one (tests).
    public var port = 8790
    /// The SQLite file, created on first start.
    public var databasePath = "sandbox.sqlite"
    /// The merchant private key to use; `nil` keeps the stored one or creates one.
    public var merchantKey: String?
    /// The merchant's IPN secret; `nil` keeps the stored one or creates one.
    public var ipnSecret: String?
    /// Shown on the wallet page.
    public var merchantName = "ChargeKit Sandbox Merchant"
    /// How long an access token lives (24 h, like Citcon's).
    public var tokenLifetime: Duration = .seconds(24 * 3600)
    /// How long a charge may stay unpaid before it expires.
    public var chargeLifetime: Duration = .seconds(15 * 60)
    /// Delays between IPN attempts; after the last one fails the IPN is dead-lettered.
    /// Default: exponential back-off 1 s, 2 s, 4 s … 64 s (8 attempts in all).
    public var ipnRetrySchedule: [Duration] = (0..<7).map { .seconds(1 << $0) }
    /// The timeout of one IPN attempt.
    public var ipnTimeout: Duration = .seconds(5)
    /// Whether IPN may go to hosts other than loopback.
    public var allowNonLoopbackIPN = false
    /// Whether concurrent writes share one durable commit (see ``SQLiteSandboxStore``).
    public var groupCommit = true
    /// How long a client may take to send a whole request (from connecting, or from
    /// the previous answer); a half-sent or idle connection is closed after it.
    public var requestTimeout: Duration = .seconds(30)
    /// The most connections served at once; further clients wait to be accepted. The
    /// server serves fewer when the process's open-file limit leaves no room for them
    /// (the open-file limit minus 64).
    public var maximumConnections = 256
    /// The most bytes of an over-limit body read and discarded before the `413`
    /// answer, so that a client that writes its whole body before reading still gets it.
    public var maximumDiscardedBytes = 8 << 20
    /// The address clients reach the sandbox at (`http://192.168.1.20:8790`), put into
    /// wallet and QR links and shown as the base URL; `nil` uses the address it binds.
    /// Needed when it binds `0.0.0.0` for a phone, which cannot open that address.
    public var publicURL: String?
    /// Where requests and IPN attempts are logged (one structured record each, at
    /// `info`; secrets never appear). The default logs warnings only.
    public var logger: Logger = {
        var logger = Logger(label: "chargekit.sandbox")
        logger.logLevel = .warning
        return logger
    }()
    /// How often the IPN worker and the expiry sweeper look for work.
    public var workerInterval: Duration = .milliseconds(100)

    /// The defaults.
    public init() {}

    /// Descriptors kept free beside client connections: the database's files, up to
    /// 32 IPN deliveries at once, the listener, logs.
    package static let reservedDescriptors = 64

    /// The connections the server serves at once: `requested`, but always below the
    /// open-file limit (minus ``reservedDescriptors``). A server that accepts up to its
    /// file limit gets `EMFILE` from `accept` on every wake-up, spins a core and serves
    /// nobody until a connection closes; below the limit, a full server leaves new clients
    /// in the listen queue and accepts them as the request timeout closes idle ones.
    package static func connectionCap(requested: Int, openFileLimit: Int? = currentOpenFileLimit()) -> Int {
        guard let openFileLimit else { return requested }
        return max(1, min(requested, openFileLimit - reservedDescriptors))
    }

    /// The process's soft limit on open files (`RLIMIT_NOFILE`), or `nil` when unlimited or unknown.
    package static func currentOpenFileLimit() -> Int? {
        var limit = rlimit()
        #if canImport(Glibc)
        guard getrlimit(Platform.openFileLimit, &limit) == 0 else { return nil }
        #else
        guard getrlimit(RLIMIT_NOFILE, &limit) == 0 else { return nil }
        #endif
        return limit.rlim_cur == rlim_t.max ? nil : Int(clamping: limit.rlim_cur)  // rlim_t.max: RLIM_INFINITY
    }

    /// The fewest characters a configured merchant key or IPN secret may have: a
    /// shorter one falls to guessing (a 2-letter key took 442 tries). Generated ones
    /// are 48 hex digits and more.
    public static let minimumSecretLength = 16
}

extension Duration {
    /// Whole milliseconds.
    var milliseconds: Int64 { components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000 }
}

/// Milliseconds since 1970.
func epochMilliseconds() -> Int64 { Int64((Date().timeIntervalSince1970 * 1000).rounded(.down)) }

/// `count` random bytes (from the system's CSPRNG) as lower-case hex.
func randomHex(bytes count: Int) -> String {
    var generator = SystemRandomNumberGenerator()
    return String(unsafeUninitializedCapacity: count * 2) { buffer in
        var index = 0
        for start in stride(from: 0, to: count, by: 8) {
            writeHex(generator.next(), digits: 2 * min(8, count - start), into: buffer, at: &index)
        }
        return index
    }
}

/// Writes the last `digits` hex digits of `value` (lower case, the most significant
/// first, zero-padded) into `buffer` at `index`, and moves `index` past them. The
/// caller has made room for them.
@inline(__always)
func writeHex(_ value: UInt64, digits: Int, into buffer: UnsafeMutableBufferPointer<UInt8>, at index: inout Int) {
    let hex: StaticString = "0123456789abcdef"
    for place in (0..<digits).reversed() {
        buffer[index] = hex.utf8Start[Int(truncatingIfNeeded: (value >> UInt64(4 * place)) & 0xF)]
        index += 1
    }
}

/// `count` random decimal digits, the first not zero: transaction ids as the live API
/// writes them (a long numeric string).
///
/// Each digit comes from one random byte, eight bytes per draw from the system's
/// generator (a system call each: drawing per digit made it 19 calls): a byte below
/// 250 gives `byte % 10`, the first digit's below 252 gives `1 + byte % 9`, and the
/// few bytes above are dropped, so every digit is uniform.
func randomDigits(_ count: Int) -> String {
    var generator = SystemRandomNumberGenerator()
    let count = max(1, count)
    var digits = [UInt8]()
    digits.reserveCapacity(count)
    var word: UInt64 = 0, bytesLeft = 0
    while digits.count < count {
        if bytesLeft == 0 { (word, bytesLeft) = (generator.next(), 8) }
        let byte = UInt8(truncatingIfNeeded: word)
        word >>= 8
        bytesLeft -= 1
        if digits.isEmpty {
            if byte < 252 { digits.append(UInt8(ascii: "1") + byte % 9) }
        } else if byte < 250 {
            digits.append(UInt8(ascii: "0") + byte % 10)
        }
    }
    return String(decoding: digits, as: UTF8.self)
}

/// Whether a URL's host is a loopback address in its one canonical form: an IPv4
/// literal in 127.0.0.0/8 written as four decimal parts, `[::1]`, or `localhost`.
///
/// A name is never resolved here (`127.attacker.example` is a name, not an address),
/// and no other spelling of an address is taken (`2130706433`, `0x7f.1`, `0177.0.0.1`,
/// `[::ffff:127.0.0.1]`, `0.0.0.0`): the connection then goes to exactly the address
/// judged, so what is checked is what is connected to.
func isLoopback(_ url: String) -> Bool {
    guard let components = URLComponents(string: url), let scheme = components.scheme?.lowercased(),
          scheme == "http" || scheme == "https", let host = components.host?.lowercased(), components.user == nil
    else { return false }
    if host == "localhost" { return true }
    if host.hasPrefix("[") && host.hasSuffix("]") || host.contains(":") {
        let bare = host.trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        var address = in6_addr()
        guard inet_pton(AF_INET6, bare, &address) == 1 else { return false }
        return withUnsafeBytes(of: &address) { Array($0) } == Array(repeating: 0, count: 15) + [1]
    }
    let parts = host.split(separator: ".", omittingEmptySubsequences: false)
    guard parts.count == 4, parts.allSatisfy({ part in
        !part.isEmpty && part.count <= 3 && part.allSatisfy(\.isASCIIDigit) && (part.count == 1 || part.first != "0")
            && Int(part).map { $0 <= 255 } == true
    }) else { return false }
    return parts[0] == "127"
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
