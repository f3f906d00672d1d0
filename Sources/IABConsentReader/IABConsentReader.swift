/// Reads the IAB in-app keys any CMP wrote, for third-party SDKs: what a vendor or mediation
/// SDK needs to decide, with no dependency on the CMP that wrote them.
///
/// ```swift
/// let reader = IABConsentReader()                 // UserDefaults.standard, where CMPs write
/// let snapshot = reader.snapshot()
/// if snapshot.mayProcess(vendor: myDeclaration, purpose: 1) { startTracking() }
///
/// let token = reader.observe { snapshot in reconfigure(with: snapshot) }   // keep the token
/// ```
///
/// Each snapshot is read in one ``KeyValueStore/values(forKeys:)`` call, so it never mixes
/// keys from two CMP decisions written through a ``KeyValueStore``. A reader holds no state of
/// its own; make as many as you like.
public struct IABConsentReader: Sendable {
    /// The store the keys are read from.
    public let store: any KeyValueStore

    /// A reader over `store`: by default `UserDefaults.standard`, where the specs put the keys.
    public init(store: any KeyValueStore = UserDefaultsStore()) {
        self.store = store
    }

    /// The keys as they are now.
    public func snapshot() -> IABConsentSnapshot {
        IABConsentSnapshot(values: store.values(forKeys: IABConsentSnapshot.keys))
    }

    /// Calls `handler` with the new snapshot after each change to the store that changes the
    /// snapshot; rewriting the same values, or changing keys a snapshot does not read, calls
    /// nothing. Keep the returned token; dropping it (or calling
    /// ``ObservationToken/cancel()``) stops the calls.
    ///
    /// `handler` runs on the thread that made the change, after the change is whole. It may
    /// read, write or cancel; calls from changes made at the same time on several threads may
    /// overlap.
    public func observe(_ handler: @escaping @Sendable (IABConsentSnapshot) -> Void) -> ObservationToken {
        startObserving(handler).token
    }

    /// The current snapshot, then each changed one, as ``observe(_:)`` sees them. A consumer
    /// slower than the changes gets the latest snapshot, not every one in between. The stream
    /// stops observing when the consuming task ends or is cancelled.
    public func snapshots() -> AsyncStream<IABConsentSnapshot> {
        AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let (token, current) = startObserving { continuation.yield($0) }
            continuation.yield(current)
            continuation.onTermination = { _ in token.cancel() }
        }
    }

    /// Registers with the store first, then takes the snapshot changes are compared with, so no
    /// change between the two is lost: one that lands first becomes the starting snapshot.
    private func startObserving(
        _ handler: @escaping @Sendable (IABConsentSnapshot) -> Void
    ) -> (token: ObservationToken, current: IABConsentSnapshot) {
        let last = Locked<IABConsentSnapshot?>(nil)
        let reader = self
        let storeToken = store.observe {
            // Read and compare under the lock so two changes cannot both pass as new; call the
            // handler outside it, so a handler that writes to the store cannot deadlock.
            let changed = last.withLock { last -> IABConsentSnapshot? in
                let now = reader.snapshot()
                defer { last = now }
                guard let previous = last, previous != now else { return nil }
                return now
            }
            if let changed { handler(changed) }
        }
        let current = last.withLock { last in
            let current = last ?? reader.snapshot()
            last = current
            return current
        }
        return (ObservationToken { storeToken.cancel() }, current)
    }
}
