/// The answer to `POST /v1/consents` (`201` for a new event, `200` for a retry): the outcome and
/// the subject's winning state, so a client converges.
public struct AppendResult: Sendable, Equatable, Codable {
    /// The event appended (or found, for a retry), lower-cased.
    public var eventId: String
    /// The subject, as given or as the server created it.
    public var subjectId: String
    /// Whether this event became the subject's current state.
    public var outcome: AppendOutcome
    /// The subject's current state after the append: this event's, or the newer one that stands.
    public var current: SubjectState
    /// With a publishable key (the event had no `subjectId`, so consentd created the subject):
    /// the installation token, the only credential that may write this subject again. Keep it
    /// where the app keeps secrets; it does not expire.
    public var subjectToken: String?

    /// Creates an answer.
    public init(eventId: String, subjectId: String, outcome: AppendOutcome, current: SubjectState, subjectToken: String? = nil) {
        self.eventId = eventId
        self.subjectId = subjectId
        self.outcome = outcome
        self.current = current
        self.subjectToken = subjectToken
    }
}

/// Whether an appended event became the subject's current state; the raw values are the API's.
public enum AppendOutcome: String, Sendable, Equatable, Codable, CaseIterable {
    /// The event is now the subject's current state.
    case current
    /// A choice made later (by `collectedAt`, then event id) stands; the event is kept as history.
    case history
}

/// A subject's current state and the event that proves it (also `GET /v1/subjects/{subjectId}`).
public struct SubjectState: Sendable, Equatable, Codable {
    /// The subject, as the caller named it.
    public var subjectId: String
    /// The event whose choice this is.
    public var eventId: String
    /// When the choice was made (client clock), `2026-11-23T10:15:30.250Z`.
    public var collectedAt: String
    /// When the server received it, in the same form.
    public var receivedAt: String
    /// The choice and its proof.
    public var consent: ConsentRecord

    /// Creates a state.
    public init(subjectId: String, eventId: String, collectedAt: String, receivedAt: String, consent: ConsentRecord) {
        self.subjectId = subjectId
        self.eventId = eventId
        self.collectedAt = collectedAt
        self.receivedAt = receivedAt
        self.consent = consent
    }
}
