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
///
/// consentd keeps the newest record of each kind (``ConsentRecord/Kind``): the TCF decision is
/// this state itself (when the subject has one; else the newest record of another kind), and the
/// other kinds' newest records are in ``otherKinds``, so a client older than the kinds reads the
/// TCF decision as before. ``allKinds`` lists them all.
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
    /// The current states of the subject's other kinds (a US choice beside a TCF decision), each
    /// without ``otherKinds`` of its own; absent when there are none. A client drops an entry it
    /// cannot read (a kind newer than it), never the whole state.
    public var otherKinds: [SubjectState]?

    /// Creates a state.
    public init(subjectId: String, eventId: String, collectedAt: String, receivedAt: String, consent: ConsentRecord,
                otherKinds: [SubjectState]? = nil) {
        self.subjectId = subjectId
        self.eventId = eventId
        self.collectedAt = collectedAt
        self.receivedAt = receivedAt
        self.consent = consent
        self.otherKinds = otherKinds
    }

    /// This state and each of ``otherKinds``, one per kind, each without ``otherKinds``.
    public var allKinds: [SubjectState] {
        var first = self
        first.otherKinds = nil
        return [first] + (otherKinds ?? [])
    }

    /// The current state of `kind`; nil when the subject has none of it.
    public func state(of kind: ConsentRecord.Kind) -> SubjectState? {
        allKinds.first { $0.consent.recordKind == kind }
    }

    /// The JSON field names, as the API spells them.
    public enum CodingKeys: String, CodingKey, CaseIterable, Sendable {
        /// `subjectId`.
        case subjectId
        /// `eventId`.
        case eventId
        /// `collectedAt`.
        case collectedAt
        /// `receivedAt`.
        case receivedAt
        /// `consent`.
        case consent
        /// `otherKinds`.
        case otherKinds
    }

    /// Reads the JSON form; an entry of ``otherKinds`` that does not read is dropped.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        subjectId = try container.decode(String.self, forKey: .subjectId)
        eventId = try container.decode(String.self, forKey: .eventId)
        collectedAt = try container.decode(String.self, forKey: .collectedAt)
        receivedAt = try container.decode(String.self, forKey: .receivedAt)
        consent = try container.decode(ConsentRecord.self, forKey: .consent)
        otherKinds = try container.decodeIfPresent([Readable].self, forKey: .otherKinds).map { $0.compactMap(\.state) }
    }

    /// One entry of ``otherKinds``, nil when it does not read.
    private struct Readable: Decodable {
        var state: SubjectState?
        init(from decoder: any Decoder) throws { state = try? SubjectState(from: decoder) }
    }
}
