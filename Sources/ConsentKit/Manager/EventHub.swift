/// Hands each ``ConsentEvent`` to every open stream and every listener.
final class EventHub: Sendable {
    private struct Subscribers {
        var streams: [Int: AsyncStream<ConsentEvent>.Continuation] = [:]
        var listeners: [Int: @Sendable (ConsentEvent) -> Void] = [:]
        var next = 0
    }

    private let subscribers = Locked(Subscribers())

    func stream() -> AsyncStream<ConsentEvent> {
        AsyncStream(bufferingPolicy: .unbounded) { continuation in
            let id = subscribers.withLock { subscribers in
                defer { subscribers.next += 1 }
                subscribers.streams[subscribers.next] = continuation
                return subscribers.next
            }
            continuation.onTermination = { [weak self] _ in
                _ = self?.subscribers.withLock { $0.streams.removeValue(forKey: id) }
            }
        }
    }

    func addListener(_ listener: @escaping @Sendable (ConsentEvent) -> Void) -> ObservationToken {
        let id = subscribers.withLock { subscribers in
            defer { subscribers.next += 1 }
            subscribers.listeners[subscribers.next] = listener
            return subscribers.next
        }
        return ObservationToken { [weak self] in
            _ = self?.subscribers.withLock { $0.listeners.removeValue(forKey: id) }
        }
    }

    func emit(_ event: ConsentEvent) {
        let (streams, listeners) = subscribers.withLock { (Array($0.streams.values), Array($0.listeners.values)) }
        for stream in streams { stream.yield(event) }
        for listener in listeners { listener(event) }
    }
}
