import Foundation

/// Where the sync with consentd stands, for the app to show or log
/// (``ConsentManager/syncStatus``).
public struct SyncStatus: Sendable, Equatable {
    /// Events in the outbox, not yet acknowledged by consentd.
    public var pending: Int
    /// Events consentd refused as contract errors, kept in the dead-letter file.
    public var deadLettered: Int
    /// Events the outbox let go at its bound (the oldest), kept only as a summary.
    public var dropped: Int
    /// When consentd last acknowledged events or answered the subject's state.
    public var lastSuccess: Date?
    /// The last failure, cleared by the next success.
    public var lastError: SyncError?
    /// The subject events are written for now: the signed-in user's id, else consentd's
    /// anonymous subject for this installation (nil until consentd has created it).
    public var subjectId: String?
    /// Whether a user is identified (``ConsentManager/identify(userId:token:)``).
    public var isIdentified: Bool
    /// When the next attempt is due after a failure (nil: none is waiting).
    public var nextAttempt: Date?

    /// Creates a status.
    public init(pending: Int = 0, deadLettered: Int = 0, dropped: Int = 0, lastSuccess: Date? = nil, lastError: SyncError? = nil,
                subjectId: String? = nil, isIdentified: Bool = false, nextAttempt: Date? = nil) {
        self.pending = pending
        self.deadLettered = deadLettered
        self.dropped = dropped
        self.lastSuccess = lastSuccess
        self.lastError = lastError
        self.subjectId = subjectId
        self.isIdentified = isIdentified
        self.nextAttempt = nextAttempt
    }
}

/// A sync failure, saying what and where; the events concerned are kept (pending, or in the
/// dead-letter file), never silently lost.
public enum SyncError: Error, Sendable, Equatable, CustomStringConvertible {
    /// consentd could not be reached or answered with a server error; the events stay and are
    /// sent again after a backoff.
    case unavailable(ConsentdError)
    /// consentd asked the client to slow down (`429`/`503` with `Retry-After`).
    case throttled(status: Int, retryAfter: TimeInterval)
    /// consentd refused an event as a contract error (`400`, `409`, `410`, `422`); it was moved
    /// to the dead-letter file with this answer. A `collectedAt` more than 10 minutes after
    /// consentd's clock is one (field `collectedAt`): the device clock is wrong, and an event
    /// re-stamped with another time would no longer prove when the user chose.
    case eventRejected(eventId: String, status: Int, code: String, message: String, field: String?)
    /// The subject's credential was refused (`401`/`403`): an expired or wrong session token, or
    /// a revoked key. The events stay until a working credential is given.
    case credentialRejected(subject: String, status: Int, message: String)
    /// The signed-in user's events wait for a token: ``ConsentManager/identify(userId:token:)``
    /// was given none that works, or the app has not identified that user again since launch.
    case waitingForCredential(userId: String)
    /// The outbox reached its bound: this many of the oldest events were let go (kept as a
    /// summary with their time range).
    case outboxOverflow(dropped: Int)
    /// The outbox or credential file could not be read as written: it was moved to
    /// `setAsideAt` for inspection, and the entries that could be read were kept.
    case fileCorrupt(path: String, line: Int?, reason: String, setAsideAt: String)
    /// A file of the sync could not be written or read.
    case file(String)

    /// What went wrong.
    public var description: String {
        switch self {
        case .unavailable(let error): "consentd unavailable: \(error); the events stay queued"
        case .throttled(let status, let seconds): "consentd answered \(status); retrying after \(seconds) s"
        case .eventRejected(let eventId, let status, let code, let message, let field):
            "consentd refused event \(eventId) with \(status) \(code)" + (field.map { " (\($0))" } ?? "") + ": \(message); it is in the dead-letter file"
        case .credentialRejected(let subject, let status, let message):
            "consentd refused the credential of subject \(subject) (\(status)): \(message); the events stay queued"
        case .waitingForCredential(let userId): "events of user \(userId) wait for a subject token (identify(userId:token:))"
        case .outboxOverflow(let dropped): "the outbox is full: \(dropped) of the oldest events were let go (kept as a summary)"
        case .fileCorrupt(let path, let line, let reason, let aside):
            "\(path)" + (line.map { " line \($0)" } ?? "") + " is corrupt (\(reason)); it was moved to \(aside) and its readable entries kept"
        case .file(let message): "sync file: \(message)"
        }
    }
}
