/// A set of handlers to call with each `Value`: what stores and the manager use to tell their
/// observers. A handler stays until its token is cancelled or dropped.
package final class Listeners<Value: Sendable>: Sendable {
    private struct Registry {
        var handlers: [Int: @Sendable (Value) -> Void] = [:]
        var next = 0
    }

    private let registry = Locked(Registry())

    /// No handler yet.
    package init() {}

    /// Adds `handler`; keep the token.
    package func add(_ handler: @escaping @Sendable (Value) -> Void) -> ObservationToken {
        let id = registry.withLock { registry in
            defer { registry.next += 1 }
            registry.handlers[registry.next] = handler
            return registry.next
        }
        return ObservationToken { [weak self] in
            _ = self?.registry.withLock { $0.handlers.removeValue(forKey: id) }
        }
    }

    /// Calls every handler with `value`, outside the lock (a handler may add or cancel others).
    package func notify(_ value: Value) {
        for handler in registry.withLock({ Array($0.handlers.values) }) { handler(value) }
    }
}
