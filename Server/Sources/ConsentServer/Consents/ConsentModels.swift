import ConsentdAPI

/// One event of a subject's history.
public struct StoredEvent: Codable, Sendable, Equatable {
    /// The client's event id.
    public var eventId: String
    /// The event's position in its app's hash chain.
    public var sequence: Int64
    /// When the choice was made (client clock).
    public var collectedAt: String
    /// When the server received it.
    public var receivedAt: String
    /// Whether the event became current when it arrived.
    public var outcome: AppendOutcome
    /// The credential it was appended with.
    public var credential: CredentialKind
    /// The subject information it came with (decrypted; absent when none).
    public var subject: SubjectInformation?
    /// The choice and its proof.
    public var consent: ConsentRecord
}

/// A page of a subject's history, oldest first.
public struct EventPage: Codable, Sendable, Equatable {
    /// The events of this page.
    public var events: [StoredEvent]
    /// Pass as `cursor` for the next page; nil on the last page.
    public var nextCursor: String?

    private enum CodingKeys: String, CodingKey { case events, nextCursor }

    /// Writes `nextCursor` as null on the last page rather than leaving it out.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(events, forKey: .events)
        try c.encode(nextCursor, forKey: .nextCursor)
    }
}

/// Everything held about one subject (GDPR Art. 15 and 20).
public struct SubjectExport: Codable, Sendable, Equatable {
    /// The subject, as the caller named it.
    public var subjectId: String
    /// The app the data belongs to.
    public var appId: String
    /// When the export was made.
    public var exportedAt: String
    /// The current state, if any.
    public var current: SubjectState?
    /// Every event, oldest first.
    public var events: [StoredEvent]

    private enum CodingKeys: String, CodingKey { case subjectId, appId, exportedAt, current, events }

    /// Writes `current` as null when there is none rather than leaving it out.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(subjectId, forKey: .subjectId)
        try c.encode(appId, forKey: .appId)
        try c.encode(exportedAt, forKey: .exportedAt)
        try c.encode(current, forKey: .current)
        try c.encode(events, forKey: .events)
    }
}

/// What is left after an erasure: no personal data, only that it happened.
public struct ErasureReceipt: Codable, Sendable, Equatable {
    /// The receipt's id.
    public var receiptId: String
    /// The app whose data was erased.
    public var appId: String
    /// When.
    public var erasedAt: String
    /// How many events lost their personal data.
    public var eventsErased: Int64
}

/// The result of checking an app's hash chain.
public struct ChainVerification: Codable, Sendable, Equatable {
    /// The app checked.
    public var appId: String
    /// How many events were checked.
    public var eventsChecked: Int64
    /// Whether every link holds.
    public var valid: Bool
    /// The first link that does not hold.
    public var firstBrokenLink: BrokenLink?

    private enum CodingKeys: String, CodingKey { case appId, eventsChecked, valid, firstBrokenLink }

    /// Writes `firstBrokenLink` as null for a valid chain rather than leaving it out.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(appId, forKey: .appId)
        try c.encode(eventsChecked, forKey: .eventsChecked)
        try c.encode(valid, forKey: .valid)
        try c.encode(firstBrokenLink, forKey: .firstBrokenLink)
    }

    /// A link of the chain that does not hold.
    public struct BrokenLink: Codable, Sendable, Equatable {
        /// The event's position in the chain.
        public var sequence: Int64
        /// The event's id, if the row is there.
        public var eventId: String?
        /// What does not match.
        public var reason: String

        private enum CodingKeys: String, CodingKey { case sequence, eventId, reason }

        /// Writes `eventId` as null when the row is missing.
        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(sequence, forKey: .sequence)
            try c.encode(eventId, forKey: .eventId)
            try c.encode(reason, forKey: .reason)
        }
    }
}
