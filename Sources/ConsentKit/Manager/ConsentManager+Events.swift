
/// The events, and the write lock that orders them: every change runs in
/// ``exclusive(_:)`` and queues its events there; they are delivered once it let go.
extension ConsentManager {
    /// The events from now on, in order; the stream ends when the caller stops iterating.
    public func events() -> AsyncStream<ConsentEvent> {
        hub.stream()
    }

    /// Calls `listener` with every event from now on, in order, after the change that made it
    /// let go of the manager's lock, on the thread that delivers (usually the one that made the
    /// change); keep the token.
    public func addListener(_ listener: @escaping @Sendable (ConsentEvent) -> Void) -> ObservationToken {
        hub.addListener(listener)
    }

    /// Runs `body` holding the write lock; once the outermost holder lets go, delivers the
    /// events `body` queued.
    func exclusive<R>(_ body: () throws -> R) rethrows -> R {
        try hub.exclusive(body)
    }
}
