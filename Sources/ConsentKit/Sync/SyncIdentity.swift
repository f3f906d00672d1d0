import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Who this installation's events are written for, kept in the ``SyncCredentialStore`` (the
/// Keychain on iOS, a private file elsewhere), as JSON: consentd's anonymous subject for the
/// installation with its installation token, and the signed-in user with their tokens.
///
/// It belongs to the installation, as the installation id does: a reinstall is a new anonymous
/// subject (the Keychain store forgets an earlier install's item), and a signed-in user's choice
/// comes back through their own subject. Tokens are credentials for one subject each; the
/// publisher's secret key is never here. Earlier versions kept it in the sync folder's
/// `subject.jsonl`; it is moved to the store, and the file removed, at the first load.
struct SyncIdentity: Codable, Sendable, Equatable {
    /// The installation id (``InstallationIdentifier``) the anonymous subject belongs to.
    var installationId: String
    /// consentd's subject for this installation (`sub_…`), once created.
    var anonymousSubjectId: String?
    /// The installation token consentd gave with it.
    var installationToken: String?
    /// The signed-in user, nil when none.
    var userId: String?
    /// Tokens given to `identify(userId:token:)`, by user id; a user's entry goes once that
    /// user is signed out and their events are sent.
    var userTokens: [String: String] = [:]

    /// Earlier versions' plain file, in the sync folder `directory`.
    static func legacyFile(in directory: URL) -> URL { directory.appendingPathComponent("subject.jsonl") }

    /// The identity kept in `store` (moved there first from an earlier version's
    /// `subject.jsonl` in `directory`, which is then removed); a fresh one for installation
    /// `installationId` when none is kept; the problem found, if any (a value that does not
    /// decode is replaced by a fresh identity at the next save). A kept identity stands even
    /// when the store's installation id differs: the credentials go with the app, so kept ones
    /// are this installation's (a store written asynchronously, as `UserDefaults` is, may lose
    /// its id in a crash that the credentials survive).
    static func load(from store: any SyncCredentialStore, directory: URL, installationId: String) -> (SyncIdentity, SyncError?) {
        let fresh = SyncIdentity(installationId: installationId)
        var kept: Data?
        do {
            kept = try store.read()
            if kept == nil, let legacy = legacyLine(in: directory) {
                try store.write(legacy)
                kept = legacy
                unlink(legacyFile(in: directory).path)
            }
        } catch {
            return (fresh, .file("the sync credentials cannot be read: \(error)"))
        }
        guard let kept else { return (fresh, nil) }
        do {
            return (try JSONDecoder().decode(SyncIdentity.self, from: kept), nil)
        } catch {
            return (fresh, .file("the sync credentials do not decode (\(error)): starting as a new installation"))
        }
    }

    /// The last line of an earlier version's `subject.jsonl`, if there is one.
    private static func legacyLine(in directory: URL) -> Data? {
        guard let data = try? Data(contentsOf: legacyFile(in: directory)) else { return nil }
        let content = data.prefix { $0 != 0 }
        return content.split(separator: UInt8(ascii: "\n")).last.map { Data($0) }
    }

    /// Writes the identity to `store`, replacing what it held; a failure of the store is
    /// reported as an I/O failure of the sync's files.
    func save(to store: any SyncCredentialStore) throws(OutboxLogError) {
        let data = (try? JSONEncoder().encode(self)) ?? Data("{}".utf8)
        do {
            try store.write(data)
        } catch let error as OutboxLogError {
            throw error
        } catch {
            throw .io(path: "the sync credential store", operation: "write", errno: 0, detail: String(describing: error))
        }
    }
}
