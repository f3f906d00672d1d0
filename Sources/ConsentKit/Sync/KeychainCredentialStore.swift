#if canImport(Security)
import Foundation
import Security

/// The sync credentials in the Keychain: one generic-password item, readable after the device's
/// first unlock and never leaving it (`kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly`: not in
/// backups, not restored onto another device). The default store on iOS, tvOS, watchOS and
/// visionOS (``SyncCredentialStore``).
///
/// Keychain items outlive the app, and the installation's subject must not: "a reinstall is a new
/// subject" (docs/sync.md). So the item's account is a random install marker kept in the sync
/// folder (`keychain-account`), which goes with the app; a folder without one is a new install,
/// and the items an earlier install left under ``service`` are deleted before a new marker is made.
///
/// On macOS the item goes to the login keychain unless the app is signed with a Keychain
/// entitlement; the accessibility class applies to the data-protection keychain only.
public struct KeychainCredentialStore: SyncCredentialStore {
    /// The items' `kSecAttrService`.
    public let service: String
    /// The sync folder, where the install marker is kept.
    public let directory: URL

    /// The store for the sync folder `directory`, its item under `service`.
    public init(directory: URL, service: String = "ConsentKit.sync") {
        self.directory = directory
        self.service = service
    }

    /// The value last written; nil when none is kept (or it was an earlier install's).
    ///
    /// - Throws: ``KeychainCredentialStoreError`` when the Keychain refuses.
    public func read() throws -> Data? {
        var query = try itemQuery()
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var result: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &result)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess else { throw KeychainCredentialStoreError(operation: "read", status: status) }
        return result as? Data
    }

    /// Keeps `credentials` in the item, creating it if needed.
    ///
    /// - Throws: ``KeychainCredentialStoreError`` when the Keychain refuses.
    public func write(_ credentials: Data) throws {
        let query = try itemQuery()
        let attributes: [String: Any] = [
            kSecValueData as String: credentials,
            kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        var status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            let item = query.merging(attributes) { _, new in new }
            status = SecItemAdd(item as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw KeychainCredentialStoreError(operation: "write", status: status) }
    }

    /// The query naming this install's item.
    private func itemQuery() throws -> [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: try account()]
    }

    /// The install marker: read from the sync folder, or made (after deleting an earlier
    /// install's items) when the folder has none.
    private func account() throws -> String {
        let marker = directory.appendingPathComponent("keychain-account")
        if let data = try? Data(contentsOf: marker), let text = String(data: data, encoding: .utf8), !text.isEmpty {
            return text
        }
        let earlier: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service]
        let status = SecItemDelete(earlier as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else {
            throw KeychainCredentialStoreError(operation: "delete an earlier install's items", status: status)
        }
        let account = UUID().uuidString.lowercased()
        try SyncFolder.prepare(directory)
        let descriptor = try SyncFolder.writeTemporary(beside: marker, Data(account.utf8))
        defer { close(descriptor) }
        try SyncFolder.commitTemporary(beside: marker)
        return account
    }
}

/// The Keychain refused a call of ``KeychainCredentialStore``.
public struct KeychainCredentialStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was asked: `read`, `write`, `delete an earlier install's items`.
    public let operation: String
    /// The Keychain's status (`errSec…`).
    public let status: OSStatus

    /// A refusal of `operation` with `status`.
    public init(operation: String, status: OSStatus) {
        self.operation = operation
        self.status = status
    }

    /// What failed, with the Keychain's own message.
    public var description: String {
        let message = SecCopyErrorMessageString(status, nil).map { $0 as String } ?? "OSStatus \(status)"
        return "the Keychain refused to \(operation) the sync credentials: \(message)"
    }
}
#endif
