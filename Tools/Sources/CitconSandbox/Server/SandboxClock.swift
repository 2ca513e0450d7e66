import Foundation
import NIOConcurrencyHelpers

/// The sandbox's one clock: the real time plus an offset that `POST /sandbox/clock`
/// moves forward, as Stripe's test clocks do, so that a CI job sees a charge or a token
/// expire, and the IPN retry schedule walk, without waiting.
///
/// Every reading of the time in the sandbox goes through it (the API's rules, the IPN
/// worker, the expiry of charges). The offset is kept in the store
/// (`clock_offset_ms`), so that a restart keeps it and the instances of a shared
/// sandbox agree: each reads it again at every tick of its workers (a tenth of a
/// second by default), and the instance that moved it at once.
public final class SandboxClock: Sendable {
    /// The store's key of the offset, in milliseconds.
    static let settingKey = "clock_offset_ms"
    /// The most one call may move the clock: ten years.
    public static let maximumAdvance: Int64 = 10 * 366 * 86_400

    private let offset = NIOLockedValueBox<Int64>(0)
    /// Lets the offset be read from the store at most once a second (real time).
    private let gate = RefreshGate()
    private let real: @Sendable () -> Int64

    /// A clock reading `real` (milliseconds since 1970), at no offset.
    public init(real: (@Sendable () -> Int64)? = nil) { self.real = real ?? { epochMilliseconds() } }

    /// Now, in milliseconds since 1970, as the sandbox sees it.
    public var now: Int64 { real() + offsetMilliseconds }

    /// How far ahead of the real time the sandbox is.
    public var offsetMilliseconds: Int64 { offset.withLockedValue { $0 } }

    /// The store's key of how many times the operator reset the clock.
    static let resetsKey = "clock_resets"
    /// The resets this instance has seen.
    private let resets = NIOLockedValueBox<Int64>(0)

    /// Reads the offset the store keeps (a shared sandbox's other instance may have moved
    /// it forward, or the operator reset it: a reset is taken as it is, a move only forward).
    func refresh(from store: any CredentialStore) async {
        guard let text = try? await store.setting(Self.settingKey), let stored = Int64(text) else { return }
        let resetCount = (try? await store.setting(Self.resetsKey)).flatMap { $0 }.flatMap { Int64($0) } ?? 0
        let reset = resets.withLockedValue { seen -> Bool in
            defer { seen = resetCount }
            return seen != resetCount
        }
        offset.withLockedValue { $0 = reset ? stored : max($0, stored) }
    }

    /// Puts the clock back to the real time, for every instance of a shared sandbox
    /// (`DELETE /sandbox/clock`, the operator's, with the merchant key).
    func reset(in store: any CredentialStore) async throws {
        try await store.setSetting(Self.settingKey, to: "0")
        let count = try await store.add(1, toSetting: Self.resetsKey)
        resets.withLockedValue { $0 = count }
        offset.withLockedValue { $0 = 0 }
    }

    /// ``refresh(from:)`` at most once a second: what the workers call at every tick.
    func refreshIfStale(from store: any CredentialStore) async {
        if gate.opens(at: real()) { await refresh(from: store) }
    }

    /// Moves the clock `seconds` forward (never back) and returns the new offset in
    /// milliseconds. The store adds the move to the offset it keeps, in one atomic step,
    /// so that advances made at once on this instance or on others sharing the store all
    /// count; the clock takes the sum once the store kept it, so that a failed write
    /// leaves it where a restart would find it.
    func advance(seconds: Int64, in store: any CredentialStore) async throws -> Int64 {
        let moved = try await store.add(seconds * 1000, toSetting: Self.settingKey)
        return offset.withLockedValue { value -> Int64 in
            value = max(value, moved)
            return value
        }
    }
}
