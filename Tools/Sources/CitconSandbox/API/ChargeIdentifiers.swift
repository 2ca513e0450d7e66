import NIOConcurrencyHelpers

/// A new charge's transaction id and charge token, in the order charges are created.
///
/// The id is 19 decimal digits, as before (a long numeric string, as the live API
/// writes it): the creation time in milliseconds since 1970 (13 digits), then 6
/// random digits; one generator's ids only ever increase, so it never repeats one.
/// The charge token is 32 lower-case hex digits, as before: the time in milliseconds
/// (11 digits), then 84 random bits, so it stays unguessable.
///
/// Why time first: the store indexes both, and a random key lands each new charge on
/// a random page of each index, so that every commit wrote a page per charge per
/// index. Keys that follow the clock land beside each other, and a commit of a batch
/// of charges writes one or two pages of each index (about 34 pages per batch of
/// seven charges before, 20 after; `scripts/loadtest.sh` measures the rate).
///
/// Two generators (two sandbox processes on one PostgreSQL database) can draw the same
/// id in the same millisecond (about one in a million per pair of charges): the store
/// then refuses the charge with ``ChargeIdentifiersTaken`` and writes nothing, and
/// ``SandboxAPI`` draws again.
final class ChargeIdentifiers: Sendable {
    /// The last id number drawn.
    private let last = NIOLockedValueBox<UInt64>(0)
    /// 128 random bits (the system's CSPRNG, a system call per word on Linux; a fixed
    /// source in tests).
    private let random: @Sendable () -> (UInt64, UInt64)

    /// The earliest and the latest time the 13 digits hold (2001 to 2286): a clock
    /// outside is clamped, so the id keeps its 19 digits.
    private static let earliest: UInt64 = 1_000_000_000_000, latest: UInt64 = 9_999_999_999_999

    init(random: @escaping @Sendable () -> (UInt64, UInt64) = {
        var generator = SystemRandomNumberGenerator()
        return (generator.next(), generator.next())
    }) {
        self.random = random
    }

    /// The identifiers of a charge created at `now` (milliseconds since 1970).
    func next(now: Int64) -> (id: String, chargeToken: String) {
        let time = min(max(UInt64(clamping: now), Self.earliest), Self.latest)
        let (first, second) = random()
        // Six random digits from the first word's low 32 bits (`% 1_000_000` favours
        // the lower residues by about 0.02 %, harmless in an id that is no secret).
        let drawn = time * 1_000_000 + (first & 0xFFFF_FFFF) % 1_000_000
        let number = last.withLockedValue { last in
            last = max(drawn, last + 1)
            return last
        }
        // 84 random bits of their own (the id, which is public, tells nothing of them):
        // the second word, and 20 of the first word's high 32 bits. Written at once.
        let token = String(unsafeUninitializedCapacity: 32) { buffer in
            var index = 0
            writeHex(time, digits: 11, into: buffer, at: &index)
            writeHex(second, digits: 16, into: buffer, at: &index)
            writeHex(first >> 44, digits: 5, into: buffer, at: &index)
            return index
        }
        return (String(number), token)
    }
}
