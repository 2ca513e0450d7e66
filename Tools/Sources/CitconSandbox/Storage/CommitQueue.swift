import NIOConcurrencyHelpers

/// Writes waiting for the next commit, and the one drain that commits them a batch at a
/// time: the group commit of ``SQLiteSandboxStore`` and of the PostgreSQL store.
///
/// A write is queued with ``enqueue(_:)``; the first one queued while no drain runs
/// starts one, which takes batches with ``nextBatch(limit:)`` until none is left.
/// ``close()`` takes no more writes, and the storage is closed once the writes queued
/// before it are committed: at once when no drain runs, else by the drain when it ends.
package final class CommitQueue<Job: Sendable>: Sendable {
    private struct State: Sendable {
        var pending: [Job] = []
        var draining = false
        var closed = false
        var batches = 0
    }

    private let state = NIOLockedValueBox(State())

    package init() {}

    /// What ``enqueue(_:)`` asks of its caller.
    package enum Start {
        /// The queue is closed: refuse the write.
        case closed
        /// No drain ran: start one.
        case drain
        /// A drain runs and will take the write.
        case queued
    }

    /// Queues `job`, unless the queue is closed.
    package func enqueue(_ job: Job) -> Start {
        state.withLockedValue { queue in
            guard !queue.closed else { return .closed }
            queue.pending.append(job)
            guard !queue.draining else { return .queued }
            queue.draining = true
            return .drain
        }
    }

    /// The next batch, at most `limit` writes in the order they came. When it is empty
    /// the drain has ended, and `closeStorage` says whether it must close the storage
    /// (``close()`` came while it ran).
    package func nextBatch(limit: Int) -> (jobs: [Job], closeStorage: Bool) {
        state.withLockedValue { queue in
            let jobs = Array(queue.pending.prefix(limit))
            queue.pending.removeFirst(jobs.count)
            if jobs.isEmpty { queue.draining = false } else { queue.batches += 1 }
            return (jobs, jobs.isEmpty && queue.closed)
        }
    }

    /// How many batches drains have taken so far (each one a commit).
    package var batchesTaken: Int { state.withLockedValue(\.batches) }

    /// Whether ``close()`` was called.
    package var isClosed: Bool { state.withLockedValue(\.closed) }

    /// Takes no more writes. Returns whether the caller closes the storage now (no drain
    /// runs, and this is the first call); otherwise the drain closes it when it ends.
    package func close() -> Bool {
        state.withLockedValue { queue in
            defer { queue.closed = true }
            return !queue.closed && !queue.draining
        }
    }
}
