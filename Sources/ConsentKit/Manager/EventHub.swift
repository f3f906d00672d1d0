/// Hands each ``ConsentEvent`` to every open stream and every listener.
final class EventHub: Sendable {
    private let listeners = Listeners<ConsentEvent>()

    func stream() -> AsyncStream<ConsentEvent> {
        AsyncStream(bufferingPolicy: .unbounded) { continuation in
            let token = listeners.add { continuation.yield($0) }
            continuation.onTermination = { _ in token.cancel() }
        }
    }

    func addListener(_ listener: @escaping @Sendable (ConsentEvent) -> Void) -> ObservationToken {
        listeners.add(listener)
    }

    func emit(_ event: ConsentEvent) {
        listeners.notify(event)
    }
}
