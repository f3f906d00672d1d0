import Synchronization

/// Batches concurrent submissions into one commit.
///
/// While a commit is in flight, new submissions queue; when it finishes, everything queued (up to
/// `maxBatch`) goes into the next commit. One writer, no timer: a lone submission commits at
/// once, and under load each fsync carries many submissions. This is how SQLite reaches thousands
/// of durable appends per second, and how a PostgreSQL node takes an app's chain lock once per
/// batch instead of once per event.
final class GroupCommitter<Item: Sendable, Output: Sendable>: Sendable {
    /// Commits a batch and answers each item, in order. Throwing fails the whole batch.
    typealias Commit = @Sendable ([Item]) async throws -> [Result<Output, any Error>]

    private struct Waiting {
        let item: Item
        let continuation: CheckedContinuation<Output, any Error>
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
        try await withCheckedThrowingContinuation { continuation in
            let startDraining = state.withLock { state -> Bool in
                state.waiting.append(Waiting(item: item, continuation: continuation))
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
                let results = try await commit(batch.map(\.item))
                for (waiting, result) in zip(batch, results) {
                    waiting.continuation.resume(with: result)
                }
                if results.count < batch.count {
                    for waiting in batch[results.count...] {
                        waiting.continuation.resume(throwing: CancellationError())
                    }
                }
            } catch {
                for waiting in batch {
                    waiting.continuation.resume(throwing: error)
                }
            }
        }
    }

    private func nextBatch() -> [Waiting]? {
        state.withLock { state in
            if state.waiting.isEmpty {
                state.draining = false
                return nil
            }
            let count = min(maxBatch, state.waiting.count)
            let batch = Array(state.waiting.prefix(count))
            state.waiting.removeFirst(count)
            return batch
        }
    }
}
