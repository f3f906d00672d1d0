import Foundation

/// The installation id: a random UUID that ConsentKit makes the first time it is needed and
/// keeps in the app's `KeyValueStore` under ``storeKey``. It names this installation of the
/// app (for consent records), never the device: it is not derived from the advertising or
/// vendor identifier, and no other app can read it.
///
/// Why the store and not the keychain: `UserDefaults` lives in the app's container, which the
/// system deletes with the app, so a reinstall gets a new id, as the IOLib note describes.
/// Keychain items outlive the app; an id there would survive deletion and follow the user
/// like a device identifier they cannot reset. (A backup restored onto a new device brings
/// `UserDefaults`, and so the id, along; an app-group suite shares it among the group's apps.)
public enum InstallationIdentifier {
    /// The key the id is kept under, as its UUID string.
    public static let storeKey = "ConsentKit_InstallationID"

    /// Makes "read, else create and write" one step within the process.
    private static let creating = Locked(())

    /// The id kept in `store`; a new random one, written there, when none is kept or the kept
    /// value is not a UUID.
    public static func id(in store: any KeyValueStore) -> UUID {
        creating.withLock { _ in
            if let kept = store.value(forKey: storeKey)?.string.flatMap(UUID.init(uuidString:)) { return kept }
            let made = UUID()
            store.write([storeKey: .string(made.uuidString)])
            return made
        }
    }
}
