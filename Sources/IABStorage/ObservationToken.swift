/// Keeps an observer registered (of a ``KeyValueStore``, of ``ConsentManager`` events);
/// dropping it, or calling ``cancel()``, unregisters it.
public final class ObservationToken: Sendable {
    private let onCancel: Locked<(@Sendable () -> Void)?>

    /// Wraps the action that unregisters the observer.
    public init(cancel: @escaping @Sendable () -> Void) {
        onCancel = Locked(cancel)
    }

    /// Unregisters the observer; later calls do nothing.
    public func cancel() {
        let action = onCancel.withLock { action -> (@Sendable () -> Void)? in
            defer { action = nil }
            return action
        }
        action?()
    }

    deinit { cancel() }
}
