import Foundation
import Testing
@testable import ConsentKit

@Suite("Installation id")
struct InstallationIdentifierTests {
    @Test("the installation id is made on first use and kept in the store under ConsentKit's key")
    func keptInStore() {
        let store = InMemoryKeyValueStore()
        let id = InstallationIdentifier.id(in: store)
        #expect(store.value(forKey: "ConsentKit_InstallationID") == .string(id.uuidString))
    }

    @Test("every manager over the same store sees the same installation id")
    func stableAcrossManagers() {
        let store = InMemoryKeyValueStore()
        let first = makeTrackingManager(store: store).installationId
        let second = makeTrackingManager(store: store).installationId
        #expect(first == second)
    }

    @Test("a cleared store, as after a reinstall, gets a new installation id")
    func newAfterReinstall() {
        let store = InMemoryKeyValueStore()
        let before = InstallationIdentifier.id(in: store)
        store.write(Dictionary(uniqueKeysWithValues: store.allValues.keys.map { ($0, StoredValue?.none) }))
        let after = InstallationIdentifier.id(in: store)
        #expect(before != after)
    }

    @Test("the installation id is neither the vendor nor the advertising identifier")
    func notADeviceIdentifier() async {
        let device = SimulatedDeviceIdentifiers(advertisingIdentifier: UUID(), vendorIdentifier: UUID())
        let ids = await TrackingIdentifiers.current(tracking: SimulatedTrackingAuthorization(status: .authorized), device: device, store: InMemoryKeyValueStore())
        #expect(ids.installationId != ids.vendorIdentifier)
        #expect(ids.installationId != ids.advertisingIdentifier)
    }

    @Test("two installations on the same device get different ids: nothing is derived from the device")
    func notDerivedFromDevice() async {
        let device = SimulatedDeviceIdentifiers(advertisingIdentifier: UUID(), vendorIdentifier: UUID())
        let tracking = SimulatedTrackingAuthorization(status: .authorized)
        let first = await TrackingIdentifiers.current(tracking: tracking, device: device, store: InMemoryKeyValueStore())
        let second = await TrackingIdentifiers.current(tracking: tracking, device: device, store: InMemoryKeyValueStore())
        #expect(first.installationId != second.installationId)
    }

    @Test("a stored value that is not a UUID is replaced by a new id")
    func unreadableReplaced() {
        let store = InMemoryKeyValueStore([InstallationIdentifier.storeKey: .string("not-a-uuid")])
        let id = InstallationIdentifier.id(in: store)
        #expect(store.value(forKey: InstallationIdentifier.storeKey) == .string(id.uuidString))
        #expect(InstallationIdentifier.id(in: store) == id)
    }

    @Test("concurrent first uses agree on one id")
    func concurrentFirstUse() {
        let store = SlowReadingStore()
        let ids = Locked(Set<UUID>())
        DispatchQueue.concurrentPerform(iterations: 16) { _ in
            let id = InstallationIdentifier.id(in: store)
            ids.withLock { _ = $0.insert(id) }
        }
        #expect(ids.withLock { $0.count } == 1)
    }
}

/// An in-memory store whose reads take a millisecond to return what they found, so a reader
/// that does not hold a lock from read to write would miss another's write.
private final class SlowReadingStore: KeyValueStore {
    private let backing = InMemoryKeyValueStore()

    func values(forKeys keys: [String]) -> [String: StoredValue] {
        let found = backing.values(forKeys: keys)
        Thread.sleep(forTimeInterval: 0.001)
        return found
    }

    func write(_ changes: [String: StoredValue?]) {
        backing.write(changes)
    }

    func observe(_ handler: @escaping @Sendable () -> Void) -> ObservationToken {
        backing.observe(handler)
    }
}
