import Foundation
import Synchronization
import Testing

/// A body `withDeadline` stopped waiting for.
struct DeadlineExceeded: Error, CustomStringConvertible {
    let what: String
    let limit: Duration

    var description: String {
        "\(what) did not finish within \(limit) and was abandoned, still running (a loop that never checks for cancellation?)"
    }
}

/// Runs `body` on a thread of its own and returns what it returns, or throws `DeadlineExceeded`
/// once `limit` has passed, without waiting for `body` to end.
///
/// `.timeLimit` alone does not end a test that spins: when the time is up Swift Testing cancels
/// the test's task and then waits for it, so code that never checks for cancellation (such as the
/// diff `#expect` computes for two unequal `Data`; see `Bytes`) keeps the test, and `swift test`,
/// running for as long as it spins. Nor would a timer in another task do on its own: two spinning
/// tests fill the cooperative pool of a 2-core machine and the timer never runs. So `body` runs on
/// a dedicated thread (its task prefers a `ThreadExecutor`), the pool stays free for the timer and
/// the test, and the test fails when the time is up; an abandoned body spins on in its thread
/// until the test process exits. `body` inherits the test's task-local values, so its
/// expectations are reported against the test.
func withDeadline<T: Sendable>(
    _ limit: Duration, _ what: String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let executor = ThreadExecutor(name: "deadline: \(what)")
    let work = Task(executorPreference: executor) { try await body() }
    let answered = Once()
    return try await withTaskCancellationHandler {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
            let timer = Task {
                do { try await Task.sleep(for: limit) } catch { return }
                guard answered.claim() else { return }
                work.cancel()
                continuation.resume(throwing: DeadlineExceeded(what: what, limit: limit))
            }
            Task {
                let result = await work.result
                timer.cancel()
                executor.stop()
                guard answered.claim() else { return }
                continuation.resume(with: result)
            }
        }
    } onCancel: {
        work.cancel()
    }
}

/// A task executor that runs its jobs, in order, on one thread of its own, outside the
/// cooperative pool.
final class ThreadExecutor: TaskExecutor, Sendable {
    private struct Queue {
        var jobs: [UnownedJob] = []
        var stopping = false
        var stopped = false
    }

    private let queue = Mutex(Queue())
    private let available = DispatchSemaphore(value: 0)

    init(name: String) {
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.start()
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let queued = queue.withLock { queue in
            if queue.stopped { return false }
            queue.jobs.append(job)
            return true
        }
        if queued {
            available.signal()
        } else {
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
        }
    }

    /// Ends the thread once the jobs enqueued so far have run; later ones go to the global
    /// concurrent executor.
    func stop() {
        queue.withLock { $0.stopping = true }
        available.signal()
    }

    private func run() {
        while true {
            available.wait()
            let job = queue.withLock { queue -> UnownedJob? in
                if !queue.jobs.isEmpty { return queue.jobs.removeFirst() }
                if queue.stopping { queue.stopped = true }
                return nil
            }
            if let job {
                job.runSynchronously(on: asUnownedTaskExecutor())
            } else if queue.withLock({ $0.stopped }) {
                return
            }
        }
    }
}

/// A flag the first claimant takes.
private final class Once: Sendable {
    private let taken = Mutex(false)

    /// True for the first call only.
    func claim() -> Bool {
        taken.withLock { taken in
            defer { taken = true }
            return !taken
        }
    }
}
