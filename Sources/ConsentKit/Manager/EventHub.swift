/// Hands each ``ConsentEvent`` to every open stream and every listener, in the order the
/// events were emitted, and never while the manager's write lock is held.
///
/// The manager ``enqueue(_:)``s events while it holds its write lock (so the queue's order is
/// the order of the changes) and calls ``deliver()`` once it has released the lock. One thread
/// at a time delivers: a thread that finds another delivering leaves its events to it, so a
/// listener that makes a change sees its own event delivered after it returns, still in order.
final class EventHub: Sendable {
    private struct Queue {
        var pending: [ConsentEvent] = []
        var delivering = false
    }

    private let listeners = Listeners<ConsentEvent>()
    private let queue = Locked(Queue())

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
