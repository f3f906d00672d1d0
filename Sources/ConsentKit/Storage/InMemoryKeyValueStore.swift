/// A ``KeyValueStore`` that keeps its keys in memory: for apps that must not persist consent
/// (a kiosk, a test run) and for tests of code built on the store.
public final class InMemoryKeyValueStore: KeyValueStore {
    private struct State {
        var values: [String: StoredValue] = [:]
        var observers: [Int: @Sendable () -> Void] = [:]
        var nextObserver = 0
    }

    private let state: Locked<State>

    /// Creates a store holding `values`.
    public init(_ values: [String: StoredValue] = [:]) {
        state = Locked(State(values: values))
    }

    /// Everything stored, for inspection.
    public var allValues: [String: StoredValue] {
        state.withLock { $0.values }
    }

    public func values(forKeys keys: [String]) -> [String: StoredValue] {
        state.withLock { state in
            var found: [String: StoredValue] = [:]
            for key in keys { found[key] = state.values[key] }
            return found
        }
    }

    public func write(_ changes: [String: StoredValue?]) {
        let observers = state.withLock { state in
            for (key, value) in changes { state.values[key] = value }
            return Array(state.observers.values)
        }
        for observer in observers { observer() }
    }

    public func observe(_ handler: @escaping @Sendable () -> Void) -> ObservationToken {
        let id = state.withLock { state in
            defer { state.nextObserver += 1 }
            state.observers[state.nextObserver] = handler
            return state.nextObserver
        }
        return ObservationToken { [weak self] in
            _ = self?.state.withLock { $0.observers.removeValue(forKey: id) }
        }
    }
}
