/// Where the CMP keeps its keys and the vendors read them: the app's `UserDefaults` by default
/// (``UserDefaultsStore``), ``InMemoryKeyValueStore`` when nothing may persist.
///
/// Writes are all-or-nothing for readers that go through the same store: ``write(_:)`` applies
/// a whole change under the store's lock and ``values(forKeys:)`` reads under it, so a reader
/// never sees a TC string from one decision next to parsed keys from another.
public protocol KeyValueStore: AnyObject, Sendable {
    /// The values stored under `keys`, read together; absent keys are left out.
    func values(forKeys keys: [String]) -> [String: StoredValue]

    /// Applies every change together: a value sets its key, nil removes it. Observers are called
    /// once, after the whole change.
    func write(_ changes: [String: StoredValue?])

    /// Calls `handler` after each change to the store, made through it or (where the backing
    /// store reports it) by other code. Keep the returned token; dropping it stops the calls.
    func observe(_ handler: @escaping @Sendable () -> Void) -> ObservationToken
}

extension KeyValueStore {
    /// The value stored under `key`.
    public func value(forKey key: String) -> StoredValue? {
        values(forKeys: [key])[key]
    }
}
