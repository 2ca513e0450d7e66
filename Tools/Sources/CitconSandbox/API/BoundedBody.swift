/// How every route reads a request body: once, up to a bound. Past the bound the body is
/// still read, and discarded, up to `discardLimit` more bytes, so that a client that
/// writes its whole body before it reads gets the `413` (beyond that, ``RequestDeadline``
/// closes the connection once the answer is written).
enum BoundedBody {
    /// Reads `chunks`, handing `keep` each chunk while the total stays within `limit`
    /// (`size` tells a chunk's bytes); `false` when the body was longer than `limit`.
    static func read<Chunks: AsyncSequence>(
        _ chunks: Chunks, limit: Int, discardLimit: Int, size: (Chunks.Element) -> Int, keep: (Chunks.Element) -> Void
    ) async throws -> Bool {
        var total = 0
        for try await chunk in chunks {
            total += size(chunk)
            if total <= limit {
                keep(chunk)
            } else if total - limit > discardLimit {
                break
            }
        }
        return total <= limit
    }
}
