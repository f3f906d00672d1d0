import Synchronization

/// Batches concurrent submissions into one commit.
///
/// While a commit is in flight, new submissions queue; when it finishes, everything queued (up to
/// `maxBatch` items) goes into the next commit. One writer, no timer: a lone submission commits at
/// once, and under load each fsync carries many submissions. This is how SQLite reaches thousands
/// of durable appends per second, and how a PostgreSQL node takes an app's chain lock once per
/// batch instead of once per event.
///
/// A submission of several items (`submit(contentsOf:)`) is never split: its items go into one
/// commit, in their order, next to each other. A commit carries whole submissions while they fit
/// in `maxBatch` items; a submission larger than `maxBatch` commits alone.
final class GroupCommitter<Item: Sendable, Output: Sendable>: Sendable {
    /// Commits a batch and answers each item, in order. Throwing fails the whole batch.
    typealias Commit = @Sendable ([Item]) async throws -> [Result<Output, any Error>]

    /// One submission: its items, and who waits for their answers.
    private struct Waiting {
        let items: [Item]
        let continuation: CheckedContinuation<[Result<Output, any Error>], any Error>
    }

    private struct State {
        var waiting: [Waiting] = []
        var draining = false
    }

    private let state = Mutex(State())
    private let commit: Commit
    private let maxBatch: Int

    init(maxBatch: Int = 256, commit: @escaping Commit) {
        precondition(maxBatch > 0)
        self.maxBatch = maxBatch
        self.commit = commit
    }

    /// Queues `item` and returns its answer once the commit that carries it has finished.
    func submit(_ item: Item) async throws -> Output {
        try await submit(contentsOf: [item])[0].get()
    }

    /// Queues `items` together, in order, and returns their answers, in order, once the one
    /// commit that carries them all has finished. Throws when that commit failed as a whole.
    func submit(contentsOf items: [Item]) async throws -> [Result<Output, any Error>] {
        guard !items.isEmpty else { return [] }
        return try await withCheckedThrowingContinuation { continuation in
            let startDraining = state.withLock { state -> Bool in
                state.waiting.append(Waiting(items: items, continuation: continuation))
                if state.draining { return false }
                state.draining = true
                return true
            }
            if startDraining {
                Task { await self.drain() }
            }
        }
    }

    private func drain() async {
        while let batch = nextBatch() {
            do {
                var results = try await commit(batch.flatMap(\.items))[...]
                for waiting in batch {
                    var answers = Array(results.prefix(waiting.items.count))
                    results = results.dropFirst(waiting.items.count)
                    // A commit that answered too few items leaves the rest unanswered, not hanging.
                    while answers.count < waiting.items.count { answers.append(.failure(CancellationError())) }
                    waiting.continuation.resume(returning: answers)
                }
            } catch {
                for waiting in batch {
                    waiting.continuation.resume(throwing: error)
                }
            }
        }
    }

    /// The next commit's submissions: whole ones, oldest first, up to `maxBatch` items (at least
    /// one submission, however large).
    private func nextBatch() -> [Waiting]? {
        state.withLock { state in
            if state.waiting.isEmpty {
                state.draining = false
                return nil
            }
            var count = 1
            var items = state.waiting[0].items.count
            while count < state.waiting.count, items + state.waiting[count].items.count <= maxBatch {
                items += state.waiting[count].items.count
                count += 1
            }
            let batch = Array(state.waiting.prefix(count))
            state.waiting.removeFirst(count)
            return batch
        }
    }
}
