/// A ``KeyValueStore`` that keeps its keys in memory: for apps that must not persist consent
/// (a kiosk, a test run) and for tests of code built on the store.
public final class InMemoryKeyValueStore: KeyValueStore {
    private let stored: Locked<[String: StoredValue]>
    private let observers = Listeners<Void>()

    /// Creates a store holding `values`.
    public init(_ values: [String: StoredValue] = [:]) {
        stored = Locked(values)
    }

    /// Everything stored, for inspection.
    public var allValues: [String: StoredValue] {
        stored.withLock { $0 }
    }

    public func values(forKeys keys: [String]) -> [String: StoredValue] {
        stored.withLock { stored in
            var found: [String: StoredValue] = [:]
            for key in keys { found[key] = stored[key] }
            return found
        }
    }

    public func write(_ changes: [String: StoredValue?]) {
        stored.withLock { stored in
            for (key, value) in changes { stored[key] = value }
        }
        observers.notify(())
    }

    public func observe(_ handler: @escaping @Sendable () -> Void) -> ObservationToken {
        observers.add { _ in handler() }
    }
}
