import Foundation

/// Who this installation's events are written for, kept in the sync folder (`subject.jsonl`,
/// replaced atomically): consentd's anonymous subject for the installation with its
/// installation token, and the signed-in user.
///
/// The folder belongs to the installation (Application Support is deleted with the app), as the
/// installation id does: a reinstall is a new anonymous subject, and a signed-in user's choice
/// comes back through their own subject. Tokens are credentials for one subject each; the
/// publisher's secret key is never here.
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

    /// The file, in `directory`.
    static func file(in directory: URL) -> URL { directory.appendingPathComponent("subject.jsonl") }

    /// The identity kept in `log`; a fresh one for installation `installationId` when none is
    /// kept; the corruption found, if any (the file is then set aside). A kept identity stands
    /// even when the store's installation id differs: the folder is deleted with the app, so a
    /// folder that is there is this installation's (a store written asynchronously, as
    /// `UserDefaults` is, may lose its id in a crash that the folder survives).
    static func load(from log: OutboxLog, installationId: String, now: Date) -> (SyncIdentity, SyncError?) {
        let fresh = SyncIdentity(installationId: installationId)
        let lines: [(number: Int, text: Data)]
        do {
            lines = try log.read().lines
        } catch {
            return (fresh, .file(String(describing: error)))
        }
        guard let last = lines.last else { return (fresh, nil) }
        do {
            let kept = try JSONDecoder().decode(SyncIdentity.self, from: last.text)
            return (kept, nil)
        } catch {
            let aside = (try? log.setAside(at: now))?.path ?? "(could not be moved)"
            return (fresh, .fileCorrupt(path: log.url.path, line: last.number, reason: String(describing: error), setAsideAt: aside))
        }
    }

    /// Writes the identity, replacing the file atomically.
    func save(to log: OutboxLog) throws(OutboxLogError) {
        let data = (try? JSONEncoder().encode(self)) ?? Data("{}".utf8)
        try log.replace(with: [data], reserving: false)
    }
}

/// What the keys reflect, for last-writer-wins: the time and event id of the decision held
/// (the manager writes it with every decision's keys), or of a removal.
struct SyncMark: Sendable, Equatable, Comparable {
    /// Milliseconds since 1970 (the event's `collectedAt`).
    var collectedAt: Int64
    /// The event id; empty for a removal or a decision made before sync.
    var eventId: String
    /// How the decision was made (a proof method's raw value; empty when unknown).
    var method: String

    /// The store key.
    static let key = "ConsentKit_SyncMark"

    /// `ms|eventId|method`.
    var stored: String { "\(collectedAt)|\(eventId)|\(method)" }

    init(collectedAt: Int64, eventId: String, method: String) {
        self.collectedAt = collectedAt
        self.eventId = eventId
        self.method = method
    }

    init(date: Date, eventId: String, method: String) {
        // Rounded, as decisions' times are: a time read back from `…T10:15:30.250Z` may be a
        // hair under .250 as a Double, and must still be that millisecond.
        self.init(collectedAt: Int64((date.timeIntervalSince1970 * 1000).rounded()), eventId: eventId, method: method)
    }

    init?(stored: String) {
        let parts = stored.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 3, let time = Int64(parts[0]) else { return nil }
        self.init(collectedAt: time, eventId: String(parts[1]), method: String(parts[2]))
    }

    /// consentd's order: `collectedAt`, then event id.
    static func < (lhs: SyncMark, rhs: SyncMark) -> Bool {
        (lhs.collectedAt, lhs.eventId) < (rhs.collectedAt, rhs.eventId)
    }
}
