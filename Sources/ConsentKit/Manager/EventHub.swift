/// The manager's changes, one at a time, and their events: hands each ``ConsentEvent`` to every
/// open stream and every listener, in the order the events were emitted, and never while the
/// write lock is held.
///
/// Every change runs in ``exclusive(_:)``, which holds the write lock; it ``enqueue(_:)``s its
/// events there (so the queue's order is the order of the changes), and the outermost holder
/// delivers them once it let go. One thread at a time delivers: a thread that finds another
/// delivering leaves its events to it, so a listener that makes a change sees its own event
/// delivered after it returns, still in order.
final class EventHub: Sendable {
    private struct Queue {
        var pending: [ConsentEvent] = []
        var delivering = false
    }

    private let listeners = Listeners<ConsentEvent>()
    private let queue = Locked(Queue())
    /// Serialises changes; recursive, so a store observer may make a change.
    private let writing = RecursiveLock()

    /// Runs `body` holding the write lock; once the outermost holder lets go, delivers the
    /// events `body` queued.
    func exclusive<R>(_ body: () throws -> R) rethrows -> R {
        let (result, outermost) = try writing.withLock(body)
        if outermost { deliver() }
        return result
    }

    func stream() -> AsyncStream<ConsentEvent> {
        AsyncStream(bufferingPolicy: .unbounded) { continuation in
            let token = listeners.add { continuation.yield($0) }
            continuation.onTermination = { _ in token.cancel() }
        }
    }

    func addListener(_ listener: @escaping @Sendable (ConsentEvent) -> Void) -> ObservationToken {
        listeners.add(listener)
    }

    /// Queues `event` for the next ``deliver()``.
    func enqueue(_ event: ConsentEvent) {
        queue.withLock { $0.pending.append(event) }
    }

    /// Delivers every queued event, unless another thread is delivering already (it will deliver
    /// them).
    func deliver() {
        let claimed = queue.withLock { queue -> Bool in
            guard !queue.delivering, !queue.pending.isEmpty else { return false }
            queue.delivering = true
            return true
        }
        guard claimed else { return }
        while let event = queue.withLock({ queue -> ConsentEvent? in
            guard !queue.pending.isEmpty else {
                queue.delivering = false
                return nil
            }
            return queue.pending.removeFirst()
        }) {
            listeners.notify(event)
        }
    }
}
