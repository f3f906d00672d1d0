import Foundation

/// Where the sync client keeps the subject credentials: consentd's subject for this installation
/// with its installation token, the signed-in user, and users' subject tokens (docs/sync.md).
///
/// One small value (JSON, a few hundred bytes per user), read when sync first runs and replaced
/// whole on each change; nothing else of the sync is a credential. ConsentKit brings two stores
/// and picks by platform (``ConsentSyncSettings/credentialStore`` nil): the Keychain
/// (`KeychainCredentialStore`, on iOS, tvOS, watchOS and visionOS) and a private file
/// (``FileCredentialStore``, elsewhere). An app may bring its own, as an app brings a logging
/// backend to swift-log: a Keychain access group of its own, say.
///
/// Calls come from the sync client's own tasks, one at a time.
public protocol SyncCredentialStore: Sendable {
    /// The value last written; nil when none is kept.
    func read() throws -> Data?
    /// Keeps `credentials` in place of what was kept, durably when this returns.
    func write(_ credentials: Data) throws
}

/// A store in memory only, gone with the process: for tests and previews (sync then starts as
/// a new installation at every launch).
public final class InMemoryCredentialStore: SyncCredentialStore {
    private let value = Locked<Data?>(nil)

    /// An empty store.
    public init() {}

    /// The value last written; nil before the first write.
    public func read() -> Data? { value.withLock { $0 } }

    /// Keeps `credentials`.
    public func write(_ credentials: Data) { value.withLock { $0 = credentials } }
}

extension ConsentSyncSettings {
    /// The store the sync uses: ``credentialStore``, else the platform's: the Keychain on iOS,
    /// tvOS, watchOS and visionOS, a ``FileCredentialStore`` in ``directory`` elsewhere (macOS
    /// included: a Keychain item there needs a signed app's entitlement or asks the user; an app
    /// may pass `KeychainCredentialStore` itself).
    var effectiveCredentialStore: any SyncCredentialStore {
        if let credentialStore { return credentialStore }
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        return KeychainCredentialStore(directory: directory)
        #else
        return FileCredentialStore(directory: directory)
        #endif
    }
}
